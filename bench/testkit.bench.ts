// The test kit (parley/testing): createTestChat with the default and the Zulip development
// fixtures against createChatServer(:memory:), and snapshot / restore of an organization of 100
// users and 1,000 messages against a raw serialize and createChatServer(:memory:). Each pair is
// measured in alternating runs, so a change in the machine's load hits both sides alike.
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { createTestChat, zulipDev, type ChatFixture } from '../lib/testing/index.js';
import { median, record } from './harness.js';

const GROUP = 'test kit';
const RUNS = 31;

/** Median ms of each function over RUNS alternating runs; the event loop turns between runs. */
async function alternating(...fns: (() => unknown)[]): Promise<number[]> {
  const times = fns.map(() => [] as number[]);
  for (let run = -3; run < RUNS; run++) {
    for (const [index, fn] of fns.entries()) {
      const start = process.hrtime.bigint();
      await fn();
      if (run >= 0) times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
      await nextTurn();
    }
  }
  return times.map(median);
}

async function bareServer(): Promise<void> {
  const db = new Database(':memory:');
  const chat = createChatServer(db, { logger: silentLogger });
  chat.api.server.settings(null);
  await chat.close();
  db.close();
}

async function creation(): Promise<void> {
  const logger = { chat: { logger: silentLogger } };
  const [bare, plain, zulip] = await alternating(
    bareServer,
    async () => (await createTestChat(undefined, logger)).close(),
    async () => (await createTestChat(zulipDev, logger)).close(),
  );
  const baseline = { name: 'createChatServer(:memory:) until it serves', value: bare! };
  record({ group: GROUP, name: baseline.name, value: bare!, unit: 'ms', target: '< 5 ms' });
  record({ group: GROUP, name: 'createTestChat() (an owner, the initial channels)', value: plain!, unit: 'ms', baseline });
  record({ group: GROUP, name: 'createTestChat(zulipDev) (12 users, 8 channels, 8 messages, drafts, linkifiers)', value: zulip!, unit: 'ms', baseline });
}

/** 100 users in 5 channels of everyone, 1,000 messages. */
function largeFixture(): ChatFixture {
  const users: Record<string, object> = { owner: { role: 'owner' } };
  for (let i = 1; i < 100; i++) users[`user${i}`] = {};
  const keys = Object.keys(users);
  const names = ['general', 'design', 'support', 'social', 'announce'];
  const channels = Object.fromEntries(names.map((name) => [name, { subscribers: 'everyone' as const }]));
  const messages = Array.from({ length: 1000 }, (_, i) => ({
    from: keys[i % keys.length]!,
    channel: names[i % names.length]!,
    topic: `topic ${i % 20}`,
    content: `Message ${i}: some **bold** text and a [link](https://example.com/${i}).`,
  }));
  return { users, channels, messages };
}

async function snapshots(): Promise<void> {
  const chat = await createTestChat(largeFixture(), { chat: { logger: silentLogger } });
  const owner = chat.users.owner!;
  const snapshot = chat.snapshot();
  const send = () => chat.api.messages.send(owner, { type: 'stream', to: 'general', topic: 'bench', content: 'Hello :wave:' });
  const [raw, taken] = await alternating(
    () => chat.db.serialize(),
    () => chat.snapshot(),
  );
  const [bare, restored, restoredAndSent, warmSend] = await alternating(
    bareServer,
    () => chat.restore(snapshot),
    () => {
      chat.restore(snapshot);
      send();
    },
    send,
  );
  const size = `${(snapshot.byteLength / 1024 / 1024).toFixed(1)} MiB`;
  const serialize = { name: 'raw db.serialize() of the same database', value: raw! };
  record({ group: GROUP, name: serialize.name, value: raw!, unit: 'ms' });
  record({ group: GROUP, name: `snapshot(), 100 users and 1,000 messages (${size})`, value: taken!, unit: 'ms', baseline: serialize, target: '< 5 ms' });
  const fresh = { name: 'createChatServer(:memory:) until it serves', value: bare! };
  record({ group: GROUP, name: 'restore() of that snapshot', value: restored!, unit: 'ms', baseline: fresh, target: '< 5 ms' });
  record({
    group: GROUP,
    name: 'restore(), then a message to a channel of 100',
    value: restoredAndSent!,
    unit: 'ms',
    baseline: { name: 'the same message on a warm server', value: warmSend! },
  });
  await chat.close();
}

export async function run(): Promise<void> {
  await creation();
  await snapshots();
}
