// The short write routes marked transactional (RouteDef.transactional): each request's caller
// checks, `before` and handler run in one write transaction (no read transaction of its own for
// the caller's version read, drafts' enable_drafts_synchronization read once), a change to the
// caller committed by another process is seen at once, and every route so marked is one whose
// handler is synchronous. One traced server for the whole file.
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { ApiError } from '../lib/errors.js';
import { basic, openTestDatabase, sendRequest } from './helpers.js';
import { isError } from './assertions.js';
import { allRouteEntries, calledDomainFunctions } from './route_inspection.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-txroutes-'));
let log: string[] | undefined;
const db = new Database(join(dir, 'chat.db'), { verbose: (sql) => log?.push(String(sql)) });
const chat = createChatServer(db, { logger: silentLogger, realm: { emailAddressVisibility: 1 } });
const other = openTestDatabase(join(dir, 'chat.db'));
t.teardown(async () => {
  other.close();
  await chat.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
const url = `http://127.0.0.1:${(await chat.listen(0, '127.0.0.1')).port}`;
const owner = await chat.admin.initOrganization({ email: 'owner@example.com', defaultChannels: true });
const authorization = basic(owner.email, owner.api_key);
const general = chat.api.streams.getId(owner.user_id, { stream: 'general' }).stream_id;
const lastEventId = (): number => db.prepare('SELECT coalesce(max(id), 0) FROM event').pluck().get() as number;

type Params = Record<string, unknown>;
const call = (method: string, path: string, params: Params = {}, auth = authorization) => sendRequest(url, method, path, { headers: { authorization: auth }, params });

/** The statements of one request, after the caller was remembered by an earlier one. */
async function traced(t: Test, method: string, path: string, params: Params): Promise<string[]> {
  log = [];
  const reply = await call(method, path, params);
  const statements = log;
  log = undefined;
  t.equal(reply.status, 200, `${method} ${path} succeeds`);
  return statements;
}

t.test("a newly marked route's request is one write transaction, its first read the callers' version, without a savepoint", async (t) => {
  const draft = { type: 'stream', to: [general], topic: 't', content: 'draft' };
  const created = await call('POST', '/drafts', { drafts: [draft] });
  const draftId = (created.body.ids as number[])[0]!;
  const requests: [string, string, Params][] = [
    ['PATCH', `/drafts/${draftId}`, { draft: { ...draft, content: 'edited' } }],
    ['POST', '/navigation_views', { fragment: 'narrow/is/alerted', name: 'Alerted', is_pinned: true }],
    ['POST', '/users/me/alert_words', { alert_words: ['parley'] }],
    ['POST', '/user_topics', { stream_id: general, topic: 'muted', visibility_policy: 1 }],
  ];
  for (const [method, path, params] of requests) {
    const statements = await traced(t, method, path, params);
    const label = `${method} ${path}`;
    t.equal(statements[0], 'BEGIN IMMEDIATE', `${label}: the request starts with its write transaction`);
    t.match(statements[1], /FROM cache_version/, `${label}: whose first read is the version of the remembered callers`);
    t.equal(statements.at(-1), 'COMMIT', label);
    t.equal(statements.filter((sql) => /^(BEGIN|COMMIT)/.test(sql)).length, 2, `${label}: one transaction`);
    t.equal(statements.filter((sql) => /FROM cache_version/.test(sql)).length, 1, `${label}: one version read`);
    t.notOk(
      statements.some((sql) => /^(SAVEPOINT|RELEASE)/.test(sql)),
      `${label}: the handler's transaction runs in the request's`,
    );
    if (path.startsWith('/drafts/')) {
      t.equal(statements.filter((sql) => /enable_drafts_synchronization FROM user/.test(sql)).length, 1, 'the drafts setting is read once, by the before check');
    }
  }
  t.equal(db.prepare('SELECT content FROM draft WHERE id = ?').pluck().get(draftId), 'edited');
});

t.test("drafts turned off in the request's transaction refuse the write, as before", async (t) => {
  const created = await call('POST', '/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'kept' }] });
  const draftId = (created.body.ids as number[])[0]!;
  other.prepare('UPDATE user SET enable_drafts_synchronization = 0 WHERE id = ?').run(owner.user_id);
  const before = lastEventId();
  isError(t, await call('DELETE', `/drafts/${draftId}`), { status: 400, code: 'BAD_REQUEST', msg: 'User has disabled synchronizing drafts.' });
  t.throws(() => chat.api.drafts.delete(owner.user_id, { draftId }), { code: 'BAD_REQUEST', message: 'User has disabled synchronizing drafts.' }, 'in-process too');
  t.equal(db.prepare('SELECT count(*) FROM draft WHERE id = ?').pluck().get(draftId), 1, 'the draft stays');
  t.equal(lastEventId(), before, 'no event');
  other.prepare('UPDATE user SET enable_drafts_synchronization = 1 WHERE id = ?').run(owner.user_id);
});

t.test("an API key rotated by another process: today's 401 on a newly marked route, and nothing is written", async (t) => {
  const member = await chat.admin.addUser({ email: 'rotated@example.com', fullName: 'Rotated' });
  const memberAuth = basic(member.email, member.api_key);
  const created = await call('POST', '/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'before' }] }, memberAuth);
  t.equal(created.status, 200, 'the member is remembered');
  const draftId = (created.body.ids as number[])[0]!;
  const before = lastEventId();
  other.prepare('UPDATE user SET api_key = ? WHERE id = ?').run('R'.repeat(32), member.user_id);
  const refused = await call('PATCH', `/drafts/${draftId}`, { draft: { type: '', to: [], topic: '', content: 'after' } }, memberAuth);
  isError(t, refused, { status: 401, code: 'UNAUTHORIZED', msg: 'Invalid API key' });
  t.equal(refused.headers.get('www-authenticate'), 'Basic realm="zulip"');
  t.equal(db.prepare('SELECT content FROM draft WHERE id = ?').pluck().get(draftId), 'before', 'the draft is unchanged');
  t.equal(lastEventId(), before, 'no event');
  const words = await call('POST', '/users/me/alert_words', { alert_words: ['after'] }, memberAuth);
  isError(t, words, { status: 401, code: 'UNAUTHORIZED', msg: 'Invalid API key' }, 'another newly marked route');
  t.same(chat.api.alertWords.list(member.user_id).alert_words, [], 'no alert word');
  const ok = await call('PATCH', `/drafts/${draftId}`, { draft: { type: '', to: [], topic: '', content: 'after' } }, basic(member.email, 'R'.repeat(32)));
  t.equal(ok.status, 200, 'the new key works');
});

const routes = allRouteEntries();

t.test('every route marked transactional is authenticated, takes no files and calls no asynchronous domain function', async (t) => {
  const marked = routes.filter(({ route }) => route.transactional === true);
  t.ok(marked.length >= 50, `${marked.length} transactional routes`);
  for (const { route } of marked) {
    const label = `${route.method} ${route.path}`;
    t.not(route.access, 'public', `${label} is authenticated`);
    t.notOk(route.uploads ?? route.spoolUploads ?? route.passwordLogin, `${label} takes no files and no password`);
    const { called, async } = calledDomainFunctions(route);
    t.ok(called.length > 0, `${label} calls into the domain`);
    t.same(async, [], `${label} calls no async domain function`);
  }
  const createUser = routes.find(({ route }) => route.method === 'POST' && route.path === '/users')!.route;
  t.same(calledDomainFunctions(createUser).async, ['createUser'], 'the check sees an asynchronous handler');
});

t.test('every route marked transactional answers in-process at once: a value or an ApiError, never a promise', async (t) => {
  let n = 0;
  for (const { group, name, route } of routes.filter((entry) => entry.route.transactional === true)) {
    // A caller of its own: some of these routes, called without parameters, deactivate it or rotate its key.
    const caller = await chat.admin.addUser({ email: `walk${(n += 1)}@example.com`, fullName: `Walk ${n}` });
    const fn = (chat.api as unknown as Record<string, Record<string, (actor: number, input: object) => unknown>>)[group]![name]!;
    let result: unknown;
    try {
      result = fn(caller.user_id, {});
    } catch (error) {
      t.ok(error instanceof ApiError, `${route.method} ${route.path}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    t.notOk(result instanceof Promise, `${route.method} ${route.path} answers synchronously`);
  }
  t.equal(db.inTransaction, false, 'no transaction is left open');
});
