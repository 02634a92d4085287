// Authentication: HTTP Basic `email:api_key` on every endpoint but the public ones
// (Zulip's validate_api_key), POST /fetch_api_key, and the same account rules in-process.
import t, { type Test } from 'tap';
import { ApiError } from '../lib/index.js';
import { authenticate, rememberedEmails } from '../lib/domain/callers.js';
import { throwsApiError } from './assertions.js';
import { join } from 'node:path';
import { basic, openTestDatabase, sendRequest, startServer, withAuth, type Reply, type TestServer } from './helpers.js';
import { contextOf } from '../lib/context.js';

const WWW = 'Basic realm="zulip"';

function me(s: TestServer, authorization?: string): Promise<Reply> {
  return sendRequest(s.url, 'GET', '/users/me', { headers: authorization === undefined ? {} : { authorization } });
}

function isUnauthorized(t: Test, reply: Reply, msg: string): void {
  t.equal(reply.status, 401, msg);
  t.same(reply.body, { result: 'error', msg, code: 'UNAUTHORIZED' });
  t.equal(reply.headers.get('www-authenticate'), WWW);
}

t.test('a missing Authorization header is 401 "Missing authorization header for basic auth"', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  isUnauthorized(t, await me(s), 'Missing authorization header for basic auth');
});

t.test('a scheme other than Basic is a plain 400', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const reply = await me(s, `Bearer ${s.owner.api_key}`);
  t.equal(reply.status, 400);
  t.same(reply.body, { result: 'error', msg: 'This endpoint requires HTTP basic authentication.', code: 'BAD_REQUEST' });
  t.equal(reply.headers.get('www-authenticate'), null);
});

t.test('a header that does not decode to email:key is "Invalid authorization header for basic auth"', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const msg = 'Invalid authorization header for basic auth';
  isUnauthorized(t, await me(s, 'Basic !!!not-base64!!!'), msg);
  isUnauthorized(t, await me(s, 'Basic ' + Buffer.from('no-colon-here').toString('base64')), msg);
  isUnauthorized(t, await me(s, 'Basic'), msg);
});

t.test('a key that is not 32 alphanumeric characters is "Malformed API key"', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  isUnauthorized(t, await me(s, basic(s.owner.email, 'short')), 'Malformed API key');
  isUnauthorized(t, await me(s, basic(s.owner.email, s.owner.api_key.slice(0, 31) + '-')), 'Malformed API key');
  isUnauthorized(t, await me(s, basic(s.owner.email, s.owner.api_key + 'x')), 'Malformed API key');
});

t.test('a wrong key, an unknown email, or another user\'s key with my email is "Invalid API key"', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const wrong = s.owner.api_key.startsWith('a') ? 'b'.repeat(32) : 'a'.repeat(32);
  isUnauthorized(t, await me(s, basic(s.owner.email, wrong)), 'Invalid API key');
  isUnauthorized(t, await me(s, basic('nobody@example.com', s.owner.api_key)), 'Invalid API key');
  isUnauthorized(t, await me(s, basic(s.owner.email, member.api_key)), 'Invalid API key');
  isUnauthorized(t, await me(s, basic(member.email, s.owner.api_key)), 'Invalid API key');
});

t.test('a deactivated account is "Account is deactivated"', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  t.equal((await me(s, member.auth)).status, 200);
  s.chat.admin.deactivateUser(member.user_id);
  isUnauthorized(t, await me(s, member.auth), 'Account is deactivated');
  const wrong = member.api_key.startsWith('a') ? 'b'.repeat(32) : 'a'.repeat(32);
  isUnauthorized(t, await me(s, basic(member.email, wrong)), 'Invalid API key');
});

t.test('bots authenticate like users', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const bot = await s.user('member', { bot: true });
  const reply = await me(s, bot.auth);
  t.equal(reply.status, 200);
  t.match(reply.body, { result: 'success', user_id: bot.user_id, is_bot: true, bot_type: 1 });
});

