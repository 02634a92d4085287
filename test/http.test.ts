// The HTTP core (lib/http): routing, 404/405, double-slash paths, body limits and content types,
// mounting as middleware, unexpected exceptions, rate limiting.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { createChatServer } from '../lib/index.js';
import type { Logger } from '../lib/logger.js';
import { createHandler } from '../lib/http/handler.js';
import { DEFAULT_LIMITS } from '../lib/http/body.js';
import { z } from 'zod';
import { route, type RouteDef } from '../lib/routes/route.js';
import { routeRunner } from '../lib/routes/run.js';
import { ApiError } from '../lib/errors.js';
import { basic, startServer, withAuth } from './helpers.js';
import { IMAGES } from './user_status_helpers.js';

/** The answers of this file's own test routes are not what the tests check. */
const anyAnswer = z.looseObject({});

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A request with node:http, so the test controls the exact bytes, headers and framing. */
function raw(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; chunks?: (string | Buffer)[] } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: the test will say so
        }
        resolve({ status: res.statusCode!, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    if (options.chunks) for (const chunk of options.chunks) req.write(chunk);
    req.end(options.body);
  });
}

function listen(listener: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = http.createServer(listener);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
      server.unref();
    });
  });
}

/** The HTTP core alone over public test routes, run by the route runner: no chat domain, no authentication. */
function publicOnlyHandler(routes: RouteDef[], logger: Logger) {
  return createHandler({
    routes,
    authenticate: () => {
      throw new Error('no auth in this test');
    },
    callerId: () => 0,
    precheck: (_route, caller) => caller,
    run: routeRunner(undefined as never).run,
    limits: DEFAULT_LIMITS,
    logger,
  });
}

function memoryLogger() {
  const entries: { level: string; message: string; fields?: Record<string, unknown> | undefined }[] = [];
  const logger: Logger = {
    info: (message, fields) => entries.push({ level: 'info', message, fields }),
    warn: (message, fields) => entries.push({ level: 'warn', message, fields }),
    error: (message, fields) => entries.push({ level: 'error', message, fields }),
  };
  return { logger, entries };
}

t.test('an unknown endpoint is a JSON 404 NOT_FOUND', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  for (const path of ['/api/v1/no_such_endpoint', '/api/v1/users/me/no/such', '/not-api', '/']) {
    const reply = await raw(s.url, 'GET', path, { headers: { authorization: s.owner.auth } });
    t.equal(reply.status, 404, path);
    t.same(reply.body, { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
    t.match(reply.headers['content-type'], /^application\/json/);
  }
});

t.test('every JSON answer carries X-Content-Type-Options: nosniff: successes, errors, 404s, 405s, 429s, 413s', async (t) => {
  const s = await startServer({ socket: true, rateLimit: { requestsPerMinute: 2 } });
  t.teardown(() => s.close());
  const auth = { authorization: s.owner.auth };
  const replies = {
    success: await raw(s.url, 'GET', '/api/v1/users/me', { headers: auth }),
    'rule error': await raw(s.url, 'GET', '/api/v1/users/999999', { headers: auth }),
    'not found': await raw(s.url, 'GET', '/api/v1/no_such_endpoint'),
    'no credentials': await raw(s.url, 'GET', '/api/v1/users/me'),
    'method not allowed': await raw(s.url, 'PUT', '/api/v1/users/me', { headers: auth }),
    'too large': await raw(s.url, 'POST', '/api/v1/messages', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'x='.padEnd(2 * 1024 * 1024, 'x') }),
    'rate limited': await raw(s.url, 'GET', '/api/v1/users/me', { headers: auth }),
  };
  t.equal(replies['rate limited'].status, 429, 'the third request of a budget of 2 is refused');
  for (const [name, reply] of Object.entries(replies)) {
    t.match(reply.headers['content-type'], /^application\/json/, `${name}: JSON`);
    t.equal(reply.headers['x-content-type-options'], 'nosniff', `${name}: nosniff`);
  }
});

