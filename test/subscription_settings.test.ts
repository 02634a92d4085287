// A user's channel settings and the organization's default channels, over HTTP and in-process:
// POST /users/me/subscriptions/properties, GET/POST/DELETE /default_streams (and new users joining
// them), POST /mark_stream_as_read, POST /mark_topic_as_read; their events and /register state.
import t from 'tap';
import { channelSuite, INVALID, NOT_ADMIN } from './channel_helpers.js';
import { startServer, type TestUser } from './helpers.js';
import { bad, bothFail, flagBits, isError, ok, poll, register, sendToStream, subscribe } from './messaging_helpers.js';
import { eventsApply } from './messaging_events.js';

const { s, admin, member, other, guest, channel } = await channelSuite(t, 'subs');
const api = s.chat.api;

type Change = { stream_id: number; property: string; value: unknown };
const setProperties = (as: TestUser, data: Change[]) => s.request('POST', '/users/me/subscriptions/properties', { as, params: { subscription_data: data } });
const subscriptionOf = (user: TestUser, id: number) => api.streams.listSubscriptions(user.user_id, {}).subscriptions.find((sub: any) => sub.stream_id === id) as Record<string, unknown>;

t.test('POST /users/me/subscriptions/properties: every property, its events, and /register', async (t) => {
  const { id } = await channel([member, other]);
  t.match(subscriptionOf(member, id), { color: '#76ce90', desktop_notifications: null, wildcard_mentions_notify: null }, 'nulls: the global settings apply');
  const changes: Change[] = [
    { stream_id: id, property: 'color', value: '#abc' },
    { stream_id: id, property: 'is_muted', value: true },
    { stream_id: id, property: 'pin_to_top', value: true },
    { stream_id: id, property: 'desktop_notifications', value: false },
    { stream_id: id, property: 'audible_notifications', value: true },
    { stream_id: id, property: 'push_notifications', value: false },
    { stream_id: id, property: 'email_notifications', value: true },
    { stream_id: id, property: 'wildcard_mentions_notify', value: false },
  ];
  const events = await eventsApply(t, s, [member, other], async () => {
    ok(t, await setProperties(member, changes));
  });
  t.same(
    events.get(member.user_id)!.map(({ id: _id, ...event }) => event),
    [
      { type: 'subscription', op: 'update', property: 'color', value: '#abc', stream_id: id },
      { type: 'subscription', op: 'update', property: 'in_home_view', value: false, stream_id: id },
      { type: 'subscription', op: 'update', property: 'is_muted', value: true, stream_id: id },
      ...changes.slice(2).map((c) => ({ type: 'subscription', op: 'update', property: c.property, value: c.value, stream_id: id })),
    ],
    'one event per change; muting also sends the legacy in_home_view first',
  );
  t.same(events.get(other.user_id), [], 'only the user is told');
  t.match(subscriptionOf(member, id), {
    color: '#abc',
    is_muted: true,
    in_home_view: false,
    pin_to_top: true,
    desktop_notifications: false,
    audible_notifications: true,
    push_notifications: false,
    email_notifications: true,
    wildcard_mentions_notify: false,
  });
  t.match(subscriptionOf(other, id), { color: '#76ce90', is_muted: false, desktop_notifications: null }, 'another subscriber keeps theirs');

  await eventsApply(t, s, [member], async () => {
    t.same(api.streams.updateSubscriptionProperties(member.user_id, { subscriptionData: [{ stream_id: id, property: 'in_home_view', value: true }] }), {});
  });
  t.match(subscriptionOf(member, id), { is_muted: false, in_home_view: true }, 'in_home_view is the inverse of is_muted');
});

