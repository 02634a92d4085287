// Transactional routes (RouteDef.transactional; here POST /messages/flags, reactions, user status,
// presence; the other marked routes in test/transactional_routes.test.ts): over HTTP their caller
// is authenticated again inside the write transaction that runs the handler, so a change to the
// caller committed by another process a moment before is seen exactly as on any other route, and
// the version of the remembered callers is read in that transaction rather than in a read
// transaction of their own; the in-process API runs them the same way.
import t from 'tap';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { basic, openTestDatabase, sendRequest, startServer, type TestUser } from './helpers.js';
import { isError, type Expected } from './assertions.js';
import { flagBits, memberPair, ok, sendToStream } from './messaging_helpers.js';
import { FLAG } from '../lib/domain/flags.js';
import { contextOf } from '../lib/context.js';
import { authenticate, confirm } from '../lib/domain/callers.js';
import { typedParams } from '../lib/http/params.js';
import { inProcessRequest } from '../lib/http/request.js';
import { route } from '../lib/routes/route.js';
import { routeRunner } from '../lib/routes/run.js';
import { z } from 'zod';

const NOW = 1_700_000_000_000;
let now = NOW;
// Two failed authentications per address and minute: the tests move the clock on to start afresh.
const s = await startServer({ socket: true, clock: () => now, rateLimit: { requestsPerMinute: 1000, authAttemptsPerMinute: 2 } });
t.teardown(() => s.close());
const other = openTestDatabase(join(s.dir, 'chat.db'));
t.teardown(() => other.close());

const invalidKey: Expected = { status: 401, code: 'UNAUTHORIZED', msg: 'Invalid API key' };
const deactivated: Expected = { status: 401, code: 'UNAUTHORIZED', msg: 'Account is deactivated' };

const star = (authorization: string, id: number) =>
  sendRequest(s.url, 'POST', '/messages/flags', { headers: { authorization }, params: { messages: [id], op: 'add', flag: 'starred' } });
const react = (authorization: string, id: number) => sendRequest(s.url, 'POST', `/messages/${id}/reactions`, { headers: { authorization }, params: { emoji_name: 'smile' } });
const setStatus = (authorization: string, userId: number, text: string) =>
  sendRequest(s.url, 'POST', `/users/${userId}/status`, { headers: { authorization }, params: { status_text: text } });
const lastEventId = (): number => s.db.prepare('SELECT coalesce(max(id), 0) FROM event').pluck().get() as number;
const starred = (user: TestUser, id: number): boolean => ((flagBits(s, user.user_id, id) ?? 0) & FLAG.starred) !== 0;
const auth = (user: TestUser): string => basic(user.email, user.api_key);

t.test('a transactional route answers as before: stars, reactions and statuses', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'authtx');
  const id = await sendToStream(s, bob, channel, 'topic', 'hello');
  t.same(ok(t, await star(auth(alice), id)), { result: 'success', msg: '', messages: [id] }, 'a star');
  t.ok(starred(alice, id));
  t.same(ok(t, await react(auth(alice), id)), { result: 'success', msg: '' }, 'a remembered caller');
  t.equal(s.db.prepare('SELECT count(*) FROM reaction WHERE message_id = ? AND user_id = ?').pluck().get(id, alice.user_id), 1);
  const removed = await sendRequest(s.url, 'DELETE', `/messages/${id}/reactions`, { headers: { authorization: auth(alice) }, params: { emoji_name: 'smile' } });
  ok(t, removed);
  ok(t, await sendRequest(s.url, 'POST', '/users/me/status', { headers: { authorization: auth(alice) }, params: { status_text: 'here' } }));
  ok(t, await setStatus(auth(s.owner), alice.user_id, 'set by the owner'));
  t.equal(s.db.prepare('SELECT status_text FROM user_status WHERE user_id = ?').pluck().get(alice.user_id), 'set by the owner');
  isError(t, await react(auth(alice), id + 1000), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' }, 'errors of the handler are unchanged');
});

