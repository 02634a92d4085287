// Short write transactions (several processes share one database file): SQLITE_BUSY answers a
// retryable 503 DATABASE_BUSY; a subscription request is bounded in user-channel pairs and writes
// a few event rows, not one per pair; a long topic move commits in batches that other writers
// get between, and a retry after a failed batch finishes the move.
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type Database from 'better-sqlite3';
import { MAX_SUBSCRIPTIONS_PER_REQUEST } from '../lib/domain/subscriptions.js';
import { MOVE_BATCH_SIZE } from '../lib/domain/message_edit.js';
import { openTestDatabase, startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, bothFail, isError, ok, poll, register, subscribe, throwsApiError, type Expected } from './messaging_helpers.js';
import { contextOf } from '../lib/context.js';

const BUSY: Expected = { status: 503, code: 'DATABASE_BUSY', msg: 'The database is busy; retry the request.' };

/** A second connection to the server's file: another process, as far as SQLite is concerned. */
function otherConnection(t: Test, s: TestServer): Database.Database {
  const other = openTestDatabase(join(s.dir, 'chat.db'));
  other.pragma('busy_timeout = 0');
  t.teardown(() => other.close());
  return other;
}

const eventRows = (s: TestServer): number => s.db.prepare('SELECT count(*) FROM event').pluck().get() as number;
const streamCount = (s: TestServer): number => s.db.prepare('SELECT count(*) FROM stream').pluck().get() as number;
const channels = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix} ${i}` }));

/** Counts the outermost transactions the server runs, calling `between` before each. */
function countTransactions(s: TestServer, between: (index: number) => void): { count: number } {
  const counter = { count: 0 };
  const ctx = contextOf(s.chat) as { tx: <T>(fn: () => T) => T };
  const tx = ctx.tx.bind(ctx);
  ctx.tx = <T>(fn: () => T): T => {
    if (!s.db.inTransaction) between(counter.count++);
    return tx(fn);
  };
  return counter;
}

t.test('a write while another connection holds the write lock: 503 DATABASE_BUSY with Retry-After, never a 500', async (t) => {
  const s = await startServer({ busyTimeoutMs: 0 });
  t.teardown(() => s.close());
  const member = await s.user('member');
  const other = otherConnection(t, s);
  other.exec('BEGIN IMMEDIATE');
  const reply = await subscribe(s, member, ['busy']);
  isError(t, reply, BUSY);
  t.equal(reply.headers.get('retry-after'), '1', 'Retry-After: 1');
  await throwsApiError(t, () => s.chat.api.streams.subscribe(member.user_id, { subscriptions: [{ name: 'busy' }] }), BUSY);
  t.equal((await s.request('GET', '/users/me/subscriptions', { as: member })).status, 200, 'reads go on');
  other.exec('COMMIT');
  ok(t, await subscribe(s, member, ['busy']), 'the retry succeeds');
});

t.test(`a subscription request adds or removes at most ${MAX_SUBSCRIPTIONS_PER_REQUEST} user-channel pairs; over it nothing is written`, async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const admin = await s.user('admin');
  const users: TestUser[] = [];
  for (let i = 0; i < 11; i++) users.push(await s.user('member'));
  const principals = users.map((u) => u.user_id);
  const subscriptions = channels(1000, 'too many');
  const expected = bad(`Too many subscriptions in one request: 11 users times 1000 channels (limit: ${MAX_SUBSCRIPTIONS_PER_REQUEST}).`);
  const before = [streamCount(s), eventRows(s)];
  await bothFail(
    t,
    () => subscribe(s, admin, subscriptions.map((c) => c.name), { principals }),
    () => s.chat.api.streams.subscribe(admin.user_id, { subscriptions, principals }),
    expected,
  );
  t.same([streamCount(s), eventRows(s)], before, 'no channel created, no event');
  await bothFail(
    t,
    () => s.request('DELETE', '/users/me/subscriptions', { as: admin, params: { subscriptions: subscriptions.map((c) => c.name), principals } }),
    () => s.chat.api.streams.unsubscribe(admin.user_id, { subscriptions: subscriptions.map((c) => c.name), principals }),
    expected,
  );
  const emails = users.slice(0, 10).map((u) => u.email);
  const body = ok(t, await subscribe(s, admin, subscriptions.map((c) => c.name), { principals: [...emails, emails[0]!.toUpperCase()] }), 'the same user twice counts once');
  t.equal(Object.keys(body.subscribed).length, 10);
});

t.test('subscribing 10 users to 1000 new channels writes a few event rows; another connection writes right after', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const admin = await s.user('admin');
  const users: TestUser[] = [];
  for (let i = 0; i < 9; i++) users.push(await s.user('member'));
  const queue = await register(s, users[0]!);
  const before = eventRows(s);
  const names = channels(1000, 'bulk').map((c) => c.name);
  const body = ok(t, await subscribe(s, admin, names, { principals: [admin.user_id, ...users.map((u) => u.user_id)] }));
  t.equal(body.subscribed[String(users[0]!.user_id)].length, 1000);
  // One stream create, one peer_add and one subscription add row for everyone (it was 2,010).
  t.equal(eventRows(s) - before, 3, 'three event rows');
  const events = await poll(s, users[0]!, queue);
  t.same(
    events.map((e) => [e.type, e.op, (e.streams ?? e.stream_ids ?? e.subscriptions).length]),
    [['stream', 'create', 1000], ['subscription', 'peer_add', 1000], ['subscription', 'add', 1000]],
  );
  const other = otherConnection(t, s);
  t.equal(other.prepare('UPDATE user SET timezone = ? WHERE id = ?').run('Europe/Paris', admin.user_id).changes, 1);
});

async function bigTopic(t: Test, s: TestServer, count: number) {
  const alice = await s.user('member');
  ok(t, await subscribe(s, alice, ['moves']));
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(s.chat.api.messages.send(alice.user_id, { type: 'stream', to: 'moves', topic: 'old', content: `m${i}` }).id);
  const topics = () => s.db.prepare("SELECT topic, count(*) FROM message WHERE topic IN ('old', 'new') GROUP BY topic ORDER BY topic").raw().all();
  return { alice, ids, topics };
}

t.test(`a topic move commits ${MOVE_BATCH_SIZE} messages per transaction, each with its event; other writers get in between`, async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const count = 2 * MOVE_BATCH_SIZE + 10;
  const { alice, ids, topics } = await bigTopic(t, s, count);
  const queue = await register(s, alice, { event_types: ['update_message'] });
  const other = otherConnection(t, s);
  let writes = 0;
  const transactions = countTransactions(s, () => {
    writes += other.prepare('UPDATE user SET timezone = ? WHERE id = ?').run(`Etc/GMT+${writes % 10}`, alice.user_id).changes;
  });
  ok(t, await s.request('PATCH', `/messages/${ids[count - 1]}`, { as: alice, params: { topic: 'new', propagate_mode: 'change_all' } }));
  t.equal(transactions.count, 3, 'two batches and the final transaction');
  t.equal(writes, 3, 'the other connection wrote before each one');
  t.same(topics(), [['new', count]]);
  const moves = (await poll(s, alice, queue)).filter((e) => e.type === 'update_message');
  t.same(moves.map((e) => e.message_ids.length), [MOVE_BATCH_SIZE, MOVE_BATCH_SIZE, 10]);
  t.same(moves.flatMap((e) => e.message_ids).sort((a: number, b: number) => a - b), ids, 'every message once');
  t.ok(moves.every((e) => e.message_id === ids[count - 1] && e.orig_subject === 'old' && e.subject === 'new' && e.propagate_mode === 'change_all'));
  t.same(moves.at(-1)!.message_ids.at(-1), ids[count - 1], 'the edited message moves last');
});

t.test('a move whose batch fails answers DATABASE_BUSY; the moved batches stay consistent and a retry moves the rest', async (t) => {
  const s = await startServer({ busyTimeoutMs: 0 });
  t.teardown(() => s.close());
  const count = MOVE_BATCH_SIZE + 10;
  const { alice, ids, topics } = await bigTopic(t, s, count);
  const other = otherConnection(t, s);
  countTransactions(s, (index) => {
    if (index === 1) other.exec('BEGIN IMMEDIATE');
  });
  const move = { messageId: ids[0]!, topic: 'new', propagateMode: 'change_later' as const };
  await throwsApiError(t, () => s.chat.api.messages.edit(alice.user_id, move), BUSY);
  t.same(topics(), [['new', MOVE_BATCH_SIZE], ['old', 10]], 'the first batch moved, the rest did not');
  t.equal(s.chat.api.messages.get(alice.user_id, { messageId: ids[0]! }).message.subject, 'old', 'the edited message moves last');
  other.exec('COMMIT');
  t.same(s.chat.api.messages.edit(alice.user_id, move), { detached_uploads: [] });
  t.same(topics(), [['new', count]]);
});