t.test('a known path with another method is 405 with Allow', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  const cases: [string, string, string][] = [
    ['PUT', '/api/v1/users/me', 'GET, DELETE'],
    ['DELETE', '/api/v1/server_settings', 'GET'],
    ['PUT', '/api/v1/users', 'GET, POST'],
    ['POST', '/api/v1/users/5', 'GET, PATCH, DELETE'],
    // The routes outside /api/v1 too: a custom emoji's image (any file name), the emoji data.
    ['POST', '/user_avatars/1/emoji/images/0123456789abcdef.png', 'GET'],
    ['PUT', '/user_avatars/1/emoji/images/0123456789abcdef.png', 'GET'],
    ['DELETE', '//user_avatars/1/emoji/images/no-such-file.gif', 'GET'],
    ['PATCH', '/static/generated/emoji/emoji_api.json', 'GET'],
  ];
  for (const [method, path, allow] of cases) {
    const reply = await raw(s.url, method, path, { headers: { authorization: s.owner.auth } });
    t.equal(reply.status, 405, `${method} ${path}`);
    t.same(reply.body, { result: 'error', msg: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' });
    t.equal(reply.headers.allow, allow);
  }
});

t.test('a path id that is not an integer is a 404', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  for (const id of ['abc', '1.5', '-1', '%zz', '1e3']) {
    const reply = await raw(s.url, 'GET', `/api/v1/messages/${id}`, { headers: { authorization: s.owner.auth } });
    t.equal(reply.status, 404, id);
    t.equal(reply.body.result, 'error');
  }
  const huge = await raw(s.url, 'GET', '/api/v1/messages/99999999999999999999', { headers: { authorization: s.owner.auth } });
  t.equal(huge.status, 400, 'digits beyond a safe integer are a parameter error, not a crash');
  t.same(huge.body, { result: 'error', msg: 'message_id is too large', code: 'BAD_REQUEST' });
});

t.test('//api/v1/... (what zulip-js sends for a server URL ending in /) is served like /api/v1/...', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  const reply = await raw(s.url, 'GET', '//api/v1/users/me?x=1', { headers: { authorization: s.owner.auth } });
  t.equal(reply.status, 200);
  t.match(reply.body, { result: 'success', user_id: s.owner.user_id, ignored_parameters_unsupported: ['x'] });
  const trailing = await raw(s.url, 'GET', '/api/v1/users/me/', { headers: { authorization: s.owner.auth } });
  t.equal(trailing.status, 200, 'a trailing slash is ignored');
});

