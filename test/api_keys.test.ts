// API key regeneration: POST /users/me/api_key/regenerate and POST /bots/{bot_id}/api_key/regenerate.
// The old key stops working at once, also for a caller the server remembers. Over HTTP and in-process.
import t, { type Test } from 'tap';
import { bad, bothFail } from './assertions.js';
import { basic, startServer, type TestServer, type TestUser } from './helpers.js';
import { botOf } from './bot_helpers.js';

async function server(t: Test): Promise<TestServer> {
  const s = await startServer({ realm: { name: 'Acme', url: 'https://chat.acme.test' } });
  t.teardown(() => s.close());
  return s;
}

const withKey = (user: TestUser, apiKey: string): TestUser => ({ ...user, api_key: apiKey, auth: basic(user.email, apiKey) });

t.test('POST /users/me/api_key/regenerate answers a new key; the old one is "Invalid API key" at once', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  t.equal((await s.request('GET', '/users/me', { as: member })).status, 200, 'remembered with the old key');
  const reply = await s.request('POST', '/users/me/api_key/regenerate', { as: member });
  t.equal(reply.status, 200);
  t.match(reply.body, { result: 'success', msg: '', api_key: /^[A-Za-z0-9]{32}$/ });
  t.same(Object.keys(reply.body).sort(), ['api_key', 'msg', 'result']);
  t.not(reply.body.api_key, member.api_key);
  const old = await s.request('GET', '/users/me', { as: member });
  t.same([old.status, old.body], [401, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }]);
  t.equal((await s.request('GET', '/users/me', { as: withKey(member, reply.body.api_key) })).status, 200, 'the new key works');
  const inProcess = s.chat.api.users.regenerateApiKey(member.user_id);
  t.match(inProcess, { api_key: /^[A-Za-z0-9]{32}$/ });
  t.equal((await s.request('GET', '/users/me', { as: withKey(member, reply.body.api_key) })).status, 401, 'replaced in-process too');
  t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 200, "another user's key is untouched");
});

t.test('POST /users/me/api_key/regenerate from a bot is "This endpoint does not accept bot requests."', async (t) => {
  const s = await server(t);
  const bot = await botOf(s, await s.user('member'), 'keyed');
  await bothFail(t, () => s.request('POST', '/users/me/api_key/regenerate', { as: bot }), () => s.chat.api.users.regenerateApiKey(bot.user_id), bad('This endpoint does not accept bot requests.'));
  t.equal((await s.request('GET', '/users/me', { as: bot })).status, 200, 'its key is unchanged');
});

t.test("POST /bots/{bot_id}/api_key/regenerate: the bot's owner or an administrator; the bot's old key stops", async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const owner = await s.user('member');
  const bot = await botOf(s, owner, 'rotated');
  t.equal((await s.request('GET', '/users/me', { as: bot })).status, 200);
  const reply = await s.request('POST', `/bots/${bot.user_id}/api_key/regenerate`, { as: owner });
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body).sort(), ['api_key', 'msg', 'result']);
  t.match(reply.body.api_key, /^[A-Za-z0-9]{32}$/);
  const old = await s.request('GET', '/users/me', { as: bot });
  t.same([old.status, old.body.msg], [401, 'Invalid API key'], 'the old key');
  t.equal((await s.request('GET', '/users/me', { as: withKey(bot, reply.body.api_key) })).status, 200, 'the new key');
  const byAdmin = s.chat.api.users.regenerateBotApiKey(admin.user_id, { botId: bot.user_id });
  t.not(byAdmin.api_key, reply.body.api_key, 'an administrator, in-process');
  t.equal((await s.request('GET', '/users/me', { as: withKey(bot, byAdmin.api_key) })).status, 200);
});

t.test('POST /bots/{bot_id}/api_key/regenerate refuses guests, bots, other members, unknown ids and humans', async (t) => {
  const s = await server(t);
  const owner = await s.user('member');
  const bot = await botOf(s, owner, 'guarded');
  const cases: [TestUser, number, ReturnType<typeof bad>][] = [
    [await s.user('guest'), bot.user_id, bad('Not allowed for guest users')],
    [bot, bot.user_id, bad('This endpoint does not accept bot requests.')],
    [await s.user('member'), bot.user_id, bad('Insufficient permission')],
    [s.owner, 9999, bad('No such bot')],
    [s.owner, owner.user_id, bad('No such bot')],
  ];
  for (const [as, botId, expected] of cases) {
    await bothFail(t, () => s.request('POST', `/bots/${botId}/api_key/regenerate`, { as }), () => s.chat.api.users.regenerateBotApiKey(as.user_id, { botId }), expected);
  }
  t.equal((await s.request('GET', '/users/me', { as: bot })).status, 200, 'the key is unchanged');
});

t.test('the trusted rotation (chat.admin.regenerateApiKey) replaces a user or bot key', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const key = s.chat.admin.regenerateApiKey(member.user_id);
  t.match(key, /^[A-Za-z0-9]{32}$/);
  t.equal((await s.request('GET', '/users/me', { as: member })).status, 401);
  t.equal((await s.request('GET', '/users/me', { as: withKey(member, key) })).status, 200);
  t.throws(() => s.chat.admin.regenerateApiKey(9999), { message: 'No such user' });
});