t.test("an API key rotated by another process is refused at once, with today's 401, and nothing is written", async (t) => {
  now += 60_000;
  const { alice, bob, channel } = await memberPair(t, s, 'authtx');
  const id = await sendToStream(s, bob, channel, 'topic', 'hello');
  ok(t, await react(auth(alice), id), 'alice is remembered');
  const before = lastEventId();
  other.prepare('UPDATE user SET api_key = ? WHERE id = ?').run('R'.repeat(32), alice.user_id);
  const refused = await star(auth(alice), id);
  isError(t, refused, invalidKey);
  t.equal(refused.headers.get('www-authenticate'), 'Basic realm="zulip"');
  t.equal(refused.headers.get('x-ratelimit-remaining'), '1', 'counted as a failed authentication of the address');
  t.notOk(starred(alice, id), 'the message is not starred');
  t.equal(lastEventId(), before, 'no event');
  isError(t, await star(basic(alice.email, 'W'.repeat(32)), id), invalidKey, 'the second failure of the address');
  const limited = await star(auth(alice), id);
  t.same([limited.status, limited.body.code], [429, 'RATE_LIMIT_HIT'], 'the third is over the address budget, as for any failed authentication');
  now += 60_000;
  ok(t, await star(basic(alice.email, 'R'.repeat(32)), id), 'the new key works');
  t.ok(starred(alice, id));
});

t.test("a user deactivated by another process is refused at once, with today's 401, and nothing is written", async (t) => {
  now += 60_000;
  const { alice, bob, channel } = await memberPair(t, s, 'authtx');
  const id = await sendToStream(s, bob, channel, 'topic', 'hello');
  ok(t, await star(auth(alice), id), 'alice is remembered');
  const before = lastEventId();
  other.prepare('UPDATE user SET is_active = 0 WHERE id = ?').run(alice.user_id);
  isError(t, await react(auth(alice), id), deactivated);
  t.equal(s.db.prepare('SELECT count(*) FROM reaction WHERE message_id = ?').pluck().get(id), 0, 'no reaction');
  t.equal(lastEventId(), before, 'no event');
  t.throws(() => s.chat.api.reactions.add(alice.user_id, { messageId: id, emojiName: 'smile' }), { code: 'UNAUTHORIZED', message: 'Account is deactivated' }, 'in-process too');
});

