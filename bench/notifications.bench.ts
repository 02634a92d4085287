// Notifications on the send path, in-process: a send to a channel of 1,000 subscribers with
// @all, every subscriber offline with a registered phone (1,000 push notifications decided and
// written as one delivery), next to the same send on a server without notifications; and an
// ordinary send on both. Deliveries are sent after the timed loops (which never yield). CPU
// time per send: the cost is the process's own work, and wall time on a shared machine moves
// with other processes' load more than with it.
import type { ChatOptions, ChatServer } from '../lib/index.js';
import { interleaved, record } from './harness.js';
import { openBenchChat, type BenchChat } from './chat.js';

const SUBSCRIBERS = 1000;

/** A bouncer that answers every request at once, in-process: the deliveries cost no network. */
const fakeBouncerFetch = (async () =>
  new Response(JSON.stringify({ result: 'success', msg: '', delete_token_ids: [], realm_push_status: { can_push: true } }), { status: 200 })) as never;

const PUSH: ChatOptions = { push: { bouncerUrl: 'http://127.0.0.1:9', serverId: 'bench', serverKey: 'bench', fetch: fakeBouncerFetch } };
/** Every channel on: push, missed-message emails (an application's send), the application's hook. */
const ALL: ChatOptions = { ...PUSH, email: { send: () => {} }, notify: () => {} };

async function setUp(options: ChatOptions, phones: boolean): Promise<BenchChat & { send: (content: string) => () => void }> {
  // :memory:, so that the figure is the CPU cost, not the disk's moods.
  const bench = await openBenchChat({ file: false, chat: options });
  const { chat, db, ownerId } = bench;
  const userIds: number[] = [];
  for (let i = 1; i < SUBSCRIBERS; i++) userIds.push((await chat.admin.addUser({ email: `user${i}@example.com`, fullName: `User ${i}` })).user_id);
  chat.api.streams.subscribe(ownerId, { subscriptions: [{ name: 'everyone' }], principals: userIds });
  if (phones) {
    const device = db.prepare("INSERT INTO device (user_id, push_key, push_key_id, push_token_id, push_token_kind, date_created) VALUES (?, ?, 1, ?, 'fcm', 0)");
    db.transaction(() => userIds.forEach((id) => device.run(id, Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, id % 250)]), `token${id}`)))();
  }
  const send = (content: string) => () => (chat as ChatServer).api.messages.send(ownerId, { type: 'stream', to: 'everyone', topic: 'bench', content });
  return { ...bench, send };
}

export async function run(): Promise<void> {
  const plain = await setUp({}, false);
  const pushing = await setUp(PUSH, true);
  const everything = await setUp(ALL, true);
  for (const [name, server, content, target] of [
    ['@all to 1,000 subscribers, every one offline with a phone', pushing, '@**all** hello', '<= 130%'],
    ['an ordinary send to 1,000 subscribers with push on (no one to notify)', pushing, 'hello **everyone**', '~100%'],
    ['@all to 1,000 offline subscribers with push, missed-message email and the hook on', everything, '@**all** hello', ''],
  ] as const) {
    const [baseMs, notifyMs] = interleaved(plain.send(content), server.send(content), 20, 9, 'cpu');
    record({
      group: 'notifications',
      name: `${name} (in-process, :memory:, CPU time)`,
      value: notifyMs,
      unit: 'ms',
      baseline: { name: 'the same send on a server without notifications', value: baseMs },
      ...(target ? { target } : {}),
    });
  }
  for (const server of [plain, pushing, everything]) await server.close();
}