t.test('an oversized body is 413 PAYLOAD_TOO_LARGE and the server keeps working', async (t) => {
  const s = await startServer({ socket: true, limits: { bodyBytes: 100, uploadBytes: 200 } });
  t.teardown(() => s.close());
  const headers = { authorization: s.owner.auth, 'content-type': 'application/x-www-form-urlencoded' };
  const declared = await raw(s.url, 'PATCH', `/api/v1/users/${s.owner.user_id}`, { headers, body: 'full_name=' + 'a'.repeat(200) });
  t.equal(declared.status, 413, 'with a Content-Length over the limit');
  t.same(declared.body, { result: 'error', msg: 'Request body too large (limit: 100 bytes)', code: 'PAYLOAD_TOO_LARGE' });
  const chunked = await raw(s.url, 'PATCH', `/api/v1/users/${s.owner.user_id}`, { headers, chunks: ['full_name=', 'b'.repeat(60), 'c'.repeat(60)] });
  t.equal(chunked.status, 413, 'chunked, without a Content-Length');
  t.equal(chunked.body.code, 'PAYLOAD_TOO_LARGE');
  const boundary = 'XyZ';
  const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="full_name"\r\n\r\n${'d'.repeat(400)}\r\n--${boundary}--\r\n`;
  const big = await raw(s.url, 'PATCH', `/api/v1/users/${s.owner.user_id}`, {
    headers: { authorization: s.owner.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: multipart,
  });
  t.equal(big.status, 413, 'multipart over the limit');
  t.equal(big.body.code, 'PAYLOAD_TOO_LARGE');
  t.equal(s.chat.api.users.me(s.owner.user_id).full_name, 'Olivia Owner', 'nothing changed');
  const after = await s.request('PATCH', `/users/${s.owner.user_id}`, { as: s.owner, params: { full_name: 'Still Works' } });
  t.equal(after.status, 200);
  t.equal(s.chat.api.users.me(s.owner.user_id).full_name, 'Still Works');
});

t.test('a body that does not arrive in time is 408 REQUEST_TIMEOUT', async (t) => {
  const s = await startServer({ socket: true, limits: { bodyTimeoutMs: 50 } });
  t.teardown(() => s.close());
  const reply = await new Promise<RawReply>((resolve, reject) => {
    const req = http.request(`${s.url}/api/v1/users/${s.owner.user_id}`, {
      method: 'PATCH',
      agent: false,
      headers: { authorization: s.owner.auth, 'content-type': 'application/x-www-form-urlencoded', 'content-length': '100' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.write('full_name=Slow'); // and never the rest
  });
  t.equal(reply.status, 408);
  t.same(reply.body, { result: 'error', msg: 'Request body timed out', code: 'REQUEST_TIMEOUT' });
  t.equal(s.chat.api.users.me(s.owner.user_id).full_name, 'Olivia Owner', 'nothing changed');
  const after = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(after.status, 200, 'the server keeps working');
});

t.test('a body that is neither form-urlencoded nor multipart is 415', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  const reply = await raw(s.url, 'PATCH', `/api/v1/users/${s.owner.user_id}`, {
    headers: { authorization: s.owner.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ full_name: 'Json' }),
  });
  t.equal(reply.status, 415);
  t.same(reply.body, {
    result: 'error',
    msg: 'Unsupported request body type: send application/x-www-form-urlencoded or multipart/form-data',
    code: 'UNSUPPORTED_MEDIA_TYPE',
  });
  const empty = await raw(s.url, 'GET', '/api/v1/users/me', { headers: { authorization: s.owner.auth, 'content-type': 'application/json' } });
  t.equal(empty.status, 200, 'an empty body of any type is fine');
});

t.test('a malformed multipart body is 400', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  const expected = { result: 'error', msg: 'Malformed multipart/form-data body', code: 'BAD_REQUEST' };
  const noBoundary = await raw(s.url, 'PATCH', `/api/v1/users/${s.owner.user_id}`, {
    headers: { authorization: s.owner.auth, 'content-type': 'multipart/form-data' },
    body: 'full_name=x',
  });
  t.equal(noBoundary.status, 400);
  t.same(noBoundary.body, expected);
  const truncated = await raw(s.url, 'PATCH', `/api/v1/users/${s.owner.user_id}`, {
    headers: { authorization: s.owner.auth, 'content-type': 'multipart/form-data; boundary=abc' },
    body: '--abc\r\nContent-Disposition: form-data; name="full_name"\r\n\r\nTrunc',
  });
  t.equal(truncated.status, 400);
  t.same(truncated.body, expected);
  t.equal(s.chat.api.users.me(s.owner.user_id).full_name, 'Olivia Owner');
});

/**
 * An app that mounts parley under /chat (as app.use('/chat', chat.handler) does): parley's own
 * paths are served, the others reach next() and answer "app fallthrough <url>"; / is the app's.
 */
async function mountedUnderChat(t: Test) {
  const db = new Database(':memory:');
  const chat = createChatServer(db, { logger: memoryLogger().logger });
  const app = await listen((req, res) => {
    const url = req.url ?? '/';
    if (url === '/chat' || url.startsWith('/chat/') || url.startsWith('/chat?')) {
      req.url = url.slice('/chat'.length) || '/';
      chat.handler(req, res, () => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`app fallthrough ${req.url}`);
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('app home');
  });
  t.teardown(async () => {
    await app.close();
    await chat.close();
    db.close();
  });
  return { chat, app };
}

t.test('mounted as middleware under a prefix: zulip requests work, other paths reach next()', async (t) => {
  const { chat, app } = await mountedUnderChat(t);
  const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' }));
  const me = await raw(app.url, 'GET', '/chat/api/v1/users/me', { headers: { authorization: owner.auth } });
  t.equal(me.status, 200);
  t.equal(me.body.user_id, owner.user_id);
  const doubled = await raw(app.url, 'GET', '/chat//api/v1/users/me', { headers: { authorization: owner.auth } });
  t.equal(doubled.status, 200, 'zulip-js with a server URL ending in / under a prefix');
  const patched = await raw(app.url, 'PATCH', `/chat/api/v1/users/${owner.user_id}`, {
    headers: { authorization: owner.auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'full_name=Mounted',
  });
  t.equal(patched.status, 200, 'bodies are read by parley');
  t.equal(chat.api.users.me(owner.user_id).full_name, 'Mounted');
  const other = await raw(app.url, 'GET', '/chat/static/app.js');
  t.equal(other.status, 404);
  t.equal(other.body, 'app fallthrough /static/app.js', 'paths parley does not own go to next()');
  const unknownApi = await raw(app.url, 'GET', '/chat/api/v1/no_such_endpoint');
  t.equal(unknownApi.body, 'app fallthrough /api/v1/no_such_endpoint');
  const home = await raw(app.url, 'GET', '/');
  t.equal(home.body, 'app home');
  const settings = await raw(app.url, 'GET', '/chat/api/v1/server_settings');
  t.equal(settings.body.zulip_feature_level, 478);
});

t.test("mounted under a prefix: a custom emoji's source_url is under the organization URL's path and serves the image", async (t) => {
  const { chat, app } = await mountedUnderChat(t);
  const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com', url: `${app.url}/chat/` }));
  const form = new FormData();
  form.append('file', new Blob([IMAGES.png], { type: 'image/png' }), 'parrot.png');
  const uploaded = await fetch(`${app.url}/chat/api/v1/realm/emoji/parrot`, { method: 'POST', headers: { authorization: owner.auth }, body: form });
  t.equal(uploaded.status, 200);
  const listed = await raw(app.url, 'GET', '/chat/api/v1/realm/emoji', { headers: { authorization: owner.auth } });
  const emoji = Object.values(listed.body.emoji as Record<string, { source_url: string }>)[0]!;
  t.match(emoji.source_url, /^\/chat\/user_avatars\/1\/emoji\/images\/[0-9a-f]{16}\.png$/);
  t.same(chat.api.realmEmoji.list(owner.user_id), { emoji: listed.body.emoji }, 'in-process the same');
  const image = await fetch(app.url + emoji.source_url);
  t.equal(image.status, 200, 'the client loads the image from source_url');
  t.equal(image.headers.get('content-type'), 'image/png');
  t.equal((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width, 64, 'the 64x64 emoji made of the upload');
  const posted = await raw(app.url, 'POST', emoji.source_url);
  t.equal(posted.status, 405, 'another method on the image: 405, not next()');
  t.same(posted.body, { result: 'error', msg: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' });
  t.equal(posted.headers.allow, 'GET');
  const deleted = await raw(app.url, 'DELETE', emoji.source_url, { headers: { authorization: owner.auth } });
  t.equal(deleted.status, 405);
  t.equal((await fetch(app.url + emoji.source_url)).status, 200, 'the image is still served');
});

t.test('an unexpected exception is a JSON 500 without details, logged, and the process keeps serving', async (t) => {
  const { logger, entries } = memoryLogger();
  const routes = [
    route({ method: 'GET', path: '/boom', access: 'public', summary: 'throws', params: {}, response: anyAnswer, handler: () => { throw new Error('secret detail'); } }),
    route({ method: 'GET', path: '/async_boom', access: 'public', summary: 'rejects', params: {}, response: anyAnswer, handler: async () => { throw new TypeError('async detail'); } }),
    route({ method: 'GET', path: '/not_an_error', access: 'public', summary: 'throws a string', params: {}, response: anyAnswer, handler: () => { throw 'a string'; } }),
    route({ method: 'GET', path: '/fine', access: 'public', summary: 'works', params: {}, response: anyAnswer, handler: () => ({ fine: true }) }),
    route({ method: 'GET', path: '/rule', access: 'public', summary: 'an ApiError', params: {}, response: anyAnswer, handler: () => { throw new ApiError('BAD_REQUEST', 'A rule'); } }),
  ];
  const handler = publicOnlyHandler(routes, logger);
  const app = await listen((req, res) => handler(req, res));
  t.teardown(() => app.close());
  for (const path of ['/boom', '/async_boom', '/not_an_error']) {
    const reply = await raw(app.url, 'GET', `/api/v1${path}`);
    t.equal(reply.status, 500, path);
    t.same(reply.body, { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
    t.notMatch(JSON.stringify(reply.body), /detail|at |\.ts/, 'no message or stack trace');
  }
  t.equal(entries.length, 3, 'each logged once');
  t.match(entries[0], { level: 'error', message: 'unexpected error', fields: { method: 'GET', route: '/boom', error: /Error: secret detail\n\s+at / } });
  t.match(entries[1], { level: 'error', fields: { route: '/async_boom', error: /TypeError: async detail/ } });
  t.match(entries[2], { level: 'error', fields: { error: 'a string' } });
  const fine = await raw(app.url, 'GET', '/api/v1/fine');
  t.same(fine.body, { result: 'success', msg: '', fine: true }, 'still serving');
  const rule = await raw(app.url, 'GET', '/api/v1/rule');
  t.same([rule.status, rule.body], [400, { result: 'error', msg: 'A rule', code: 'BAD_REQUEST' }], 'ApiErrors are not logged as bugs');
  t.equal(entries.length, 3);
});

t.test('rate limits: X-RateLimit headers, 429 RATE_LIMIT_HIT with retry-after, per user, recovery', async (t) => {
  let now = 1_700_000_000_000;
  const s = await startServer({ socket: true, rateLimit: { requestsPerMinute: 3 }, clock: () => now });
  t.teardown(() => s.close());
  const member = await s.user('member');
  for (const remaining of [2, 1, 0]) {
    const reply = await s.request('GET', '/users/me', { as: s.owner });
    t.equal(reply.status, 200);
    t.equal(reply.headers.get('x-ratelimit-limit'), '3');
    t.equal(reply.headers.get('x-ratelimit-remaining'), String(remaining));
    t.equal(reply.headers.get('x-ratelimit-reset'), String(Math.ceil((now + (3 - remaining) * 20_000) / 1000)));
  }
  const limited = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(limited.status, 429);
  t.same(limited.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 20 });
  t.equal(limited.headers.get('retry-after'), '20');
  t.equal(limited.headers.get('x-ratelimit-remaining'), '0');
  const other = await s.request('GET', '/users/me', { as: member });
  t.equal(other.status, 200, 'another user is not affected');
  t.equal(other.headers.get('x-ratelimit-remaining'), '2');
  now += 10_000;
  const half = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(half.status, 429, 'half a token is not enough');
  t.equal(half.body['retry-after'], 10);
  now += 10_000;
  const recovered = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(recovered.status, 200, 'recovers once the clock advanced');
  t.equal(recovered.headers.get('x-ratelimit-remaining'), '0');
  const settings = await s.request('GET', '/server_settings');
  t.equal(settings.status, 200, '/server_settings is limited per address, not per user');
  t.equal(settings.headers.get('x-ratelimit-remaining'), '2');
});

t.test('failed authentications of an address hit the stricter per-address limit', async (t) => {
  let now = 1_700_000_000_000;
  const s = await startServer({ socket: true, rateLimit: { requestsPerMinute: 100, authAttemptsPerMinute: 2 }, clock: () => now });
  t.teardown(() => s.close());
  const wrong = { auth: basic(s.owner.email, 'x'.repeat(32)) } as never;
  for (let i = 0; i < 2; i += 1) {
    const reply = await s.request('GET', '/users/me', { as: wrong });
    t.equal(reply.status, 401);
    t.equal(reply.body.msg, 'Invalid API key');
  }
  const limited = await s.request('GET', '/users/me', { as: wrong });
  t.equal(limited.status, 429);
  t.same(limited.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 30 });
  t.equal(limited.headers.get('retry-after'), '30');
  now += 30_000;
  const again = await s.request('GET', '/users/me', { as: wrong });
  t.equal(again.status, 401, 'allowed to try again after the wait');
  now += 60_000;
  const good = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(good.status, 200, 'successful authentications do not count');
  t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 200);
  t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 200);
});

t.test('POST /fetch_api_key failures are limited per address, and per account whatever the address', async (t) => {
  let now = 1_700_000_000_000;
  const s = await startServer({ socket: true, rateLimit: { authAttemptsPerMinute: 2 }, clock: () => now });
  t.teardown(() => s.close());
  const params = { username: s.owner.email, password: 'owner-password' };
  const member = await s.user('member', { password: 'member-password' });
  t.equal((await s.request('POST', '/fetch_api_key', { params: { ...params, password: 'wrong' } })).status, 401);
  t.equal((await s.request('POST', '/fetch_api_key', { params })).status, 200);
  t.equal((await s.request('POST', '/fetch_api_key', { params })).status, 200, 'successful logins do not count');
  t.equal((await s.request('POST', '/fetch_api_key', { params: { username: member.email, password: 'wrong' } })).status, 401);
  const limited = await s.request('POST', '/fetch_api_key', { params: { username: 'nobody@example.com', password: 'wrong' } });
  t.equal(limited.status, 429, "the address's third failure");
  t.equal(limited.body.code, 'RATE_LIMIT_HIT');
  t.equal(limited.body.msg, 'API usage exceeded rate limit');
  t.ok(Number(limited.headers.get('retry-after')) > 0);
  t.equal((await s.request('POST', '/fetch_api_key', { params })).status, 200, 'a right password still logs in');
  const me = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(me.status, 200, 'password logins do not lock out API keys');
  now += 30_000;
  t.equal((await s.request('POST', '/fetch_api_key', { params: { ...params, password: 'wrong' } })).status, 401, 'recovers');
});

t.test('file parts reach only routes that take uploads; elsewhere they are read and dropped', async (t) => {
  const seen: Record<string, unknown> = {};
  // The file is not a parameter, so it is not listed as an ignored one; the unknown field is.
  const routes = [
    route({ method: 'POST', path: '/plain', access: 'public', summary: 'no uploads', params: {}, response: anyAnswer, handler: (_c, _a, _p, request) => ({ files: request.files.length }) }),
    route({ method: 'POST', path: '/upload', access: 'public', summary: 'uploads', uploads: 'a file', params: {}, response: anyAnswer, handler: (_c, _a, _p, request) => ({ files: request.files.map((f) => f.data.length) }) }),
  ];
  const handler = publicOnlyHandler(routes, memoryLogger().logger);
  const app = await listen((req, res) => handler(req, res));
  t.teardown(() => app.close());
  for (const path of ['/plain', '/upload']) {
    const form = new FormData();
    form.append('note', 'x');
    form.append('file', new Blob([Buffer.alloc(100_000, 1)]), 'big.bin');
    const reply = await fetch(`${app.url}/api/v1${path}`, { method: 'POST', body: form });
    seen[path] = await reply.json();
  }
  const ignored = ['note'];
  t.same(seen['/plain'], { result: 'success', msg: '', files: 0, ignored_parameters_unsupported: ignored }, 'a route without uploads never gets (or holds) the file');
  t.same(seen['/upload'], { result: 'success', msg: '', files: [100_000], ignored_parameters_unsupported: ignored }, 'an upload route gets it whole');
});

t.test("a request's signal aborts when the client leaves before the answer, not after it", async (t) => {
  const signals: AbortSignal[] = [];
  let release: (() => void) | undefined;
  const routes = [
    route({ method: 'GET', path: '/quick', access: 'public', summary: 'answers at once', params: {}, response: anyAnswer, handler: (_c, _a, _p, request) => (signals.push(request.signal), {}) }),
    route({
      method: 'GET',
      path: '/slow',
      access: 'public',
      summary: 'answers when released',
      params: {},
      response: anyAnswer,
      handler: (_c, _a, _p, request) => {
        signals.push(request.signal);
        return new Promise<Record<string, never>>((resolve) => (release = () => resolve({})));
      },
    }),
  ];
  const handler = publicOnlyHandler(routes, memoryLogger().logger);
  const app = await listen((req, res) => handler(req, res));
  t.teardown(() => app.close());

  t.equal((await raw(app.url, 'GET', '/api/v1/quick')).status, 200);
  // raw() uses no agent: the connection closes after the answer.
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(signals[0]!.aborted, false, 'a finished request is not aborted when its connection closes');

  const controller = new AbortController();
  const gone = fetch(`${app.url}/api/v1/slow`, { signal: controller.signal }).catch(() => 'gone');
  for (let i = 0; i < 100 && signals.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort();
  t.equal(await gone, 'gone');
  for (let i = 0; i < 100 && !signals[1]!.aborted; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  t.equal(signals[1]!.aborted, true, 'a client that leaves while the handler works aborts its signal');
  release?.();
});

t.test("a caller's request: authenticated and prechecked before its body is read, then run; a refusal closes the connection unread", async (t) => {
  const calls: string[] = [];
  const routes: RouteDef[] = [
    route({ method: 'POST', path: '/write', access: 'user', summary: 'test', params: {}, response: anyAnswer, handler: () => ({ done: true }) }),
  ];
  const handler = createHandler<RouteDef, string>({
    routes,
    authenticate: (req) => {
      calls.push('authenticate');
      if (req.headers.authorization !== 'good' && req.headers.authorization !== 'refused') throw new ApiError('UNAUTHORIZED', 'Invalid API key');
      return req.headers.authorization;
    },
    callerId: () => 7,
    precheck: (_route, caller) => {
      calls.push('precheck');
      if (caller === 'refused') throw new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      return caller;
    },
    run: (r, caller, _input, request) => {
      calls.push(`run as ${caller}`);
      return r.handler(undefined as never, caller as never, {}, request);
    },
    limits: DEFAULT_LIMITS,
    logger: memoryLogger().logger,
  });
  const app = await listen((req, res) => handler(req, res));
  t.teardown(() => app.close());
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  const done = await raw(app.url, 'POST', '/api/v1/write', { headers: { ...form, authorization: 'good' }, body: 'a=1' });
  t.same([done.status, done.body.done], [200, true]);
  t.same(calls, ['authenticate', 'precheck', 'run as good']);

  calls.length = 0;
  const refused = await raw(app.url, 'POST', '/api/v1/write', { headers: { ...form, authorization: 'bad' }, body: 'a=1' });
  t.same([refused.status, refused.body.msg, refused.headers.connection], [401, 'Invalid API key', 'close'], 'refused before its body is read');
  t.same(calls, ['authenticate'], 'nothing runs');

  calls.length = 0;
  const denied = await raw(app.url, 'POST', '/api/v1/write', { headers: { ...form, authorization: 'refused' }, body: 'a=1' });
  t.same([denied.status, denied.body.msg, denied.headers.connection], [400, 'Must be an organization administrator', 'close'], 'the precheck refuses before the body too');
  t.same(calls, ['authenticate', 'precheck']);

  calls.length = 0;
  const bodiless = await raw(app.url, 'POST', '/api/v1/write', { headers: { authorization: 'good' } });
  t.equal(bodiless.status, 200);
  t.same(calls, ['authenticate', 'run as good'], 'without a body, the run makes every check');
});