t.test('a role changed by another process applies inside the transaction', async (t) => {
  now += 60_000;
  const admin = await s.user('admin');
  const member = await s.user('member');
  ok(t, await setStatus(auth(admin), member.user_id, 'by the admin'), "the admin's first request (nothing remembered): authenticated as usual, and remembered");
  const before = lastEventId();
  other.prepare('UPDATE user SET role = 400 WHERE id = ?').run(admin.user_id);
  isError(t, await setStatus(auth(admin), member.user_id, 'by a member now'), { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  t.equal(s.db.prepare('SELECT status_text FROM user_status WHERE user_id = ?').pluck().get(member.user_id), 'by the admin', 'the status is unchanged');
  t.equal(lastEventId(), before, 'no event');
  other.prepare('UPDATE user SET role = 200 WHERE id = ?').run(member.user_id);
  ok(t, await setStatus(auth(member), admin.user_id, 'by the new admin'), 'a promotion applies as well');
  other.prepare('UPDATE user SET bot_type = 1, bot_owner_id = ? WHERE id = ?').run(s.owner.user_id, member.user_id);
  const bot = await sendRequest(s.url, 'POST', '/users/me/status', { headers: { authorization: auth(member) }, params: { status_text: 'x' } });
  isError(t, bot, { status: 400, code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' }, 'the access check uses the row read in the transaction');
});

t.test("a remembered caller's request reads the version inside its write transaction, not before", async (t) => {
  const dir = s.dir;
  let log: string[] | undefined;
  const db = new Database(join(dir, 'traced.db'), { verbose: (sql) => log?.push(String(sql)) });
  const chat = createChatServer(db, { logger: silentLogger, realm: { emailAddressVisibility: 1 } });
  t.teardown(async () => {
    await chat.close();
    db.close();
  });
  const url = `http://127.0.0.1:${(await chat.listen(0, '127.0.0.1')).port}`;
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', defaultChannels: true });
  const authorization = basic(owner.email, owner.api_key);
  const sent = await sendRequest(url, 'POST', '/messages', { headers: { authorization }, params: { type: 'stream', to: 'general', topic: 't', content: 'x' } });
  const id = sent.body.id as number;
  const starOnce = async (flag: string) => {
    log = [];
    const reply = await sendRequest(url, 'POST', '/messages/flags', { headers: { authorization }, params: { messages: [id], op: 'add', flag } });
    t.equal(reply.status, 200);
    const statements = log;
    log = undefined;
    return statements;
  };
  const isVersionRead = (sql: string) => /FROM cache_version/.test(sql);
  const statements = await starOnce('starred');
  t.equal(statements[0], 'BEGIN IMMEDIATE', 'the request starts with its write transaction');
  t.ok(isVersionRead(statements[1]!), 'whose first read is the version of the remembered callers');
  t.equal(statements.at(-1), 'COMMIT');
  t.equal(statements.filter((sql) => sql === 'BEGIN IMMEDIATE' || sql === 'COMMIT').length, 2, 'one transaction');
  t.equal(statements.filter(isVersionRead).length, 1, 'and one version read');
  t.notOk(statements.some((sql) => /^(SAVEPOINT|RELEASE)/.test(sql)), "the handler's transaction runs in the request's, without a savepoint");

  db.prepare('UPDATE user SET full_name = ? WHERE id = ?').run('Renamed', owner.user_id);
  const afterChange = await starOnce('read');
  t.equal(afterChange[0], 'BEGIN IMMEDIATE', 'after a change to the user table too');
  t.ok(isVersionRead(afterChange[1]!));
  t.ok(afterChange.some((sql) => /FROM user\b/.test(sql)), 'the caller is read again, inside the transaction');
  t.equal(afterChange.at(-1), 'COMMIT');
});

t.test("a transaction opened inside another joins it, without a savepoint: an error anywhere rolls back the whole request", async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const ctx = contextOf(s.chat);
  s.db.exec('CREATE TABLE scratch (v TEXT NOT NULL)');
  const put = (v: string) => s.db.prepare('INSERT INTO scratch (v) VALUES (?)').run(v);
  const rows = () => s.db.prepare('SELECT v FROM scratch ORDER BY rowid').pluck().all();
  ctx.tx(() => {
    ctx.tx(() => put('first'));
    ctx.tx(() => ctx.tx(() => put('second')));
  });
  t.same(rows(), ['first', 'second']);
  t.throws(() =>
    ctx.tx(() => {
      ctx.tx(() => put('written, then rolled back'));
      throw new Error('after the handler');
    }),
  );
  t.throws(() => ctx.tx(() => ctx.tx(() => (put('rolled back too'), ctx.tx(() => {
    throw new Error('deep inside');
  })))));
  t.same(rows(), ['first', 'second'], 'nothing of a failed request stays');
  t.equal(s.db.inTransaction, false);
});

t.test('a caller authenticated from the rows last read is kept only while the user rows are unchanged', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const ctx = contextOf(s.chat);
  const owner = s.owner;
  const credential = { kind: 'apiKey', email: owner.email, apiKey: owner.api_key } as const;
  const caller = authenticate(ctx, credential, {});
  t.equal(confirm(ctx, caller, {}), caller, 'the rows are unchanged: the same caller');
  t.equal(authenticate(ctx, credential, {}).actor, caller.actor, 'one actor per row');
  const otherVersion = caller.version === 1 ? 2 : 1;
  t.equal(confirm(ctx, { ...caller, version: otherVersion }, {}).version, caller.version, 'a caller of other rows is authenticated again');
  const outside = openTestDatabase(join(s.dir, 'chat.db'));
  t.teardown(() => outside.close());
  outside.prepare('UPDATE user SET full_name = ? WHERE id = ?').run('Renamed Elsewhere', owner.user_id);
  const provisional = authenticate(ctx, credential, {});
  t.equal(provisional.actor.fullName, caller.actor.fullName, 'authenticated from the rows last read, without reading the version');
  const again = confirm(ctx, provisional, {});
  t.not(again, provisional, 'after another process changed the user table, it is authenticated again');
  t.equal(again.actor.fullName, 'Renamed Elsewhere');
  t.equal(confirm(ctx, again, {}), again);
  outside.prepare('UPDATE user SET api_key = ? WHERE id = ?').run('K'.repeat(32), owner.user_id);
  t.throws(() => confirm(ctx, again, {}), { code: 'UNAUTHORIZED', message: 'Invalid API key' }, 'with the credential it came with');
});

t.test('the runner: a transactional route whose handler is asynchronous is a mistake, refused inside its transaction', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const ctx = contextOf(s.chat);
  const runner = routeRunner(ctx);
  const asynchronous = route({ method: 'POST', path: '/tx_async', access: 'user', transactional: true, summary: 'test', params: {}, response: z.object({}), handler: async () => ({}) });
  const caller = authenticate(ctx, { kind: 'trusted', userId: s.owner.user_id }, {});
  t.throws(() => runner.run(asynchronous, caller, typedParams({}), inProcessRequest()), /POST \/tx_async is transactional but its handler is asynchronous/);
  t.equal(s.db.inTransaction, false, 'rolled back');
});

t.test("the runner's precheck: a caller from the rows last read that it refuses is checked again as they are now", async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const ctx = contextOf(s.chat);
  const runner = routeRunner(ctx);
  const member = await s.user('member');
  const adminOnly = route({ method: 'POST', path: '/tx_admin', access: 'admin', transactional: true, summary: 'test', params: {}, response: z.object({}), handler: () => ({}) });
  const credential = { kind: 'apiKey', email: member.email, apiKey: member.api_key } as const;
  t.throws(() => runner.precheck(adminOnly, authenticate(ctx, credential, adminOnly)), { code: 'UNAUTHORIZED_PRINCIPAL' }, 'a member is refused');
  const outside = openTestDatabase(join(s.dir, 'chat.db'));
  t.teardown(() => outside.close());
  outside.prepare('UPDATE user SET role = 200 WHERE id = ?').run(member.user_id);
  const provisional = authenticate(ctx, credential, adminOnly);
  t.equal(provisional.actor.role, 400, 'remembered as a member');
  const admitted = runner.precheck(adminOnly, provisional);
  t.equal(admitted.actor.role, 200, 'made an administrator since: admitted as they are now');
  t.same(runner.run(adminOnly, provisional, typedParams({}), inProcessRequest()), {}, 'and the run confirms them in its transaction');
});

