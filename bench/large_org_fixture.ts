// A large organization for the large_org bench, written with raw batched SQL (building it through
// the API would take hours at 100,000 users) and kept as a template file per size and schema
// version, copied for each measurement: N users, one "everyone" channel (a default channel) with
// all of them and 100 messages of history, N/50 channels of 50, and 100,000 messages in "history".
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { SCHEMA_VERSION } from '../lib/store/migrations.js';

/** Messages in the channel "history"; every one contains the word "lorem". */
export const HISTORY_MESSAGES = 100_000;
/** Messages in "everyone" before the history, with a row for every user. */
export const EVERYONE_HISTORY = 100;
/** Messages with "lorem" in "channel 0", which the owner is subscribed to: a channel search's matches. */
export const SMALL_CHANNEL_MATCHES = 10;
/** Bumped whenever the fixture's content changes, so cached templates are rebuilt. */
const FIXTURE_VERSION = 2;

export interface LargeOrg {
  file: string;
  users: number;
  ownerId: number;
  /** A member of "history" with rows for every message there: their first unread is message 50,000 of it. */
  readerId: number;
  /** A member who joined "history" after its messages were sent: no row for any of them. */
  latecomerId: number;
  /** A member of "everyone" and one channel of 50, and nothing else: a typical user. */
  memberId: number;
  everyoneId: number;
  historyId: number;
  smallChannelId: number;
}

const CACHE = process.env.BENCH_CACHE_DIR ?? join(tmpdir(), 'parley-bench-cache');

/** A fresh copy of the template of an organization of `users` users in `dir` (built once per size). */
export async function largeOrgCopy(users: number, dir: string): Promise<LargeOrg> {
  const template = join(CACHE, `large-org-${users}-s${SCHEMA_VERSION}-${schemaDigest()}-f${FIXTURE_VERSION}.db`);
  if (!existsSync(template)) await buildTemplate(template, users);
  const file = join(dir, `large-org-${users}.db`);
  copyFileSync(template, file);
  return describe(file, users);
}

/** Part of the template's name: a template is rebuilt whenever schema.sql changes, its version or not. */
function schemaDigest(): string {
  return createHash('sha256').update(readFileSync(join(import.meta.dirname, '..', 'schema.sql'))).digest('hex').slice(0, 12);
}

function describe(file: string, users: number): LargeOrg {
  const db = new Database(file, { readonly: true });
  const streamId = (name: string) => db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number;
  const userId = (email: string) => db.prepare('SELECT id FROM user WHERE email = ?').pluck().get(email) as number;
  const org: LargeOrg = {
    file,
    users,
    ownerId: userId('owner@example.com'),
    readerId: userId('user2@example.com'),
    latecomerId: userId('user3@example.com'),
    memberId: userId('user10@example.com'),
    everyoneId: streamId('everyone'),
    historyId: streamId('history'),
    smallChannelId: streamId('channel 0'),
  };
  db.close();
  return org;
}

async function buildTemplate(template: string, users: number): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const building = `${template}.building`;
  rmSync(building, { force: true });
  const db = new Database(building);
  const chat = createChatServer(db, { logger: silentLogger });
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner', defaultChannels: false });
  await chat.close();
  const now = Math.floor(Date.now() / 1000);
  const joined = now - 30 * 86400;
  db.transaction(() => {
    const user = db.prepare(
      `INSERT INTO user (email, full_name, role, api_key, date_joined, email_address_visibility) VALUES (?, ?, 400, ?, ?, 1)`,
    );
    for (let i = 2; i <= users; i++) user.run(`user${i}@example.com`, `User ${i}`, `k${String(i).padStart(31, '0')}`, joined);
    const stream = db.prepare('INSERT INTO stream (name, date_created, creator_id) VALUES (?, ?, ?)');
    const everyone = Number(stream.run('everyone', joined, owner.user_id).lastInsertRowid);
    db.prepare('INSERT INTO default_stream (stream_id) VALUES (?)').run(everyone);
    const history = Number(stream.run('history', joined, owner.user_id).lastInsertRowid);
    const subscribe = db.prepare('INSERT INTO subscription (user_id, stream_id, date_subscribed) VALUES (?, ?, ?)');
    const ids = db.prepare('SELECT id FROM user ORDER BY id').pluck().all() as number[];
    for (const id of ids) subscribe.run(id, everyone, joined);
    // Channels of 50: the owner is in "channel 0" with the first 49 others.
    const small: number[] = [];
    for (let c = 0; c < Math.max(1, Math.floor(users / 50)); c++) small.push(Number(stream.run(`channel ${c}`, joined, owner.user_id).lastInsertRowid));
    ids.forEach((id, i) => subscribe.run(id, small[Math.floor(i / 50) % small.length]!, joined));
    const [reader, latecomer] = [ids[1]!, ids[2]!];
    for (const id of [owner.user_id, reader, latecomer]) subscribe.run(id, history, joined);
    writeHistory(db, { history, everyone, smallChannel: small[0]!, owner: owner.user_id, reader, smallMembers: ids.slice(0, 50), userIds: ids, joined });
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  renameSync(building, template);
}

/**
 * The history, oldest first: a few messages with the word "lorem" in "channel 0" (rows for its
 * members), EVERYONE_HISTORY messages in "everyone" with a row for every user (so that each user's
 * rows are spread over the user_message key as in an organization that has been talking for a
 * while; the newest 5 unread), then "history": the owner and the reader have a row for every
 * message there (the owner's all read, the reader's read up to the middle), the latecomer none.
 */
function writeHistory(
  db: Database.Database,
  o: { history: number; everyone: number; smallChannel: number; owner: number; reader: number; smallMembers: number[]; userIds: number[]; joined: number },
): void {
  const message = db.prepare(
    `INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, date_sent, sending_client)
     VALUES (?, ?, ?, ?, ?, ?, 'bench')`,
  );
  const userMessage = db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)');
  let at = o.joined;
  for (let i = 0; i < SMALL_CHANNEL_MATCHES; i++) {
    const content = `lorem in a small channel ${i}`;
    const id = Number(message.run(o.owner, o.smallChannel, 'small', content, `<p>${content}</p>`, at++).lastInsertRowid);
    for (const member of o.smallMembers) userMessage.run(member, id, member === o.owner ? 1 : 0);
  }
  const everyone: number[] = [];
  for (let i = 0; i < EVERYONE_HISTORY; i++) {
    const content = `hello everyone ${i}`;
    everyone.push(Number(message.run(o.owner, o.everyone, `announcements ${i % 10}`, content, `<p>${content}</p>`, at++).lastInsertRowid));
  }
  // User by user: appends to the user_message key rather than 100 passes across it.
  for (const userId of o.userIds) everyone.forEach((id, i) => userMessage.run(userId, id, i < EVERYONE_HISTORY - 5 ? 1 : 0));
  for (let i = 0; i < HISTORY_MESSAGES; i++) {
    const content = `lorem ipsum message ${i}`;
    const id = Number(message.run(i % 2 === 0 ? o.owner : o.reader, o.history, `topic ${i % 50}`, content, `<p>${content}</p>`, at++).lastInsertRowid);
    userMessage.run(o.owner, id, 1);
    userMessage.run(o.reader, id, i < HISTORY_MESSAGES / 2 ? 1 : 0);
  }
  db.prepare('UPDATE stream SET first_message_id = (SELECT min(id) FROM message WHERE stream_id = stream.id)').run();
}
