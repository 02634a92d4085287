// Failed-authentication limits: password logins are limited per account, whatever the address
// (Zulip's authenticate_by_username: 5 per 30 minutes), failures per address only turn further
// failures into 429s, and valid credentials are never refused because of other accounts'
// failures. The client address is the socket's peer unless proxies are trusted (trustProxy).
import http from 'node:http';
import t from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { clientAddressResolver, parseTrustProxy } from '../lib/http/client_address.js';
import { basic, startServer, type TestServer } from './helpers.js';

const NOW = 1_700_000_000_000;
const LIMITED = { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT' };

interface Answer {
  status: number;
  body: Record<string, any>;
}

/** One request from the local address `from` (any of 127.0.0.0/8), with extra headers. */
function requestFrom(s: TestServer, from: string, method: string, path: string, options: { params?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Answer> {
  const body = new URLSearchParams(options.params ?? {}).toString();
  const url = new URL(`${s.url}/api/v1${path}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, any> }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const login = (s: TestServer, from: string, username: string, password: string, headers?: Record<string, string>) =>
  requestFrom(s, from, 'POST', '/fetch_api_key', { params: { username, password }, ...(headers ? { headers } : {}) });

const me = (s: TestServer, from: string, email: string, key: string, headers: Record<string, string> = {}) =>
  requestFrom(s, from, 'GET', '/users/me', { headers: { authorization: basic(email, key), ...headers } });

t.test("bad keys of other accounts from one address never lock out a valid key from it", async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 1000, authAttemptsPerMinute: 5 }, clock: () => NOW });
  t.teardown(() => s.close());
  const statuses: number[] = [];
  for (let i = 0; i < 25; i += 1) statuses.push((await me(s, '127.0.0.1', `nobody${i}@example.com`, 'k'.repeat(32))).status);
  t.same(statuses, [...Array(5).fill(401), ...Array(20).fill(429)], 'the address has 5 failures, then its failures are 429s');
  const valid = await me(s, '127.0.0.1', s.owner.email, s.owner.api_key);
  t.same([valid.status, valid.body.email], [200, s.owner.email], 'a valid key from that address still works');
  const wrong = await me(s, '127.0.0.1', s.owner.email, 'w'.repeat(32));
  t.same(wrong.body, { ...LIMITED, 'retry-after': 12 }, 'and a wrong one is still refused');
});

t.test("guessing one account's password from 8 addresses is limited per account (5 per 30 minutes)", async (t) => {
  let now = NOW;
  const s = await startServer({ rateLimit: { requestsPerMinute: 1000 }, clock: () => now });
  t.teardown(() => s.close());
  const answers: Answer[] = [];
  for (let round = 0; round < 20; round += 1) {
    for (let host = 2; host <= 9; host += 1) answers.push(await login(s, `127.0.0.${host}`, s.owner.email, `guess-${round}-${host}`));
  }
  t.equal(answers.length, 160);
  t.same(
    answers.slice(0, 5).map((a) => [a.status, a.body.code, a.body.msg]),
    Array(5).fill([401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect']),
  );
  t.ok(answers.slice(5).every((a) => a.status === 429 && a.body.code === 'RATE_LIMIT_HIT'), 'the other 155 are refused before the password is checked');
  t.same(answers[5]!.body, { ...LIMITED, 'retry-after': 360 }, 'one attempt comes back every 6 minutes');
  const right = await login(s, '127.0.0.10', ` ${s.owner.email.toUpperCase()} `, 'owner-password');
  t.same([right.status, right.body.code], [429, 'RATE_LIMIT_HIT'], 'while locked, even the right password (any spelling of the email, any address)');
  t.equal((await me(s, '127.0.0.2', s.owner.email, s.owner.api_key)).status, 200, 'API keys of the account still work');
  const other = await s.user('member', { password: 'member-password' });
  t.equal((await login(s, '127.0.0.2', other.email, 'member-password')).status, 200, 'other accounts can log in from the same addresses');
  now += 6 * 60_000;
  const after = await login(s, '127.0.0.10', s.owner.email, 'owner-password');
  t.same([after.status, after.body.api_key], [200, s.owner.api_key], 'the right password works once an attempt came back');
});

t.test('a successful login gives the account all its attempts back, as Zulip clears its history', async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 1000 }, clock: () => NOW });
  t.teardown(() => s.close());
  for (let i = 0; i < 4; i += 1) t.equal((await login(s, '127.0.0.1', s.owner.email, 'wrong')).status, 401);
  t.equal((await login(s, '127.0.0.1', s.owner.email, 'owner-password')).status, 200);
  for (let i = 0; i < 5; i += 1) t.equal((await login(s, '127.0.0.1', s.owner.email, 'wrong')).status, 401, `failure ${i + 1} after the success`);
  t.equal((await login(s, '127.0.0.1', s.owner.email, 'wrong')).status, 429);
});

t.test("other accounts' failed logins from one address never refuse a valid password from it", async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 1000, authAttemptsPerMinute: 3 }, clock: () => NOW });
  t.teardown(() => s.close());
  const statuses: number[] = [];
  for (let i = 0; i < 6; i += 1) statuses.push((await login(s, '127.0.0.1', `user${i}@example.com`, 'wrong')).status);
  t.same(statuses, [401, 401, 401, 429, 429, 429], 'failures beyond the address budget are 429s');
  const valid = await login(s, '127.0.0.1', s.owner.email, 'owner-password');
  t.same([valid.status, valid.body.api_key], [200, s.owner.api_key]);
});

t.test('loginFailuresPerAccount sets the per-account budget; 0 turns it off', async (t) => {
  const two = await startServer({ rateLimit: { requestsPerMinute: 1000, loginFailuresPerAccount: 2 }, clock: () => NOW });
  t.teardown(() => two.close());
  const statuses: number[] = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await login(two, `127.0.0.${2 + i}`, two.owner.email, 'wrong')).status);
  t.same(statuses, [401, 401, 429]);
  const off = await startServer({ rateLimit: { requestsPerMinute: 1000, loginFailuresPerAccount: 0 }, clock: () => NOW });
  t.teardown(() => off.close());
  for (let i = 0; i < 7; i += 1) t.equal((await login(off, `127.0.0.${2 + i}`, off.owner.email, 'wrong')).status, 401);
});

t.test('X-Forwarded-For is ignored unless proxies are trusted', async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 1000, authAttemptsPerMinute: 2 }, clock: () => NOW });
  t.teardown(() => s.close());
  const statuses: number[] = [];
  for (let i = 0; i < 4; i += 1) statuses.push((await me(s, '127.0.0.1', 'x@example.com', 'k'.repeat(32), { 'x-forwarded-for': `203.0.113.${i}` })).status);
  t.same(statuses, [401, 401, 429, 429], 'a forged header does not buy a fresh budget');
});

t.test('with trustProxy, the address a trusted proxy forwarded for is the client', async (t) => {
  for (const trustProxy of [1, ['127.0.0.1'], ['loopback'], ['127.0.0.0/8']]) {
    const s = await startServer({ rateLimit: { requestsPerMinute: 1000, authAttemptsPerMinute: 2 }, clock: () => NOW, trustProxy });
    const statuses: number[] = [];
    for (const client of ['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2']) {
      statuses.push((await me(s, '127.0.0.1', 'x@example.com', 'k'.repeat(32), { 'x-forwarded-for': `198.51.100.7, ${client}` })).status);
    }
    t.same(statuses, [401, 401, 429, 401], `trustProxy ${JSON.stringify(trustProxy)}: one budget per forwarded client`);
    await s.close();
  }
  const untrusted = await startServer({ rateLimit: { requestsPerMinute: 1000, authAttemptsPerMinute: 1 }, clock: () => NOW, trustProxy: ['10.0.0.0/8'] });
  t.teardown(() => untrusted.close());
  const statuses: number[] = [];
  for (const client of ['203.0.113.1', '203.0.113.2']) statuses.push((await me(untrusted, '127.0.0.1', 'x@example.com', 'k'.repeat(32), { 'x-forwarded-for': client })).status);
  t.same(statuses, [401, 429], 'a peer outside the trusted list is the client itself');
});

t.test('the client address: trusted hops and proxies are walked from the socket back through X-Forwarded-For', async (t) => {
  const req = (peer: string, forwarded?: string) =>
    ({ socket: { remoteAddress: peer }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as never;
  const chain = '192.0.2.1, 198.51.100.2, 10.0.0.3';
  t.equal(clientAddressResolver(undefined)(req('10.0.0.4', chain)), '10.0.0.4', 'nothing trusted: the peer');
  t.equal(clientAddressResolver(0)(req('10.0.0.4', chain)), '10.0.0.4');
  t.equal(clientAddressResolver(1)(req('10.0.0.4', chain)), '10.0.0.3', 'one hop: the last entry');
  t.equal(clientAddressResolver(2)(req('10.0.0.4', chain)), '198.51.100.2');
  t.equal(clientAddressResolver(9)(req('10.0.0.4', chain)), '192.0.2.1', 'more hops than entries: the first entry');
  t.equal(clientAddressResolver(1)(req('10.0.0.4')), '10.0.0.4', 'no header: the peer');
  t.equal(clientAddressResolver(['uniquelocal'])(req('10.0.0.4', chain)), '198.51.100.2', 'trusted proxies are passed until an untrusted address');
  t.equal(clientAddressResolver(['10.0.0.4'])(req('10.0.0.4', chain)), '10.0.0.3');
  t.equal(clientAddressResolver(['::1'])(req('::ffff:127.0.0.1', chain)), '::ffff:127.0.0.1', 'an untrusted peer is the client');
  t.equal(clientAddressResolver(['127.0.0.1'])(req('::ffff:127.0.0.1', '192.0.2.9')), '192.0.2.9', 'IPv4-mapped peers match IPv4 entries');
  t.equal(clientAddressResolver(3)(req('10.0.0.4', '192.0.2.1, not-an-ip, 10.0.0.3')), '10.0.0.3', 'an entry that is no IP address ends the walk');
  t.same(parseTrustProxy(' 2 '), 2);
  t.same(parseTrustProxy('10.0.0.1, 10.1.0.0/16,loopback'), ['10.0.0.1', '10.1.0.0/16', 'loopback']);
  const bad = "trustProxy: 'proxy.example.com' is not an IP address, a subnet (address/bits) or one of loopback, linklocal, uniquelocal";
  t.throws(() => parseTrustProxy('10.0.0.1,proxy.example.com'), { message: bad });
  t.throws(() => clientAddressResolver(['10.0.0.0/33']), { message: /'10\.0\.0\.0\/33' is not an IP address/ });
  t.throws(() => clientAddressResolver(-1), { message: 'trustProxy: a number of hops must be a non-negative integer, not -1' });
  t.throws(() => createChatServer(new Database(':memory:'), { trustProxy: ['proxy.example.com'] }), { message: bad }, 'createChatServer refuses a bad setting at once');
});