t.test('incoming-webhook bots are refused on the normal API, over HTTP and in-process', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const created = await s.request('POST', '/bots', { as: s.owner, params: { full_name: 'Hook', short_name: 'hook', bot_type: 2 } });
  t.equal(created.status, 200);
  const hook = withAuth(created.body as { email: string; api_key: string; user_id: number });
  isUnauthorized(t, await me(s, hook.auth), 'This API is not available to incoming webhook bots.');
  const refused = { status: 401, code: 'UNAUTHORIZED', msg: 'This API is not available to incoming webhook bots.' };
  await throwsApiError(t, () => s.chat.api.users.me(hook.user_id), refused);
  await throwsApiError(t, () => s.chat.api.users.me({ id: hook.user_id }), refused);
});

t.test('incoming-webhook bots may send messages (Zulip: allow_incoming_webhooks on POST /messages), over HTTP and in-process', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const created = await s.request('POST', '/bots', { as: s.owner, params: { full_name: 'Alerts', short_name: 'alerts', bot_type: 2 } });
  const hook = withAuth(created.body as { email: string; api_key: string; user_id: number });
  const subscribed = await s.request('POST', '/users/me/subscriptions', { as: s.owner, params: { subscriptions: [{ name: 'ops' }] } });
  t.equal(subscribed.status, 200);
  const sent = await s.request('POST', '/messages', { as: hook, params: { type: 'stream', to: 'ops', topic: 'alerts', content: 'disk full' } });
  t.equal(sent.status, 200, 'HTTP');
  t.type(sent.body.id, 'number');
  const inProcess = s.chat.api.messages.send(hook.user_id, { type: 'stream', to: 'ops', topic: 'alerts', content: 'disk ok' });
  t.type(inProcess.id, 'number', 'in-process');
  const read = await s.request('GET', '/messages', { as: hook, params: { anchor: 'newest', num_before: 1, num_after: 0 } });
  isUnauthorized(t, read, 'This API is not available to incoming webhook bots.');
});

t.test('the email is matched case-insensitively', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const reply = await me(s, basic('OWNER@Example.COM', s.owner.api_key));
  t.equal(reply.status, 200);
  t.equal(reply.body.user_id, s.owner.user_id);
});

t.test('whitespace around the email and the key is stripped', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const reply = await me(s, basic(`  ${s.owner.email}\t`, ` ${s.owner.api_key}  `));
  t.equal(reply.status, 200);
  t.equal(reply.body.user_id, s.owner.user_id);
});

t.test('POST /fetch_api_key exchanges email and password for the API key, without auth', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const reply = await s.request('POST', '/fetch_api_key', { params: { username: 'owner@example.com', password: 'owner-password' } });
  t.equal(reply.status, 200);
  t.same(reply.body, { result: 'success', msg: '', api_key: s.owner.api_key, email: s.owner.email, user_id: s.owner.user_id });
  const upper = await s.request('POST', '/fetch_api_key', { params: { username: ' OWNER@example.com ', password: 'owner-password' } });
  t.equal(upper.status, 200, 'the username is case-insensitive and stripped');
  t.equal(upper.body.api_key, s.owner.api_key);
  const multipart = await s.request('POST', '/fetch_api_key', { encoding: 'multipart', params: { username: s.owner.email, password: 'owner-password' } });
  t.equal(multipart.body.api_key, s.owner.api_key);
});

