// Bots and their owners: deactivating a user deactivates the bots they own (their keys stop at
// once, their queues go); DELETE /bots/{bot_id}; DELETE /users/{id} on a bot; POST
// /users/{user_id}/reactivate; POST /bots from a bot. Over HTTP and in-process.
import t, { type Test } from 'tap';
import { bad, bothFail } from './assertions.js';
import { startServer, type TestServer } from './helpers.js';
import { botOf } from './bot_helpers.js';

const DEACTIVATED = { status: 401, code: 'UNAUTHORIZED', msg: 'Account is deactivated' };
const NO_BOTS = bad('This endpoint does not accept bot requests.');

async function server(t: Test): Promise<TestServer> {
  const s = await startServer({ realm: { name: 'Acme', url: 'https://chat.acme.test' } });
  t.teardown(() => s.close());
  return s;
}

t.test("a deactivated owner's bots are deactivated: their keys answer 401 at once, they cannot post, subscribe or read", async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const member = await s.user('member');
  const bot = await botOf(s, member, 'helper');
  await s.request('POST', '/users/me/subscriptions', { as: member, params: { subscriptions: [{ name: 'secret' }], invite_only: true, principals: [member.user_id, bot.user_id] } });
  // The bot is a remembered caller before the deactivation.
  t.equal((await s.request('GET', '/users/me', { as: bot })).status, 200);
  const queue = await s.request('POST', '/register', { as: bot, params: { event_types: ['message'] } });
  t.equal(queue.status, 200);

  t.same((await s.request('DELETE', `/users/${member.user_id}`, { as: admin })).body, { result: 'success', msg: '' });

  const refused = async (method: string, path: string, params?: Record<string, unknown>) => {
    const reply = await s.request(method, path, { as: bot, params });
    t.same([reply.status, reply.body], [401, { result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' }], `${method} ${path}`);
  };
  await refused('GET', '/users/me');
  await refused('POST', '/messages', { type: 'stream', to: 'secret', topic: 'leak', content: 'still here' });
  await refused('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'elsewhere' }] });
  await refused('GET', '/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'secret' }] });
  await refused('POST', '/bots', { full_name: 'Another Bot', short_name: 'another' });
  await bothFail(t, () => s.request('GET', '/users/me', { as: bot }), () => s.chat.api.users.me(bot.user_id), DEACTIVATED);
  await bothFail(
    t,
    () => s.request('POST', '/messages', { as: bot, params: { type: 'stream', to: 'secret', topic: 'x', content: 'y' } }),
    () => s.chat.api.messages.send(bot.user_id, { type: 'stream', to: 'secret', topic: 'x', content: 'y' }),
    DEACTIVATED,
  );
  t.equal(s.db.prepare('SELECT count(*) FROM event_queue WHERE user_id = ?').pluck().get(bot.user_id), 0, "the bot's queues are gone");
  t.match(s.chat.api.users.get(admin.user_id, { userId: bot.user_id }).user, { is_active: false, bot_owner_id: member.user_id });
});

t.test('the trusted deactivation (chat.admin) deactivates the bots too, and returns the ids, bots first', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const [first, second] = [await botOf(s, member, 'one'), await botOf(s, member, 'two')];
  s.chat.api.users.deactivateBot(member.user_id, { botId: second.user_id });
  t.same(s.chat.admin.deactivateUser(member.user_id), [first.user_id, member.user_id], 'an already deactivated bot is left alone');
  t.same(s.chat.admin.deactivateUser(member.user_id), [], 'nothing for an account already deactivated');
  t.equal((await s.request('GET', '/users/me', { as: first })).status, 401);
});

t.test('POST /bots from a bot is "This endpoint does not accept bot requests."', async (t) => {
  const s = await server(t);
  const bot = await botOf(s, await s.user('member'), 'maker');
  await bothFail(
    t,
    () => s.request('POST', '/bots', { as: bot, params: { full_name: 'Child Bot', short_name: 'child' } }),
    () => s.chat.api.users.createBot(bot.user_id, { fullName: 'Child Bot', shortName: 'child' }),
    NO_BOTS,
  );
  t.equal(s.chat.api.users.list(s.owner.user_id).members.filter((u) => String(u.email).startsWith('child')).length, 0, 'no bot was made');
});

t.test("DELETE /bots/{bot_id}: the bot's owner or an administrator; others, unknown ids and humans are refused", async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const [owner, other] = [await s.user('member'), await s.user('member')];
  const [mine, theirs] = [await botOf(s, owner, 'mine'), await botOf(s, owner, 'theirs')];
  await bothFail(t, () => s.request('DELETE', `/bots/${mine.user_id}`, { as: other }), () => s.chat.api.users.deactivateBot(other.user_id, { botId: mine.user_id }), bad('Insufficient permission'));
  await bothFail(t, () => s.request('DELETE', '/bots/9999', { as: admin }), () => s.chat.api.users.deactivateBot(admin.user_id, { botId: 9999 }), bad('No such bot'));
  await bothFail(t, () => s.request('DELETE', `/bots/${other.user_id}`, { as: admin }), () => s.chat.api.users.deactivateBot(admin.user_id, { botId: other.user_id }), bad('No such bot'));
  t.same((await s.request('DELETE', `/bots/${mine.user_id}`, { as: owner })).body, { result: 'success', msg: '' }, 'by its owner');
  t.same(s.chat.api.users.deactivateBot(admin.user_id, { botId: theirs.user_id }), {}, 'by an administrator, in-process');
  t.same((await s.request('DELETE', `/bots/${mine.user_id}`, { as: admin })).body, { result: 'success', msg: '' }, 'again: nothing happens');
  for (const bot of [mine, theirs]) t.equal((await s.request('GET', '/users/me', { as: bot })).status, 401);
  t.equal((await s.request('GET', '/users/me', { as: owner })).status, 200, 'the owner stays');
});

t.test("DELETE /users/{user_id} on a bot: administrators and the bot's owner", async (t) => {
  const s = await server(t);
  const [owner, other] = [await s.user('member'), await s.user('member')];
  const bot = await botOf(s, owner, 'users');
  await bothFail(t, () => s.request('DELETE', `/users/${bot.user_id}`, { as: other }), () => s.chat.api.users.deactivate(other.user_id, { userId: bot.user_id }), bad('Insufficient permission'));
  t.same((await s.request('DELETE', `/users/${bot.user_id}`, { as: owner })).body, { result: 'success', msg: '' });
  await bothFail(t, () => s.request('DELETE', `/users/${bot.user_id}`, { as: s.owner }), () => s.chat.api.users.deactivate(s.owner.user_id, { userId: bot.user_id }), bad('User is deactivated'));
  t.equal((await s.request('GET', '/users/me', { as: bot })).status, 401);
});

t.test('POST /users/{user_id}/reactivate: administrators reactivate users; the old key works again, their bots stay deactivated', async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const member = await s.user('member');
  const bot = await botOf(s, member, 'sleeper');
  s.chat.api.users.deactivate(admin.user_id, { userId: member.user_id });
  await bothFail(t, () => s.request('POST', `/users/${member.user_id}/reactivate`, { as: bot }), () => s.chat.api.users.reactivate(bot.user_id, { userId: member.user_id }), DEACTIVATED);
  const another = await s.user('member');
  await bothFail(t, () => s.request('POST', `/users/${member.user_id}/reactivate`, { as: another }), () => s.chat.api.users.reactivate(another.user_id, { userId: member.user_id }), bad('Insufficient permission'));
  await bothFail(t, () => s.request('POST', '/users/9999/reactivate', { as: admin }), () => s.chat.api.users.reactivate(admin.user_id, { userId: 9999 }), bad('No such user'));
  t.same((await s.request('POST', `/users/${member.user_id}/reactivate`, { as: admin })).body, { result: 'success', msg: '' });
  t.equal((await s.request('GET', '/users/me', { as: member })).status, 200);
  t.equal((await s.request('GET', '/users/me', { as: bot })).status, 401, 'the bot stays deactivated');
  t.same(s.chat.api.users.reactivate(admin.user_id, { userId: member.user_id }), {}, 'an active user: nothing happens');
});

t.test("reactivating a bot: its owner may; a bot whose owner is deactivated passes to the reactivating administrator", async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const [owner, other] = [await s.user('member'), await s.user('member')];
  const [kept, orphan] = [await botOf(s, owner, 'kept'), await botOf(s, owner, 'orphan')];
  s.chat.api.users.deactivateBot(owner.user_id, { botId: kept.user_id });
  await bothFail(t, () => s.request('POST', `/users/${kept.user_id}/reactivate`, { as: other }), () => s.chat.api.users.reactivate(other.user_id, { userId: kept.user_id }), bad('Insufficient permission'));
  t.same((await s.request('POST', `/users/${kept.user_id}/reactivate`, { as: owner })).body, { result: 'success', msg: '' }, 'by its owner');
  t.equal((await s.request('GET', '/users/me', { as: kept })).status, 200);

  s.chat.admin.deactivateUser(owner.user_id);
  t.throws(() => s.chat.admin.reactivateUser(orphan.user_id), { code: 'BAD_REQUEST', message: `Cannot reactivate ${orphan.email}: its owner ${owner.email} is deactivated` }, 'not without someone to own it');
  t.same((await s.request('POST', `/users/${orphan.user_id}/reactivate`, { as: admin })).body, { result: 'success', msg: '' });
  t.match(s.chat.api.users.get(admin.user_id, { userId: orphan.user_id }).user, { is_active: true, bot_owner_id: admin.user_id });
  t.equal((await s.request('GET', '/users/me', { as: orphan })).status, 200);
});
