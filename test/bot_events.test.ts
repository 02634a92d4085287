// realm_bot events (add, update, delete) and the realm_bots state of POST /register: each event
// matches its schema, and applying the events of bot creation, renaming, key regeneration,
// deactivation (also through the owner's), reactivation and a change of owner to the state before
// gives the state after, for an administrator (every bot) and for a bot's owner (their own bots).
import t from 'tap';
import { z } from 'zod';
import { startServer } from './helpers.js';
import { botOf } from './bot_helpers.js';
import { applyUserEvent, byId, registerState, type State } from './user_events.js';

const botDict = z
  .object({
    email: z.string(),
    user_id: z.int(),
    full_name: z.string(),
    bot_type: z.int(),
    is_active: z.boolean(),
    api_key: z.string().regex(/^[A-Za-z0-9]{32}$/),
    default_sending_stream: z.null(),
    default_events_register_stream: z.null(),
    default_all_public_streams: z.boolean(),
    owner_id: z.int().nullable(),
    avatar_url: z.string().url(),
    services: z.array(z.object({ base_url: z.string(), interface: z.int(), token: z.string().regex(/^[A-Za-z0-9]{32}$/) }).strict()),
  })
  .strict();
const realmBotEvent = z.discriminatedUnion('op', [
  z.object({ type: z.literal('realm_bot'), op: z.literal('add'), id: z.int(), bot: botDict }).strict(),
  z.object({ type: z.literal('realm_bot'), op: z.literal('delete'), id: z.int(), bot: z.object({ user_id: z.int() }).strict() }).strict(),
  z
    .object({
      type: z.literal('realm_bot'),
      op: z.literal('update'),
      id: z.int(),
      bot: z.union([
        z.object({ user_id: z.int(), is_active: z.boolean() }).strict(),
        z.object({ user_id: z.int(), api_key: z.string() }).strict(),
        z.object({ user_id: z.int(), full_name: z.string() }).strict(),
        z.object({ user_id: z.int(), owner_id: z.int() }).strict(),
      ]),
    })
    .strict(),
]);

const sorted = (state: State) => ({
  ...state,
  realm_users: byId(state.realm_users),
  realm_non_active_users: byId(state.realm_non_active_users),
  realm_bots: byId(state.realm_bots),
});

t.test('realm_bot events match their schemas, and applying them to the state before equals the state after', async (t) => {
  const s = await startServer({ realm: { name: 'Acme', url: 'https://chat.acme.test' } });
  t.teardown(() => s.close());
  const admin = await s.user('admin');
  const [owner, other] = [await s.user('member'), await s.user('member')];
  const types = ['realm_user', 'realm_bot'];
  const watchers = [admin, owner, other];
  const before = await Promise.all(watchers.map((user) => registerState(s, user, types)));
  t.same(before[1]!.state.realm_bots, [], 'a member without bots has none');

  const first = await botOf(s, owner, 'first');
  const second = await botOf(s, owner, 'second');
  await s.request('PATCH', `/users/${first.user_id}`, { as: owner, params: { full_name: 'First Renamed' } });
  await s.request('POST', `/bots/${first.user_id}/api_key/regenerate`, { as: owner });
  await s.request('DELETE', `/bots/${first.user_id}`, { as: admin });
  await s.request('POST', `/users/${first.user_id}/reactivate`, { as: owner });
  await s.request('DELETE', `/users/${owner.user_id}`, { as: admin });
  await s.request('POST', `/users/${second.user_id}/reactivate`, { as: admin });
  await botOf(s, other, 'third');

  for (const [i, user] of watchers.entries()) {
    if (user === owner) continue; // deactivated: its queue is gone
    const { queueId, lastEventId, state: fetched } = before[i]!;
    const polled = await s.request('GET', '/events', { as: user, params: { queue_id: queueId, last_event_id: lastEventId, dont_block: true } });
    t.equal(polled.status, 200);
    const events = polled.body.events as any[];
    for (const event of events.filter((e) => e.type === 'realm_bot')) {
      const parsed = realmBotEvent.safeParse(event);
      t.ok(parsed.success, `${event.op} ${JSON.stringify(event.bot).slice(0, 60)}: ${JSON.stringify(parsed.error?.issues ?? '')}`);
    }
    const state = structuredClone(fetched);
    for (const event of events) applyUserEvent(state, event, user.user_id);
    const after = (await registerState(s, user, types)).state;
    t.same(sorted(state), sorted(after), `the state of user ${user.user_id}`);
  }
  const adminBots = (await registerState(s, admin, types)).state.realm_bots;
  t.match(byId(adminBots), [
    { email: first.email, is_active: false, owner_id: owner.user_id, full_name: 'First Renamed' },
    { email: second.email, is_active: true, owner_id: admin.user_id },
    { email: /^third-bot@/, is_active: true, owner_id: other.user_id },
  ]);
});