t.test('POST /users/me/subscriptions/properties: Zulip’s errors, and nothing changes when one fails', async (t) => {
  const mine = await channel([member]);
  const theirs = await channel([other]);
  const closed = await channel([other], { invite_only: true });
  const cases: [Change[], ReturnType<typeof bad>][] = [
    [[{ stream_id: mine.id, property: 'bad', value: true }], bad('Unknown subscription property: bad')],
    [[{ stream_id: mine.id, property: 'color', value: 'red' }], bad('color is not a valid hex color code')],
    [[{ stream_id: mine.id, property: 'color', value: '#1234567' }], bad('color is not a valid hex color code')],
    [[{ stream_id: mine.id, property: 'color', value: true }], bad('color is not a string')],
    [[{ stream_id: mine.id, property: 'is_muted', value: 'yes' }], bad('is_muted is not a boolean')],
    [[{ stream_id: mine.id, property: 'push_notifications', value: 'true' }], bad('push_notifications is not a boolean')],
    [[{ stream_id: theirs.id, property: 'pin_to_top', value: true }], bad(`Not subscribed to channel ID ${theirs.id}`)],
    [[{ stream_id: closed.id, property: 'pin_to_top', value: true }], INVALID],
    [[{ stream_id: 999_999, property: 'pin_to_top', value: true }], INVALID],
    // All or nothing: the valid first change is not kept.
    [[{ stream_id: mine.id, property: 'color', value: '#000000' }, { stream_id: theirs.id, property: 'color', value: '#000000' }], bad(`Not subscribed to channel ID ${theirs.id}`)],
    [[{ stream_id: mine.id, property: 'color', value: '#000000' }, { stream_id: mine.id, property: 'nope', value: 'x' }], bad('Unknown subscription property: nope')],
  ];
  const queue = await register(s, member);
  for (const [data, expected] of cases) {
    await bothFail(t, () => setProperties(member, data), () => api.streams.updateSubscriptionProperties(member.user_id, { subscriptionData: data as any }), expected);
  }
  t.equal(subscriptionOf(member, mine.id).color, '#76ce90', 'nothing was changed');
  t.same(await poll(s, member, queue), [], 'and nothing was sent');
  isError(t, await s.request('POST', '/users/me/subscriptions/properties', { as: member, params: { subscription_data: '[{"stream_id": 1}]' } }), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'subscription_data[0]["property"] field is missing: Field required',
  });
});

t.test('default channels: administrators choose public channels; new users join them', async (t) => {
  const open = await channel([admin, member]);
  const closed = await channel([admin], { invite_only: true });
  const hidden = await channel([member], { invite_only: true });
  const post = (as: TestUser, id: number) => s.request('POST', '/default_streams', { as, params: { stream_id: id } });
  const del = (as: TestUser, id: number) => s.request('DELETE', '/default_streams', { as, params: { stream_id: id } });
  const before = ok(t, await s.request('GET', '/default_streams', { as: guest })).default_streams as number[];

  const queues = new Map<number, Record<string, any>>();
  for (const user of [admin, member, guest]) queues.set(user.user_id, await register(s, user, { event_types: ['default_streams'] }));
  t.same(queues.get(member.user_id)!.realm_default_streams, before, '/register: realm_default_streams');
  ok(t, await post(admin, open.id));
  ok(t, await post(admin, open.id), 'again: nothing to do');
  await bothFail(t, () => post(member, open.id), () => api.streams.addDefaultStream(member.user_id, { streamId: open.id }), NOT_ADMIN);
  await bothFail(t, () => post(admin, closed.id), () => api.streams.addDefaultStream(admin.user_id, { streamId: closed.id }), bad('Private channels cannot be made default.'));
  await bothFail(t, () => post(admin, hidden.id), () => api.streams.addDefaultStream(admin.user_id, { streamId: hidden.id }), INVALID);
  await bothFail(t, () => post(admin, 999_999), () => api.streams.addDefaultStream(admin.user_id, { streamId: 999_999 }), INVALID);
  const now = [...before, open.id].sort((a, b) => a - b);
  t.same(api.streams.defaultStreams(member.user_id, {}), { default_streams: now });
  const listed = ok(t, await s.request('GET', '/streams', { as: member, params: { include_default: true } })).streams as { stream_id: number; is_default: boolean }[];
  t.same(listed.filter((c) => c.is_default).map((c) => c.stream_id).sort((a, b) => a - b), now, 'GET /streams?include_default=true marks them');
  t.match(await poll(s, member, queues.get(member.user_id)!), [{ type: 'default_streams', default_streams: now }], 'one event for the one change');
  t.same(await poll(s, guest, queues.get(guest.user_id)!), [], 'guests are not told (Zulip: active non-guest users)');
  t.same((await register(s, admin, { event_types: ['default_streams'] })).realm_default_streams, now);

  const newcomer = await s.user('member', { fullName: 'Nora Newcomer' });
  t.ok(subscriptionOf(newcomer, open.id), 'a new user joins the default channels');
  const bot = await s.user('member', { bot: true });
  t.notOk(subscriptionOf(bot, open.id), 'a new bot does not');

  ok(t, await del(admin, open.id));
  ok(t, await del(admin, open.id), 'again: nothing to do');
  await bothFail(t, () => del(member, open.id), () => api.streams.removeDefaultStream(member.user_id, { streamId: open.id }), NOT_ADMIN);
  t.same(api.streams.defaultStreams(member.user_id, {}), { default_streams: before });
  ok(t, await post(admin, open.id));
  ok(t, await s.request('DELETE', `/streams/${open.id}`, { as: admin }));
  t.same(api.streams.defaultStreams(member.user_id, {}), { default_streams: before }, 'an archived channel is no default channel');
  // The state invariant: realm_default_streams with every default_streams event applied (Zulip's
  // apply_event replaces the list) equals a fresh /register.
  const queue = queues.get(member.user_id)!;
  const applied = (await poll(s, member, queue)).reduce((state, event) => (event.type === 'default_streams' ? event.default_streams : state), queue.realm_default_streams);
  t.same(applied, (await register(s, member, { event_types: ['default_streams'] })).realm_default_streams, 'events applied equal a fresh register');
});

