// The embedding application's own sign-in (options.authenticate, issue 33): a real Express
// application on 127.0.0.1 signs its users in with its own cookie and mounts parley at /chat; its
// signed-in user calls parley's routes with no parley credentials at all, under the same rules as
// an API key (rate limits, deactivation, roles); no cookie, a forged one, a deactivated account, an
// unknown id or a bot the application did not mean: 401. Basic-auth requests never wait for it.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server } from 'node:http';
import Database from 'better-sqlite3';
import express from 'express';
import t, { type Test } from 'tap';
import { createChatServer, type ChatOptions, type ChatServer, type HostSignIn } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { basic } from './helpers.js';

/** The host application's own accounts and sessions: a name and password, and the parley user it maps to. */
interface Host {
  url: string;
  chat: ChatServer;
  /** Signs in to the host application (its form), answering its cookie. */
  login(name: string, password: string): Promise<string | undefined>;
  /** The parley user id of one of the host's accounts. */
  accounts: Map<string, { password: string; userId: number; bot?: boolean }>;
  /** How many times parley asked the host's hook. */
  hookCalls: number;
}

async function startHost(t: Test, options: ChatOptions = {}): Promise<Host> {
  const sessions = new Map<string, string>();
  const accounts = new Map<string, { password: string; userId: number; bot?: boolean }>();
  const host = { hookCalls: 0 } as Host;
  // The host's session store answers asynchronously, as a real one (Redis, a database) would.
  const lookUp = (req: IncomingMessage): Promise<HostSignIn> => {
    host.hookCalls += 1;
    const token = /(?:^|;\s*)app_session=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
    return new Promise((resolve) =>
      setImmediate(() => {
        const name = token === undefined ? undefined : sessions.get(token);
        const account = name === undefined ? undefined : accounts.get(name);
        resolve(account === undefined ? null : account.bot ? { userId: account.userId, bot: true } : account.userId);
      }),
    );
  };
  const chat = createChatServer(new Database(':memory:'), { logger: silentLogger, authenticate: lookUp, ...options });
  const app = express();
  // Parsers only on the host's own routes: a body parser in front of parley would eat its bodies.
  app.post('/login', express.urlencoded({ extended: false }), (req, res) => {
    const account = accounts.get(String(req.body.name));
    if (account === undefined || account.password !== req.body.password) {
      res.status(403).send('no');
      return;
    }
    const token = randomBytes(16).toString('hex');
    sessions.set(token, String(req.body.name));
    res.setHeader('Set-Cookie', `app_session=${token}; HttpOnly; Path=/`);
    res.send('welcome');
  });
  app.use('/chat', chat.handler);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host.chat = chat;
  host.accounts = accounts;
  host.login = async (name, password) => {
    const response = await fetch(host.url + '/login', { method: 'POST', body: new URLSearchParams({ name, password }) });
    return response.headers.get('set-cookie')?.split(';')[0];
  };
  t.teardown(async () => {
    await new Promise((resolve) => server.close(resolve));
    await chat.close();
  });
  return host;
}

