// The web client's session (issue 27): POST /sessions signs in with an email and password and sets
// an HttpOnly, SameSite=Strict cookie holding a random token (stored hashed), which every route
// accepts as a way in; GET /sessions lists them, DELETE /sessions/{id} and /sessions/current end
// them, deactivation ends them all. A state-changing request from another origin is refused.
import t, { type Test } from 'tap';
import { isError } from './assertions.js';
import { startServer, type TestServer } from './helpers.js';
import { signIn, withCookie } from './session_helpers.js';
import { manualTime } from './manual_time.js';

async function server(t: Test, options: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  const s = await startServer(options);
  t.teardown(() => s.close());
  return s;
}

const NOT_LOGGED_IN = { status: 401, code: 'UNAUTHORIZED', msg: 'Missing authorization header for basic auth' };

t.test('POST /sessions answers the account without its API key and sets an HttpOnly, SameSite=Strict cookie', async (t) => {
  const s = await server(t);
  const { reply, setCookie, cookie } = await signIn(s, 'owner@example.com', 'owner-password', { 'user-agent': 'Firefox/140.0' });
  t.same(Object.keys(reply.body).sort(), ['email', 'msg', 'result', 'session_id', 'user_id']);
  t.match(reply.body, { result: 'success', user_id: s.owner.user_id, email: 'owner@example.com', session_id: Number });
  t.match(setCookie, /^parley_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Strict$/, 'two weeks, not Secure over http');
  t.notOk(JSON.stringify(reply.body).includes(s.owner.api_key), 'the API key is not in the answer');
  const token = cookie.split('=')[1]!;
  const stored = s.db.prepare('SELECT count(*) AS n FROM web_session WHERE instr(CAST(token_hash AS TEXT), ?) > 0').get(token) as { n: number };
  t.equal(stored.n, 0, 'the token itself is not stored');
  const me = await s.request('GET', '/users/me', { headers: withCookie(cookie) });
  t.same([me.status, me.body.user_id, me.body.email], [200, s.owner.user_id, 'owner@example.com'], 'the cookie is a way in');
});

t.test('over https the cookie is Secure', async (t) => {
  const s = await server(t, { realm: { url: 'https://chat.example.com' } });
  const { setCookie } = await signIn(s, 'owner@example.com', 'owner-password');
  t.match(setCookie, /; HttpOnly; SameSite=Strict; Secure$/);
});

