// Large organizations (1,000 / 10,000 / 100,000 users; LARGE_ORG_SIZES=1000,10000 picks sizes):
// what a message to everyone, a /register, adding users, first_unread and a channel search cost
// as the organization grows, each figure printed per size with its growth from the smallest size.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { userCommand } from '../lib/cli_user.js';
import { hashPassword } from '../lib/domain/credentials.js';
import { fmt, record } from './harness.js';
import { largeOrgCopy, type LargeOrg } from './large_org_fixture.js';
import { concurrentReadDelay, medianMs, registerFigures, sendFigures } from './large_org_probes.js';

const SIZES = (process.env.LARGE_ORG_SIZES ?? '1000,10000,100000').split(',').map(Number);

interface Row {
  name: string;
  unit: string;
  target: string;
  values: Map<number, number>;
}
const rows = new Map<string, Row>();

function figure(size: number, name: string, value: number, unit: string, target = '', baseline?: { name: string; value: number }): void {
  record({ group: 'large org', name: `${name} (${size.toLocaleString('en-US')} users)`, value, unit, target, ...(baseline && { baseline }) });
  const row = rows.get(name) ?? { name, unit, target, values: new Map() };
  row.values.set(size, value);
  rows.set(name, row);
}

/** chat.admin.addUsers of `size` users into a new organization (with its two default channels). */
async function batchImport(size: number, dir: string): Promise<void> {
  const db = new Database(join(dir, `import-${size}.db`));
  const chat = createChatServer(db, { logger: silentLogger });
  try {
    await chat.admin.initOrganization({ email: 'owner@example.com' });
    const users = Array.from({ length: size }, (_, i) => ({ email: `imported${i}@example.com`, fullName: `Imported ${i}` }));
    const start = process.hrtime.bigint();
    await chat.admin.addUsers(users);
    figure(size, 'chat.admin.addUsers of as many users into a new organization', Number(process.hrtime.bigint() - start) / 1e9, 's', '< 60 s at 100,000');
  } finally {
    await chat.close();
    db.close();
  }
}

async function measure(size: number, dir: string): Promise<void> {
  const rounds = size >= 100_000 ? 5 : 9;
  const org = await largeOrgCopy(size, dir);
  await inProcess(org, rounds);
  await batchImport(size, dir);
  const { delayMs, aloneMs } = await concurrentReadDelay(org, rounds);
  figure(size, "another client's GET /users/me delayed by a concurrent send to everyone", delayMs, 'ms', '< 50 ms', { name: 'the same GET alone', value: aloneMs });
}

async function inProcess(org: LargeOrg, rounds: number): Promise<void> {
  const db = new Database(org.file);
  const chat = createChatServer(db, { logger: silentLogger });
  const size = org.users;
  try {
    const send = sendFigures(chat, db, org, rounds);
    figure(size, 'send to everyone, no mention (in-process, WAL file)', send.ms, 'ms', '< 50 ms', { name: 'raw message row + one event row', value: send.floorMs });
    figure(size, 'WAL written by that send', send.wal / 1e6, 'MB', '< 2 MB');
    const mention = () => chat.api.messages.send(org.ownerId, { type: 'stream', to: org.everyoneId, topic: 'bench', content: 'hello @**User 10**' });
    figure(size, 'send to everyone, mentioning one user', await medianMs(mention, rounds), 'ms', 'O(1) + the mentioned');

    const partial = await registerFigures(chat, org.memberId, { clientCapabilities: { user_list_incomplete: true }, includeSubscribers: 'partial' }, rounds);
    figure(size, 'POST /register, user_list_incomplete + include_subscribers=partial', partial.ms, 'ms', '< 100 ms');
    figure(size, 'its answer', partial.bytes / 1e6, 'MB', '< 1 MB');
    figure(size, 'of which the channel lists (streams, subscriptions; N/50 public channels)', partial.channelBytes / 1e6, 'MB');
    const full = await registerFigures(chat, org.memberId, { includeSubscribers: true }, rounds);
    figure(size, 'POST /register, full user list + include_subscribers=true', full.ms, 'ms', 'cached user list');
    figure(size, 'its answer (full)', full.bytes / 1e6, 'MB');

    let n = 0;
    const addMs = await medianMs(() => chat.admin.addUser({ email: `new${n++}@example.com`, fullName: `New ${n}` }), rounds);
    figure(size, 'admin.addUser', addMs, 'ms', '< 10 ms');
    const hashMs = await medianMs(() => hashPassword('a password', randomBytes), rounds);
    const createMs = await medianMs(() => chat.api.users.create(org.ownerId, { email: `new${n++}@example.com`, password: 'a password', fullName: `New ${n}` }), rounds);
    figure(size, 'POST /users (in-process, with a password)', createMs, 'ms', '< 10 ms + the hash', { name: "the password's scrypt hash alone", value: hashMs });
    const io = { out() {}, err() {}, env: {} };
    const cliMs = await medianMs(() => userCommand('add', ['--db', org.file, '--email', `cli${n++}@example.com`, '--full-name', `Cli ${n}`], io), rounds);
    figure(size, '`parley user add` (in-process: open, add, close)', cliMs, 'ms', '< 10 ms');

    const firstUnread = (userId: number) => () =>
      chat.api.messages.list(userId, { anchor: 'first_unread', numBefore: 0, numAfter: 1, narrow: [{ operator: 'channel', operand: org.historyId }] });
    figure(size, 'anchor=first_unread in a 100,000-message channel (first unread in the middle)', await medianMs(firstUnread(org.readerId), rounds), 'ms', '< 5 ms');
    figure(size, 'anchor=first_unread in a 100,000-message channel (member without rows)', await medianMs(firstUnread(org.latecomerId), rounds), 'ms', '< 5 ms');
    const search = () =>
      chat.api.messages.list(org.ownerId, {
        anchor: 'newest',
        numBefore: 10,
        numAfter: 0,
        narrow: [
          { operator: 'channel', operand: org.smallChannelId },
          { operator: 'search', operand: 'lorem' },
        ],
      });
    figure(size, 'search in one channel, 10 matches there, 100,000 elsewhere', await medianMs(search, rounds), 'ms', '< 5 ms');
    const newest = () => chat.api.messages.list(org.ownerId, { anchor: 'newest', numBefore: 100, numAfter: 0 });
    figure(size, 'GET /messages newest 100 (one user)', await medianMs(newest, rounds), 'ms', 'flat');
  } finally {
    await chat.close();
    db.close();
  }
}

function growthTable(): void {
  const sizes = SIZES.filter((size) => [...rows.values()].some((row) => row.values.has(size)));
  const smallest = sizes[0]!;
  const largest = sizes.at(-1)!;
  console.log(`\n| figure | ${sizes.map((s) => s.toLocaleString('en-US')).join(' | ')} | growth ${smallest.toLocaleString('en-US')} -> ${largest.toLocaleString('en-US')} | target |`);
  console.log(`|---|${sizes.map(() => '---:').join('|')}|---:|---|`);
  for (const row of rows.values()) {
    const cells = sizes.map((size) => (row.values.has(size) ? `${fmt(row.values.get(size)!)} ${row.unit}` : ''));
    const first = row.values.get(smallest);
    const last = row.values.get(largest);
    const growth = first !== undefined && last !== undefined && first > 0 ? `${fmt(last / first)}x` : '';
    console.log(`| ${row.name} | ${cells.join(' | ')} | ${growth} | ${row.target} |`);
  }
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-large-org-'));
  try {
    for (const size of SIZES) await measure(size, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  growthTable();
}