t.test('in-process, a transactional route runs the same way: the version read, the checks and the handler in one write transaction', async (t) => {
  let log: string[] | undefined;
  const db = new Database(join(s.dir, 'traced-in-process.db'), { verbose: (sql) => log?.push(String(sql)) });
  const chat = createChatServer(db, { logger: silentLogger });
  t.teardown(async () => {
    await chat.close();
    db.close();
  });
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', defaultChannels: true });
  const member = await chat.admin.addUser({ email: 'member@example.com', fullName: 'Member' });
  const { id } = chat.api.messages.send(owner.user_id, { type: 'stream', to: 'general', topic: 't', content: 'x' });
  log = [];
  chat.api.messageFlags.update(owner.user_id, { messages: [id], op: 'add', flag: 'starred' });
  const statements = log;
  log = undefined;
  t.equal(statements[0], 'BEGIN IMMEDIATE', 'the call starts with its write transaction');
  t.match(statements[1], /FROM cache_version/, 'whose first read is the version of the remembered callers');
  t.equal(statements.at(-1), 'COMMIT');
  t.equal(statements.filter((sql) => sql === 'BEGIN IMMEDIATE' || sql === 'COMMIT').length, 2, 'one transaction');
  t.notOk(statements.some((sql) => /^(SAVEPOINT|RELEASE)/.test(sql)), 'without a savepoint');

  const outside = openTestDatabase(join(s.dir, 'traced-in-process.db'));
  t.teardown(() => outside.close());
  outside.prepare('UPDATE user SET is_active = 0 WHERE id = ?').run(member.user_id);
  const before = db.prepare('SELECT count(*) FROM event').pluck().get();
  t.throws(() => chat.api.userStatus.updateOwn(member.user_id, { statusText: 'away' }), { status: 401, code: 'UNAUTHORIZED', message: 'Account is deactivated' }, 'a user deactivated by another process is refused at once');
  t.equal(db.prepare('SELECT count(*) FROM event').pluck().get(), before, 'nothing is written');
  t.equal(db.inTransaction, false);
  t.throws(() => chat.api.messageFlags.update(owner.user_id, { messages: [id], op: 'bogus', flag: 'starred' }), { code: 'BAD_REQUEST', message: "Invalid message flag operation: 'bogus'" });
  t.equal(db.inTransaction, false, 'a refused call leaves no transaction open');
});