t.test('POST /fetch_api_key with a wrong password, an unknown user or no password is AUTHENTICATION_FAILED', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const failed = { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' };
  const bot = await s.user('member', { bot: true });
  for (const params of [
    { username: s.owner.email, password: 'wrong' },
    { username: 'nobody@example.com', password: 'owner-password' },
    { username: s.owner.email, password: '' },
    { username: bot.email, password: '' },
  ]) {
    const reply = await s.request('POST', '/fetch_api_key', { params });
    t.equal(reply.status, 401, JSON.stringify(params));
    t.same(reply.body, failed);
  }
  const missing = await s.request('POST', '/fetch_api_key', { params: { username: s.owner.email } });
  t.equal(missing.status, 400);
  t.same(missing.body, { result: 'error', msg: "Missing 'password' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' });
});

t.test('POST /fetch_api_key for a deactivated account is USER_DEACTIVATED', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member', { password: 'member-password' });
  s.chat.admin.deactivateUser(member.user_id);
  const reply = await s.request('POST', '/fetch_api_key', { params: { username: member.email, password: 'member-password' } });
  t.equal(reply.status, 401);
  t.same(reply.body, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
});

t.test('POST /fetch_api_key ignores credentials in the Authorization header', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const reply = await s.request('POST', '/fetch_api_key', {
    headers: { authorization: basic('x@example.com', 'bad') },
    params: { username: s.owner.email, password: 'owner-password' },
  });
  t.equal(reply.status, 200);
  t.equal(reply.body.api_key, s.owner.api_key);
});

t.test('GET /server_settings needs no authentication', async (t) => {
  const s = await startServer({ realm: { name: 'Acme', url: 'https://chat.acme.test/' } });
  t.teardown(() => s.close());
  const reply = await s.request('GET', '/server_settings');
  t.equal(reply.status, 200);
  t.match(reply.body, {
    result: 'success',
    msg: '',
    zulip_version: String,
    zulip_feature_level: 478,
    zulip_merge_base: String,
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_name: 'Acme',
    realm_url: 'https://chat.acme.test',
    realm_uri: 'https://chat.acme.test',
    realm_web_public_access_enabled: false,
    external_authentication_methods: [],
  });
  t.same(Object.keys(reply.body.authentication_methods).sort(), [
    'apple', 'azuread', 'dev', 'email', 'github', 'gitlab', 'google', 'ldap', 'openid connect', 'password', 'remoteuser', 'saml',
  ]);
  t.equal(reply.body.authentication_methods.password, true);
  const withBadAuth = await s.request('GET', '/server_settings', { headers: { authorization: 'Basic garbage' } });
  t.equal(withBadAuth.status, 200, 'a bad header does not matter');
  t.equal(s.chat.api.server.settings(null).zulip_feature_level, 478, 'in-process, without an actor');
});

t.test('in-process: the caller by id is refused when unknown and deactivated users with the same errors', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  t.equal(s.chat.api.users.me(member.user_id).user_id, member.user_id);
  t.equal(s.chat.api.users.me({ id: member.user_id }).user_id, member.user_id, 'an object with an id works too');
  s.chat.admin.deactivateUser(member.user_id);
  const deactivated = (() => {
    try {
      s.chat.api.users.me(member.user_id);
    } catch (error) {
      return error;
    }
  })();
  t.ok(deactivated instanceof ApiError);
  t.match(deactivated, { code: 'UNAUTHORIZED', message: 'Account is deactivated', status: 401 });
  t.throws(() => s.chat.api.users.me(9999), { code: 'UNAUTHORIZED', message: 'Invalid API key' });
  t.throws(() => s.chat.api.users.me(null), { code: 'UNAUTHORIZED', message: 'Invalid API key' });
  const key = await s.chat.api.server.fetchApiKey(null, { username: s.owner.email, password: 'owner-password' });
  t.equal(key.api_key, s.owner.api_key, 'public endpoints take a null actor');
});