t.test('POST /sessions with a wrong password or a deactivated account: Zulip answers, no cookie', async (t) => {
  const s = await server(t);
  const wrong = await s.request('POST', '/sessions', { params: { username: 'owner@example.com', password: 'nope' } });
  isError(t, wrong, { status: 401, code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' });
  t.equal(wrong.headers.get('set-cookie'), null);
  const gone = await s.user('member', { password: 'member-password' });
  s.chat.admin.deactivateUser(gone.user_id);
  const deactivated = await s.request('POST', '/sessions', { params: { username: gone.email, password: 'member-password' } });
  isError(t, deactivated, { status: 401, code: 'USER_DEACTIVATED', msg: 'Account is deactivated' });
  t.equal(deactivated.headers.get('set-cookie'), null);
});

t.test('a state-changing request with the cookie from another origin is 403 CSRF_FAILED; from the same origin it passes', async (t) => {
  const s = await server(t);
  const { cookie } = await signIn(s, 'owner@example.com', 'owner-password');
  const status = (headers: Record<string, string>) => s.request('PATCH', '/settings', { params: { full_name: 'Olivia' }, headers: { cookie, ...headers } });
  const csrf = { status: 403, code: 'CSRF_FAILED', msg: 'CSRF error: the request came from another site' };
  isError(t, await status({ 'sec-fetch-site': 'cross-site' }), csrf, 'another site');
  isError(t, await status({ 'sec-fetch-site': 'same-site' }), csrf, 'a sibling subdomain');
  isError(t, await status({ origin: 'https://evil.example' }), csrf, 'an Origin of another host');
  t.equal((await status({ 'sec-fetch-site': 'same-origin' })).status, 200, 'same origin');
  t.equal((await status({ origin: 'http://localhost:9991' })).status, 200, "the organization URL's origin");
  t.equal((await status({})).status, 200, 'no browser header at all: not a page of another site');
  t.equal((await s.request('GET', '/users/me', { headers: { cookie, 'sec-fetch-site': 'cross-site' } })).status, 200, 'reads are not refused');
});

t.test('POST /sessions from another origin is refused (login CSRF)', async (t) => {
  const s = await server(t);
  const reply = await s.request('POST', '/sessions', { params: { username: 'owner@example.com', password: 'owner-password' }, headers: { 'sec-fetch-site': 'cross-site' } });
  isError(t, reply, { status: 403, code: 'CSRF_FAILED', msg: 'CSRF error: the request came from another site' });
  t.equal(reply.headers.get('set-cookie'), null);
});

t.test('DELETE /sessions/current signs out: the cookie is cleared and no longer works', async (t) => {
  const s = await server(t);
  const { cookie } = await signIn(s, 'owner@example.com', 'owner-password');
  const out = await s.request('DELETE', '/sessions/current', { headers: withCookie(cookie) });
  t.same([out.status, out.body], [200, { result: 'success', msg: '' }]);
  t.match(out.headers.get('set-cookie'), /^parley_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict$/);
  isError(t, await s.request('GET', '/users/me', { headers: withCookie(cookie) }), NOT_LOGGED_IN);
  t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 200, 'the API key is untouched');
});

t.test('GET /sessions lists the caller\'s sessions; DELETE /sessions/{id} ends one; others\' and unknown ids are "No such session"', async (t) => {
  const s = await server(t);
  const first = await signIn(s, 'owner@example.com', 'owner-password', { 'user-agent': 'Firefox/140.0' });
  const second = await signIn(s, 'owner@example.com', 'owner-password', { 'user-agent': 'Chrome/141.0' });
  const member = await s.user('member', { password: 'member-password' });
  const theirs = await signIn(s, member.email, 'member-password');
  const list = await s.request('GET', '/sessions', { headers: withCookie(second.cookie) });
  t.equal(list.status, 200);
  t.same(
    list.body.sessions.map((x: { user_agent: string; current: boolean }) => [x.user_agent, x.current]),
    [['Firefox/140.0', false], ['Chrome/141.0', true]],
  );
  t.match(list.body.sessions[0], { id: first.reply.body.session_id, created: Number, last_used: Number, expires: Number });
  t.same((await s.request('GET', '/sessions', { as: s.owner })).body.sessions.map((x: { current: boolean }) => x.current), [false, false], 'with the API key: none is current');
  const end = await s.request('DELETE', `/sessions/${first.reply.body.session_id}`, { headers: withCookie(second.cookie) });
  t.same([end.status, end.body], [200, { result: 'success', msg: '' }]);
  isError(t, await s.request('GET', '/users/me', { headers: withCookie(first.cookie) }), NOT_LOGGED_IN, 'the ended session');
  t.equal((await s.request('GET', '/users/me', { headers: withCookie(second.cookie) })).status, 200, 'the other one goes on');
  isError(t, await s.request('DELETE', `/sessions/${theirs.reply.body.session_id}`, { as: s.owner }), { status: 400, code: 'BAD_REQUEST', msg: 'No such session' });
  isError(t, await s.request('DELETE', '/sessions/999999', { as: s.owner }), { status: 400, code: 'BAD_REQUEST', msg: 'No such session' });
  t.equal((await s.request('GET', '/users/me', { headers: withCookie(theirs.cookie) })).status, 200, "another user's session is untouched");
});

t.test("deactivating an account ends its sessions; a session is refused as the account's key would be", async (t) => {
  const s = await server(t);
  const member = await s.user('member', { password: 'member-password' });
  const { cookie } = await signIn(s, member.email, 'member-password');
  t.equal((await s.request('GET', '/users/me', { headers: withCookie(cookie) })).status, 200);
  s.chat.admin.deactivateUser(member.user_id);
  isError(t, await s.request('GET', '/users/me', { headers: withCookie(cookie) }), NOT_LOGGED_IN);
  t.equal((s.db.prepare('SELECT count(*) AS n FROM web_session WHERE user_id = ?').get(member.user_id) as { n: number }).n, 0);
});

t.test('a session expires after two weeks', async (t) => {
  const time = manualTime();
  const s = await server(t, { clock: time.clock, timers: time.timers });
  const { cookie } = await signIn(s, 'owner@example.com', 'owner-password');
  time.advance(14 * 24 * 3600 * 1000 - 1000);
  t.equal((await s.request('GET', '/users/me', { headers: withCookie(cookie) })).status, 200, 'a second before');
  time.advance(1000);
  isError(t, await s.request('GET', '/users/me', { headers: withCookie(cookie) }), NOT_LOGGED_IN, 'at two weeks');
});

t.test('an explicit Authorization header wins over the cookie; a forged cookie is no credential', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const { cookie } = await signIn(s, 'owner@example.com', 'owner-password');
  const both = await s.request('GET', '/users/me', { as: member, headers: { cookie } });
  t.equal(both.body.user_id, member.user_id);
  isError(t, await s.request('GET', '/users/me', { headers: withCookie('parley_session=' + 'A'.repeat(43)) }), NOT_LOGGED_IN);
  isError(t, await s.request('GET', '/users/me', { headers: withCookie('parley_session="quoted"; other=1') }), NOT_LOGGED_IN);
});

t.test('a session caller is rate limited as the user, like the API key', async (t) => {
  const s = await server(t, { rateLimit: { requestsPerMinute: 3 } });
  const { cookie } = await signIn(s, 'owner@example.com', 'owner-password');
  for (let i = 0; i < 2; i += 1) t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 200);
  const third = await s.request('GET', '/users/me', { headers: withCookie(cookie) });
  t.equal(third.status, 200);
  t.equal(third.headers.get('x-ratelimit-remaining'), '0', 'one bucket for the user, whichever way in');
  t.equal((await s.request('GET', '/users/me', { headers: withCookie(cookie) })).status, 429);
});

t.test("the public account routes refuse another site's page too (emails sent, addresses confirmed at its bidding)", async (t) => {
  const s = await server(t);
  const csrf = { status: 403, code: 'CSRF_FAILED', msg: 'CSRF error: the request came from another site' };
  const crossSite = { 'sec-fetch-site': 'cross-site' };
  isError(t, await s.request('POST', '/accounts/signup', { params: { email: 'x@example.com' }, headers: crossSite }), csrf, 'sign-up');
  isError(t, await s.request('POST', '/accounts/password/reset', { params: { email: 'x@example.com' }, headers: crossSite }), csrf, 'password reset');
  isError(t, await s.request('POST', '/accounts/email/confirm', { params: { key: 'k' }, headers: crossSite }), csrf, 'email confirmation');
  isError(t, await s.request('POST', '/accounts/register', { params: { key: 'k', full_name: 'X Y', password: 'long-enough' }, headers: crossSite }), csrf, 'registration');
  isError(t, await s.request('POST', '/accounts/password/set', { params: { key: 'k', new_password: 'long-enough' }, headers: crossSite }), csrf, 'new password');
});