t.test('POST /mark_stream_as_read and /mark_topic_as_read', async (t) => {
  const { id, name } = await channel([member, other]);
  const first = await sendToStream(s, other, name, 'Alpha', 'one');
  const second = await sendToStream(s, other, name, 'beta', 'two');
  const third = await sendToStream(s, other, name, 'alpha', 'three');
  const queue = await register(s, member, { event_types: ['update_message_flags'] });
  ok(t, await s.request('POST', '/mark_topic_as_read', { as: member, params: { stream_id: id, topic_name: 'ALPHA' } }));
  t.same([first, second, third].map((m) => flagBits(s, member.user_id, m)! & 1), [1, 0, 1], 'topics compare case-insensitively');
  t.same(api.messageFlags.markStreamAsRead(member.user_id, { streamId: id }), {});
  t.equal(flagBits(s, member.user_id, second)! & 1, 1);
  t.match(await poll(s, member, queue), [
    { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [first, third], all: false },
    { type: 'update_message_flags', op: 'add', flag: 'read', messages: [second], all: false },
  ]);
  ok(t, await s.request('POST', '/mark_stream_as_read', { as: member, params: { stream_id: id } }), 'nothing unread: no event');
  t.equal((await poll(s, member, queue)).length, 2, 'the same two events since the queue was registered');

  const closed = await channel([other], { invite_only: true });
  await bothFail(t, () => s.request('POST', '/mark_stream_as_read', { as: member, params: { stream_id: closed.id } }), () => api.messageFlags.markStreamAsRead(member.user_id, { streamId: closed.id }), INVALID);
  await bothFail(t, () => s.request('POST', '/mark_stream_as_read', { as: guest, params: { stream_id: id } }), () => api.messageFlags.markStreamAsRead(guest.user_id, { streamId: id }), INVALID);
  await bothFail(
    t,
    () => s.request('POST', '/mark_topic_as_read', { as: member, params: { stream_id: 999_999, topic_name: 'x' } }),
    () => api.messageFlags.markTopicAsRead(member.user_id, { streamId: 999_999, topicName: 'x' }),
    INVALID,
  );
  await bothFail(
    t,
    () => s.request('POST', '/mark_topic_as_read', { as: member, params: { stream_id: id, topic_name: 'gamma' } }),
    () => api.messageFlags.markTopicAsRead(member.user_id, { streamId: id, topicName: 'gamma' }),
    bad("No such topic 'gamma'"),
  );
});

t.test('a new organization starts with the default channels general and sandbox, its owner subscribed', async (t) => {
  const fresh = await startServer({ defaultChannels: true });
  t.teardown(() => fresh.close());
  const names = (user: TestUser) => fresh.chat.api.streams.listSubscriptions(user.user_id, {}).subscriptions.map((sub: any) => sub.name);
  t.same(names(fresh.owner), ['general', 'sandbox']);
  const state = ok(t, await fresh.request('POST', '/register', { as: fresh.owner, params: { fetch_event_types: ['default_streams', 'subscription'] } }));
  t.same(state.realm_default_streams, state.subscriptions.map((sub: any) => sub.stream_id).sort((a: number, b: number) => a - b), 'both are default channels');
  t.match(state.subscriptions, [
    { name: 'general', description: 'For team-wide conversations', invite_only: false, creator_id: null },
    { name: 'sandbox', invite_only: false },
  ]);
  const newcomer = await fresh.user('guest');
  t.same(names(newcomer), ['general', 'sandbox'], 'new users, guests too, join them');
  t.same(names(await fresh.user('member', { bot: true })), [], 'bots do not');
});