t.test('callers are remembered between requests, and every change to a user row is seen at once, whoever makes it', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  t.equal((await me(s, member.auth)).status, 200, 'the first request reads the row; later ones remember it');

  // Through the API of this process.
  const renamed = await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { full_name: 'Renamed Here' } });
  t.equal(renamed.status, 200);
  t.equal((await me(s, member.auth)).body.full_name, 'Renamed Here');
  t.equal(s.chat.api.users.me(member.user_id).full_name, 'Renamed Here', 'in-process too');

  // Through another connection to the same file (another process, as far as SQLite is concerned).
  const other = openTestDatabase(join(s.dir, 'chat.db'));
  t.teardown(() => other.close());
  other.prepare('UPDATE user SET full_name = ? WHERE id = ?').run('Renamed Elsewhere', member.user_id);
  t.equal((await me(s, member.auth)).body.full_name, 'Renamed Elsewhere');
  t.equal(s.chat.api.users.me(member.user_id).full_name, 'Renamed Elsewhere', 'in-process too');

  const newKey = 'N'.repeat(32);
  other.prepare('UPDATE user SET api_key = ? WHERE id = ?').run(newKey, member.user_id);
  isUnauthorized(t, await me(s, member.auth), 'Invalid API key');
  t.equal((await me(s, basic(member.email, newKey))).status, 200, 'the new key works at once');

  other.prepare('UPDATE user SET is_active = 0 WHERE id = ?').run(member.user_id);
  isUnauthorized(t, await me(s, basic(member.email, newKey)), 'Account is deactivated');
  t.throws(() => s.chat.api.users.me(member.user_id), { code: 'UNAUTHORIZED', message: 'Account is deactivated' });

  other.prepare('UPDATE user SET is_active = 1, role = 200 WHERE id = ?').run(member.user_id);
  const promoted = await me(s, basic(member.email, newKey));
  t.same([promoted.status, promoted.body.role, promoted.body.is_admin], [200, 200, true], 'a new role applies to the next request');
});

t.test('a user row read inside a transaction that rolls back is not remembered', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const before = s.chat.api.users.me(member.user_id).full_name;
  t.throws(() =>
    contextOf(s.chat).tx(() => {
      contextOf(s.chat).db.prepare('UPDATE user SET full_name = ? WHERE id = ?').run('Never Committed', member.user_id);
      t.equal(s.chat.api.users.me(member.user_id).full_name, 'Never Committed', 'the transaction sees its own change');
      throw new Error('roll back');
    }),
  );
  // Another committed change brings the counter back to the value it had inside the transaction.
  contextOf(s.chat).db.prepare('UPDATE user SET timezone = ? WHERE id = ?').run('Europe/Paris', member.user_id);
  const after = s.chat.api.users.me(member.user_id);
  t.same([after.full_name, after.timezone], [before, 'Europe/Paris']);
});

t.test('a long Authorization header is decoded every time, with the same answers', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const padded = basic(s.owner.email, s.owner.api_key + ' '.repeat(600));
  t.ok(padded.length > 512, 'longer than the headers whose decoding is remembered');
  for (let i = 0; i < 2; i++) t.equal((await me(s, padded)).status, 200);
  isUnauthorized(t, await me(s, basic(s.owner.email, 'x'.repeat(32) + ' '.repeat(600))), 'Invalid API key');
  isUnauthorized(t, await me(s, 'Basic ' + 'A'.repeat(600)), 'Invalid authorization header for basic auth');
});

t.test('remembered callers stay bounded, even for one email under thousands of spellings', async (t) => {
  const s = await startServer({ file: false });
  t.teardown(() => s.close());
  const email = s.owner.email; // owner@example.com: 15 letters, 32,768 spellings
  const letters = [...email].flatMap((c, i) => (/[a-z]/.test(c) ? [i] : []));
  const spelling = (mask: number): string => {
    const chars = [...email];
    letters.forEach((at, bit) => {
      if ((mask >> bit) & 1) chars[at] = chars[at]!.toUpperCase();
    });
    return chars.join('');
  };
  let wrong = 0;
  let largest = 0;
  for (let mask = 0; mask < 10_500; mask++) {
    if (authenticate(contextOf(s.chat), { kind: 'apiKey', email: spelling(mask), apiKey: s.owner.api_key }, {}).actor.id !== s.owner.user_id) wrong += 1;
    largest = Math.max(largest, rememberedEmails(contextOf(s.chat)));
  }
  t.equal(wrong, 0, 'every spelling authenticates (emails match case-insensitively)');
  t.equal(largest, 10_000, 'never more than 10,000 remembered');
  t.ok(rememberedEmails(contextOf(s.chat)) < 10_000, 'emptied once full');
});