async function call(host: Host, method: string, path: string, headers: Record<string, string>, params?: Record<string, string>) {
  const response = await fetch(`${host.url}/chat/api/v1${path}`, {
    method,
    headers,
    body: params === undefined ? null : new URLSearchParams(params),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const NOT_LOGGED_IN = { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' };
const MISSING = { result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' };

t.test("the host's signed-in user calls /users/me and sends a message without parley credentials", async (t) => {
  const host = await startHost(t);
  const owner = await host.chat.admin.initOrganization({ email: 'boss@acme.test', fullName: 'Boss' });
  // Accounts the host creates need no parley password.
  const alice = await host.chat.admin.addUser({ email: 'alice@acme.test', fullName: 'Alice' });
  host.accounts.set('alice', { password: 'alice-host-password', userId: alice.user_id });
  host.chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'general' }], principals: [owner.user_id, alice.user_id] });

  const cookie = await host.login('alice', 'alice-host-password');
  t.ok(cookie, 'signed in to the host');
  const me = await call(host, 'GET', '/users/me', { cookie: cookie! });
  t.same([me.status, me.body.user_id, me.body.delivery_email], [200, alice.user_id, 'alice@acme.test']);
  const sent = await call(host, 'POST', '/messages', { cookie: cookie! }, { type: 'stream', to: 'general', topic: 'hello', content: 'from the host app' });
  t.equal(sent.status, 200);
  const message = host.chat.api.messages.list(owner.user_id, { anchor: 'newest', numBefore: 1, numAfter: 0 }).messages[0]!;
  t.same([message.sender_id, message.content], [alice.user_id, '<p>from the host app</p>']);
});

t.test('no cookie, a forged cookie, a deactivated account, an unknown id: 401', async (t) => {
  const host = await startHost(t);
  await host.chat.admin.initOrganization({ email: 'boss@acme.test' });
  const bob = await host.chat.admin.addUser({ email: 'bob@acme.test', fullName: 'Bob' });
  host.accounts.set('bob', { password: 'pw', userId: bob.user_id });
  host.accounts.set('ghost', { password: 'pw', userId: 999 });

  t.same((await call(host, 'GET', '/users/me', {})).body, MISSING, 'no cookie: as with no credentials');
  t.same((await call(host, 'GET', '/users/me', { cookie: 'app_session=' + 'ab'.repeat(16) })).body, MISSING, 'a forged cookie names no one');
  const ghost = await host.login('ghost', 'pw');
  const unknown = await call(host, 'GET', '/users/me', { cookie: ghost! });
  t.same([unknown.status, unknown.body], [401, NOT_LOGGED_IN], 'an id that is no account');
  const cookie = await host.login('bob', 'pw');
  t.equal((await call(host, 'GET', '/users/me', { cookie: cookie! })).status, 200);
  host.chat.admin.deactivateUser(bob.user_id);
  const gone = await call(host, 'GET', '/users/me', { cookie: cookie! });
  t.same([gone.status, gone.body], [401, { result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' }]);
});

t.test('a bot is refused unless the host says it means a bot; an incoming webhook bot only sends messages', async (t) => {
  const host = await startHost(t);
  const owner = await host.chat.admin.initOrganization({ email: 'boss@acme.test' });
  const bot = await host.chat.admin.addUser({ email: 'helper-bot@acme.test', fullName: 'Helper', bot: true, botOwnerId: owner.user_id });
  host.accounts.set('unmeant', { password: 'pw', userId: bot.user_id });
  host.accounts.set('meant', { password: 'pw', userId: bot.user_id, bot: true });
  const unmeant = await call(host, 'GET', '/users/me', { cookie: (await host.login('unmeant', 'pw'))! });
  t.same([unmeant.status, unmeant.body], [401, NOT_LOGGED_IN]);
  const meant = await call(host, 'GET', '/users/me', { cookie: (await host.login('meant', 'pw'))! });
  t.same([meant.status, meant.body.user_id, meant.body.is_bot], [200, bot.user_id, true]);
});

t.test('roles apply as with the API key', async (t) => {
  const host = await startHost(t);
  await host.chat.admin.initOrganization({ email: 'boss@acme.test' });
  const carol = await host.chat.admin.addUser({ email: 'carol@acme.test', fullName: 'Carol' });
  host.accounts.set('carol', { password: 'pw', userId: carol.user_id });
  const cookie = (await host.login('carol', 'pw'))!;
  const refused = await call(host, 'POST', '/users', { cookie }, { email: 'x@acme.test', password: 'xxxxxxxx', full_name: 'X' });
  t.same([refused.status, refused.body.msg], [400, 'Must be an organization administrator']);
});

t.test('Basic-auth requests never ask the hook; the hook wins only without an Authorization header', async (t) => {
  const host = await startHost(t);
  const owner = await host.chat.admin.initOrganization({ email: 'boss@acme.test' });
  const dave = await host.chat.admin.addUser({ email: 'dave@acme.test', fullName: 'Dave' });
  host.accounts.set('dave', { password: 'pw', userId: dave.user_id });
  const cookie = (await host.login('dave', 'pw'))!;
  const before = host.hookCalls;
  const asOwner = await call(host, 'GET', '/users/me', { authorization: basic(owner.email, owner.api_key), cookie });
  t.same([asOwner.status, asOwner.body.user_id], [200, owner.user_id], 'the explicit key wins');
  t.equal(host.hookCalls, before, 'the hook was not asked');
  const bad = await call(host, 'GET', '/users/me', { authorization: basic(owner.email, 'x'.repeat(32)), cookie });
  t.same([bad.status, bad.body.msg], [401, 'Invalid API key'], 'a wrong key is not rescued by the cookie');
});

t.test('a state-changing request the hook signs in must come from the same origin', async (t) => {
  const host = await startHost(t);
  await host.chat.admin.initOrganization({ email: 'boss@acme.test' });
  const erin = await host.chat.admin.addUser({ email: 'erin@acme.test', fullName: 'Erin' });
  host.accounts.set('erin', { password: 'pw', userId: erin.user_id });
  const cookie = (await host.login('erin', 'pw'))!;
  const forged = await call(host, 'PATCH', '/settings', { cookie, origin: 'https://evil.example' }, { full_name: 'Hacked' });
  t.same([forged.status, forged.body.code], [403, 'CSRF_FAILED']);
  const own = await call(host, 'PATCH', '/settings', { cookie, origin: host.url }, { full_name: 'Erin E' });
  t.equal(own.status, 200);
});

t.test("rate limits count the hook's users as users", async (t) => {
  const host = await startHost(t, { rateLimit: { requestsPerMinute: 2 } });
  await host.chat.admin.initOrganization({ email: 'boss@acme.test' });
  const fay = await host.chat.admin.addUser({ email: 'fay@acme.test', fullName: 'Fay' });
  host.accounts.set('fay', { password: 'pw', userId: fay.user_id });
  const cookie = (await host.login('fay', 'pw'))!;
  const statuses = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await call(host, 'GET', '/users/me', { cookie })).status);
  t.same(statuses, [200, 200, 429]);
});

t.test('a web session made under the mount point has its cookie path', async (t) => {
  const host = await startHost(t);
  await host.chat.admin.initOrganization({ email: 'boss@acme.test', password: 'boss-password' });
  const response = await fetch(`${host.url}/chat/api/v1/sessions`, { method: 'POST', body: new URLSearchParams({ username: 'boss@acme.test', password: 'boss-password' }) });
  t.equal(response.status, 200);
  t.match(response.headers.get('set-cookie'), /^parley_session=[A-Za-z0-9_-]{43}; Path=\/chat; /);
});

t.test('a hook answering something that is not a user id is a bug of the host: a logged 500, nobody signed in', async (t) => {
  const errors: unknown[] = [];
  const chat = createChatServer(new Database(':memory:'), {
    logger: { ...silentLogger, error: (...args: unknown[]) => errors.push(args) },
    authenticate: () => ({ userId: 'boss' as unknown as number }),
  });
  t.teardown(() => chat.close());
  await chat.admin.initOrganization({ email: 'boss@acme.test' });
  const address = await chat.listen(0, '127.0.0.1');
  const response = await fetch(`http://127.0.0.1:${address.port}/api/v1/users/me`);
  t.equal(response.status, 500);
  t.equal(errors.length, 1);
});
