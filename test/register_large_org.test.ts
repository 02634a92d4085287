// POST /register in a big organization: include_subscribers="partial" (Zulip's rule: full lists
// below MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE, else partial_subscribers with the bots and the users
// active in the last 14 days), the user_list_incomplete capability (from MIN_PARTIAL_USER_LIST_SIZE
// accounts on, realm_users holds the caller, bots, users active or joined in the last 14 days and
// recent direct-message correspondents), and a state read without the write lock.
import { join } from 'node:path';
import t from 'tap';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE } from '../lib/domain/subscribers.js';
import { MIN_PARTIAL_USER_LIST_SIZE } from '../lib/domain/users_state.js';
import { openTestDatabase, startServer, withAuth, type TestServer, type TestUser } from './helpers.js';

const DAY = 86_400_000;
let now = Date.UTC(2026, 0, 1);
const clock = () => now;

/** An organization with `size` accounts, all in the default channel "crowd", and a channel "small" of the owner's. */
async function bigOrganization(size: number): Promise<{ s: TestServer; members: TestUser[] }> {
  const s = await startServer({ clock });
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'crowd' }, { name: 'small' }] });
  const crowd = s.chat.api.streams.getId(s.owner.user_id, { stream: 'crowd' }).stream_id;
  t.equal((await s.request('POST', '/default_streams', { as: s.owner, params: { stream_id: crowd } })).status, 200);
  const added = await s.chat.admin.addUsers(Array.from({ length: size - 1 }, (_, i) => ({ email: `u${i}@example.com`, fullName: `User ${i}` })));
  return { s, members: added.map(withAuth) };
}

const register = async (s: TestServer, user: TestUser, params: Record<string, unknown>) => {
  const reply = await s.request('POST', '/register', { as: user, params });
  t.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 200));
  return reply.body;
};

const channel = (state: any, list: string, name: string) => state[list].find((sub: { name: string }) => sub.name === name);

t.test('include_subscribers="partial": a big channel lists its bots and recently active subscribers, a small one all', async (t) => {
  now = Date.UTC(2026, 0, 1);
  const { s, members } = await bigOrganization(MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE);
  t.teardown(() => s.close());
  const [active, quiet, me] = [members[0]!, members[1]!, members[2]!];
  const bot = await s.user('member', { bot: true });
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'crowd' }], principals: [bot.user_id] });
  now += 20 * DAY;
  t.equal((await s.request('POST', '/users/me/presence', { as: active, params: { status: 'active' } })).status, 200);
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'small' }], principals: [quiet.user_id] });

  const partial = await register(s, me, { fetch_event_types: ['subscription'], include_subscribers: '"partial"' });
  const crowd = channel(partial, 'subscriptions', 'crowd');
  t.same(crowd.partial_subscribers, [active.user_id, bot.user_id]);
  t.notOk('subscribers' in crowd);
  t.equal(crowd.subscriber_count, MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE + 1);
  t.same(channel(partial, 'never_subscribed', 'small').subscribers, [s.owner.user_id, quiet.user_id], 'a small channel: every subscriber');

  const full = await register(s, me, { fetch_event_types: ['subscription'], include_subscribers: true });
  t.equal(channel(full, 'subscriptions', 'crowd').subscribers.length, MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE + 1);
  t.notOk('partial_subscribers' in channel(full, 'subscriptions', 'crowd'));

  const listed = await s.request('GET', '/users/me/subscriptions', { as: me, params: { include_subscribers: '"partial"' } });
  t.same(channel(listed.body, 'subscriptions', 'crowd').partial_subscribers, [active.user_id, bot.user_id], 'GET /users/me/subscriptions too');
  t.same(
    s.chat.api.streams.listSubscriptions(me.user_id, { includeSubscribers: 'partial' }).subscriptions[0]!.partial_subscribers,
    [active.user_id, bot.user_id],
    'in-process too',
  );
});

t.test('user_list_incomplete in a big organization: the caller, bots, recently active or joined users, correspondents', async (t) => {
  now = Date.UTC(2026, 0, 1);
  const { s, members } = await bigOrganization(MIN_PARTIAL_USER_LIST_SIZE);
  t.teardown(() => s.close());
  const [active, correspondent, me, gone] = [members[0]!, members[1]!, members[2]!, members[3]!];
  now += 20 * DAY;
  const bot = await s.user('member', { bot: true });
  const newcomer = await s.user('member');
  await s.request('POST', '/users/me/presence', { as: active, params: { status: 'active' } });
  s.chat.api.messages.send(correspondent.user_id, { type: 'direct', to: [me.user_id], content: 'hi' });
  s.chat.admin.deactivateUser(gone.user_id);

  const incomplete = await register(s, me, { fetch_event_types: ['realm_user'], client_capabilities: { user_list_incomplete: true } });
  t.same(
    incomplete.realm_users.map((u: { user_id: number }) => u.user_id),
    [active.user_id, correspondent.user_id, me.user_id, bot.user_id, newcomer.user_id],
  );
  t.same(incomplete.realm_non_active_users, [], 'deactivated users that are none of these are left out too');
  t.match(incomplete.realm_users[2], { user_id: me.user_id, delivery_email: me.email }, 'the caller sees their own email');

  const complete = await register(s, me, { fetch_event_types: ['realm_user'] });
  t.equal(complete.realm_users.length, MIN_PARTIAL_USER_LIST_SIZE + 1, 'without the capability: everyone');
  t.same(
    complete.realm_non_active_users.map((u: { user_id: number }) => u.user_id),
    [gone.user_id],
  );
  const user = await s.request('GET', `/users/${members[500]!.user_id}`, { as: me });
  t.equal(user.body.user.user_id, members[500]!.user_id, 'any other user is one GET /users/{id} away');
});

t.test('user_list_incomplete in a small organization: everyone, as Zulip sends to clients that may see all users', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const body = await register(s, member, { fetch_event_types: ['realm_user'], client_capabilities: { user_list_incomplete: true } });
  t.same(
    body.realm_users.map((u: { user_id: number }) => u.user_id),
    [s.owner.user_id, member.user_id],
  );
});

t.test('the state is read without the write lock: another connection writes meanwhile, and its change comes as an event', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const file = join(s.dir, 'chat.db');
  const other = createChatServer(openTestDatabase(file), { logger: silentLogger, busyTimeoutMs: 0 });
  t.teardown(() => other.close());
  let armed = false;
  const reader = createChatServer(openTestDatabase(file), {
    logger: silentLogger,
    clock: () => {
      // Called while the state is read (presence, here): the other connection renames the member.
      if (armed) {
        armed = false;
        other.api.users.update(s.owner.user_id, { userId: member.user_id, fullName: 'Renamed Meanwhile' });
      }
      return Date.now();
    },
  });
  t.teardown(() => reader.close());
  const name = s.db.prepare('SELECT full_name FROM user WHERE id = ?').pluck().get(member.user_id);
  armed = true;
  const state = reader.api.events.register(s.owner.user_id, { eventTypes: ['realm_user'], fetchEventTypes: ['realm_user', 'presence'] }) as any;
  t.notOk(armed, 'the other connection wrote during the register');
  t.equal(state.realm_users.find((u: { user_id: number }) => u.user_id === member.user_id).full_name, name, 'the state is the snapshot');
  const polled = (await reader.api.events.get(s.owner.user_id, { queueId: state.queue_id, lastEventId: state.last_event_id, dontBlock: true })) as any;
  t.same(
    polled.events.map((e: any) => [e.type, e.op, e.person]),
    [['realm_user', 'update', { user_id: member.user_id, full_name: 'Renamed Meanwhile' }]],
  );
});
