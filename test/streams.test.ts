// Channels and subscriptions: POST/DELETE/GET /users/me/subscriptions, GET /streams,
// GET /streams/{id}, GET /get_stream_id, over HTTP and in-process; visibility of private channels
// and to guests; the unread invariant on unsubscribing; stream and subscription events.
import t, { type Test } from 'tap';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, bothFail, flagBits, isError, ok, sendToStream, subscribe, throwsApiError } from './messaging_helpers.js';
import { eventsApply } from './messaging_events.js';

async function world(t: Test) {
  const s = await startServer();
  t.teardown(() => s.close());
  const admin = await s.user('admin', { fullName: 'Ada Admin' });
  const member = await s.user('member', { fullName: 'Mia Member' });
  const other = await s.user('member', { fullName: 'Otto Other' });
  const guest = await s.user('guest', { fullName: 'Gus Guest' });
  return { s, admin, member, other, guest };
}

const streamId = (s: TestServer, name: string): number => s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number;
const isSubscribed = (s: TestServer, user: TestUser, name: string): boolean =>
  s.db.prepare('SELECT 1 FROM subscription WHERE user_id = ? AND stream_id = ?').pluck().get(user.user_id, streamId(s, name)) === 1;

t.test('subscribing to a channel that does not exist creates it and subscribes the caller', async (t) => {
  const { s, member } = await world(t);
  const body = ok(t, await subscribe(s, member, ['general']));
  t.same(body.subscribed, { [member.user_id]: ['general'] });
  t.same(body.already_subscribed, {});
  t.notOk('unauthorized' in body, 'unauthorized only with authorization_errors_fatal=false');
  const again = ok(t, await subscribe(s, member, ['General']));
  t.same(again.already_subscribed, { [member.user_id]: ['general'] }, 'names match case-insensitively');
  const inProcess = s.chat.api.streams.subscribe(member.user_id, { subscriptions: [{ name: 'random', description: 'Off *topic*' }] });
  t.same(inProcess, { subscribed: { [member.user_id]: ['random'] }, already_subscribed: {} });
  const random = s.chat.api.streams.get(member.user_id, { streamId: streamId(s, 'random') }).stream;
  t.match(random, { name: 'random', description: 'Off *topic*', rendered_description: '<p>Off <em>topic</em></p>', invite_only: false, creator_id: member.user_id, subscriber_count: 1 });  s.chat.api.streams.subscribe(member.user_id, { subscriptions: [{ name: 'party', description: 'Fun :tada:' }] });
  t.equal(
    s.chat.api.streams.get(member.user_id, { streamId: streamId(s, 'party') }).stream.rendered_description,
    '<p>Fun <span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>',
    'descriptions render :name: emoji as messages do',
  );
});

t.test('channel names: stripped, not empty, at most 60 characters, printable', async (t) => {
  const { s, member } = await world(t);
  const names: [string, string][] = [
    ['   ', "Channel name can't be empty."],
    ['x'.repeat(61), 'Channel name too long (limit: 60 characters).'],
    ['bad\u0007name', 'Invalid character in channel name, at position 4.'],
  ];
  for (const [name, msg] of names) {
    await bothFail(t, () => subscribe(s, member, [name]), () => s.chat.api.streams.subscribe(member.user_id, { subscriptions: [{ name }] }), bad(msg));
  }
  ok(t, await subscribe(s, member, ['  padded  ']));
  t.ok(streamId(s, 'padded'), 'stored stripped');
  const long = 'd'.repeat(1025);
  await bothFail(
    t,
    () => s.request('POST', '/users/me/subscriptions', { as: member, params: { subscriptions: [{ name: 'x', description: long }] } }),
    () => s.chat.api.streams.subscribe(member.user_id, { subscriptions: [{ name: 'x', description: long }] }),
    bad('subscriptions[0]["description"] is too long (limit: 1024 characters)'),
  );
  t.notOk(streamId(s, 'x'), 'nothing created');
});

t.test('guests may not use POST /users/me/subscriptions, checked before the parameters', async (t) => {
  const { s, guest } = await world(t);
  await bothFail(
    t,
    () => s.request('POST', '/users/me/subscriptions', { as: guest }),
    () => s.chat.api.streams.subscribe(guest.user_id, { subscriptions: [{ name: 'x' }] }),
    bad('Not allowed for guest users'),
  );
});

t.test("subscribing others to an existing channel is for Zulip's can_add_subscribers_group (members by default); a new channel is its creator's", async (t) => {
  const { s, admin, member, other, guest } = await world(t);
  ok(t, await subscribe(s, member, ['existing']));
  const byMember = ok(t, await subscribe(s, member, ['existing'], { principals: [other.user_id] }));
  t.same(byMember.subscribed, { [other.user_id]: ['existing'] }, 'members may');
  ok(t, await subscribe(s, admin, ['existing'], { principals: [guest.user_id] }));
  await bothFail(
    t,
    () => subscribe(s, guest, ['existing'], { principals: [admin.user_id] }),
    () => s.chat.api.streams.subscribe(guest.user_id, { subscriptions: [{ name: 'existing' }], principals: [admin.user_id] }),
    bad('Not allowed for guest users'),
  );
  const byAdmin = ok(t, await subscribe(s, admin, ['second'], { principals: [other.email] }));
  t.same(byAdmin.subscribed, { [other.user_id]: ['second'] }, 'principals by email; keys are user ids');
  const created = ok(t, await subscribe(s, member, ['fresh'], { principals: [member.user_id, other.user_id] }));
  t.same(created.subscribed, { [member.user_id]: ['fresh'], [other.user_id]: ['fresh'] });
  const self = ok(t, await subscribe(s, member, ['existing'], { principals: [member.user_id] }));
  t.same(self.already_subscribed, { [member.user_id]: ['existing'] }, 'naming only oneself is not subscribing others');
});

t.test('options.accounts.whoMayAddSubscribers narrows who may subscribe others; administrators always may', async (t) => {
  const s = await startServer({ accounts: { whoMayAddSubscribers: 'role:moderators' } });
  t.teardown(() => s.close());
  const member = await s.user('member');
  const other = await s.user('member');
  const moderator = await s.user('moderator');
  ok(t, await subscribe(s, member, ['existing']));
  isError(t, await subscribe(s, member, ['existing'], { principals: [other.user_id] }), bad('Insufficient permission'));
  t.notOk(isSubscribed(s, other, 'existing'));
  ok(t, await subscribe(s, moderator, ['existing'], { principals: [other.user_id] }));
  const nobody = await startServer({ accounts: { whoMayAddSubscribers: 'role:nobody' } });
  t.teardown(() => nobody.close());
  const admin = await nobody.user('admin');
  const someone = await nobody.user('member');
  await subscribe(nobody, nobody.owner, ['existing']);
  ok(t, await subscribe(nobody, admin, ['existing'], { principals: [someone.user_id] }));
});

t.test('principals must exist and be active: No such user, User is deactivated; nothing is created', async (t) => {
  const { s, admin, other } = await world(t);
  await bothFail(
    t,
    () => subscribe(s, admin, ['new-one'], { principals: [999] }),
    () => s.chat.api.streams.subscribe(admin.user_id, { subscriptions: [{ name: 'new-one' }], principals: [999] }),
    bad('No such user'),
  );
  await bothFail(
    t,
    () => subscribe(s, admin, ['new-one'], { principals: ['nobody@example.com'] }),
    () => s.chat.api.streams.subscribe(admin.user_id, { subscriptions: [{ name: 'new-one' }], principals: ['nobody@example.com'] }),
    bad('No such user'),
  );
  s.chat.admin.deactivateUser(other.user_id);
  await bothFail(
    t,
    () => subscribe(s, admin, ['new-one'], { principals: [other.user_id] }),
    () => s.chat.api.streams.subscribe(admin.user_id, { subscriptions: [{ name: 'new-one' }], principals: [other.user_id] }),
    bad('User is deactivated'),
  );
  t.notOk(streamId(s, 'new-one'), 'a failed request changes nothing');
});

t.test('private channels: only subscribers (and administrators) may join; authorization_errors_fatal', async (t) => {
  const { s, admin, member, other } = await world(t);
  ok(t, await subscribe(s, member, ['secret'], { invite_only: true }));
  const secret = s.chat.api.streams.get(member.user_id, { streamId: streamId(s, 'secret') }).stream;
  t.match(secret, { invite_only: true, history_public_to_subscribers: false }, 'private channels have protected history by default');
  await bothFail(
    t,
    () => subscribe(s, other, ['secret']),
    () => s.chat.api.streams.subscribe(other.user_id, { subscriptions: [{ name: 'secret' }] }),
    bad('Unable to access channel (secret).'),
  );
  const lenient = ok(t, await subscribe(s, other, ['secret', 'open'], { authorization_errors_fatal: false }));
  t.same(lenient, { result: 'success', msg: '', subscribed: { [other.user_id]: ['open'] }, already_subscribed: {}, unauthorized: ['secret'] });
  ok(t, await subscribe(s, admin, ['secret']));
  t.ok(isSubscribed(s, admin, 'secret'), 'administrators may join private channels');
  ok(t, await subscribe(s, admin, ['shared'], { invite_only: true, history_public_to_subscribers: true }));
  t.match(s.chat.api.streams.get(admin.user_id, { streamId: streamId(s, 'shared') }).stream, { history_public_to_subscribers: true });
});

t.test('DELETE /users/me/subscriptions: removed and not_removed; unknown channels; others need an administrator', async (t) => {
  const { s, admin, member, other } = await world(t);
  ok(t, await subscribe(s, admin, ['a', 'b'], { principals: [member.user_id, other.user_id] }));
  const body = ok(t, await s.request('DELETE', '/users/me/subscriptions', { as: member, params: { subscriptions: ['a'] } }));
  t.same(body, { result: 'success', msg: '', removed: ['a'], not_removed: [] });
  t.same(s.chat.api.streams.unsubscribe(member.user_id, { subscriptions: ['a', 'b'] }), { removed: ['b'], not_removed: ['a'] });
  await bothFail(
    t,
    () => s.request('DELETE', '/users/me/subscriptions', { as: member, params: { subscriptions: ['a', 'nope', 'zip'] } }),
    () => s.chat.api.streams.unsubscribe(member.user_id, { subscriptions: ['nope', 'zip'] }),
    bad('Channel(s) (nope, zip) do not exist'),
  );
  await bothFail(
    t,
    () => s.request('DELETE', '/users/me/subscriptions', { as: member, params: { subscriptions: ['a'], principals: [other.user_id] } }),
    () => s.chat.api.streams.unsubscribe(member.user_id, { subscriptions: ['a'], principals: [other.user_id] }),
    bad('Insufficient permission'),
  );
  t.ok(isSubscribed(s, other, 'a'));
  t.same(s.chat.api.streams.unsubscribe(admin.user_id, { subscriptions: ['a'], principals: [other.email] }), { removed: ['a'], not_removed: [] });
  const bot = await s.chat.admin.addUser({ email: 'helper-bot@example.com', fullName: 'Helper', bot: true, botOwnerId: member.user_id });
  s.chat.api.streams.subscribe(admin.user_id, { subscriptions: [{ name: 'b' }], principals: [bot.user_id] });
  t.same(s.chat.api.streams.unsubscribe(member.user_id, { subscriptions: ['b'], principals: [bot.user_id] }), { removed: ['b'], not_removed: [] }, 'one may unsubscribe one\'s own bot');
});

t.test('unsubscribing marks the channel\'s unread messages read and says so in an event', async (t) => {
  const { s, member, other } = await world(t);
  ok(t, await subscribe(s, member, ['news']));
  ok(t, await subscribe(s, other, ['news', 'elsewhere']));
  const first = await sendToStream(s, member, 'news', 't', 'one');
  const second = await sendToStream(s, member, 'news', 't', 'two');
  const kept = await sendToStream(s, member, 'elsewhere', 't', 'stays unread');
  t.equal(flagBits(s, other.user_id, first)! & 1, 0, 'unread before');
  const reg = (await s.request('POST', '/register', { as: other, params: { event_types: ['update_message_flags'] } })).body;
  ok(t, await s.request('DELETE', '/users/me/subscriptions', { as: other, params: { subscriptions: ['news'] } }));
  t.equal(flagBits(s, other.user_id, first)! & 1, 1, 'first is read');
  t.equal(flagBits(s, other.user_id, second)! & 1, 1, 'second is read');
  t.equal(flagBits(s, other.user_id, kept)! & 1, 0, 'other channels are untouched');
  const events = (await s.request('GET', '/events', { as: other, params: { queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true } })).body.events;
  t.match(events, [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [first, second], all: false }]);
  ok(t, await subscribe(s, other, ['news']));
  const third = await sendToStream(s, member, 'news', 't', 'three');
  t.equal(flagBits(s, other.user_id, third)! & 1, 0, 'a new message is unread');
  t.same(s.chat.api.streams.unsubscribe(other.user_id, { subscriptions: ['news'] }), { removed: ['news'], not_removed: [] }, 'in-process too');
  t.equal(flagBits(s, other.user_id, third)! & 1, 1, 'in-process: the channel\'s messages became read');
});

t.test('GET /users/me/subscriptions lists the caller\'s channels by name, with subscribers on request', async (t) => {
  const { s, member, other } = await world(t);
  ok(t, await subscribe(s, member, ['zeta', 'alpha']));
  ok(t, await subscribe(s, other, ['alpha']));
  const body = ok(t, await s.request('GET', '/users/me/subscriptions', { as: member }));
  t.same(body.subscriptions.map((sub: { name: string }) => sub.name), ['alpha', 'zeta']);
  t.notOk('subscribers' in body.subscriptions[0], 'no subscribers unless asked');
  t.match(body.subscriptions[0], { subscriber_count: 2, color: '#76ce90', is_muted: false, in_home_view: true, pin_to_top: false });
  const withSubscribers = ok(t, await s.request('GET', '/users/me/subscriptions', { as: member, params: { include_subscribers: true } }));
  t.same(withSubscribers.subscriptions[0].subscribers, [member.user_id, other.user_id].sort((a, b) => a - b));
  const partial = s.chat.api.streams.listSubscriptions(member.user_id, { includeSubscribers: 'partial' });
  t.same(partial.subscriptions[1]!.subscribers, [member.user_id]);
});

t.test('GET /streams: public and subscribed channels; private ones only to subscribers; guests see their own; include_all for administrators', async (t) => {
  const { s, admin, member, other, guest } = await world(t);
  ok(t, await subscribe(s, member, ['public-one']));
  ok(t, await subscribe(s, member, ['private-one'], { invite_only: true }));
  ok(t, await subscribe(s, admin, ['guests-room'], { principals: [guest.user_id] }));
  const names = async (user: TestUser, params: Record<string, unknown> = {}) =>
    ok(t, await s.request('GET', '/streams', { as: user, params })).streams.map((x: { name: string }) => x.name);
  t.same(await names(member), ['guests-room', 'private-one', 'public-one']);
  t.same(await names(other), ['guests-room', 'public-one'], 'private channels are invisible to non-subscribers');
  t.same(await names(guest), ['guests-room'], 'guests see only channels they are subscribed to');
  t.same(await names(admin), ['guests-room', 'public-one']);
  t.same(await names(admin, { include_all: true }), ['guests-room', 'private-one', 'public-one'], 'administrators see that private channels exist');
  t.same(await names(member, { include_public: false }), ['private-one', 'public-one']);
  await bothFail(
    t,
    () => s.request('GET', '/streams', { as: member, params: { include_all: true } }),
    () => s.chat.api.streams.list(member.user_id, { includeAll: true }),
    bad('User not authorized for this query'),
  );
  t.same(s.chat.api.streams.list(guest.user_id).streams.map((x) => x.name), ['guests-room']);
  const publicId = streamId(s, 'public-one');
  await bothFail(t, () => s.request('GET', `/streams/${publicId}`, { as: guest }), () => s.chat.api.streams.get(guest.user_id, { streamId: publicId }), bad('Invalid channel ID'));
  await bothFail(
    t,
    () => s.request('GET', '/get_stream_id', { as: guest, params: { stream: 'public-one' } }),
    () => s.chat.api.streams.getId(guest.user_id, { stream: 'public-one' }),
    bad("Invalid channel name 'public-one'"),
  );
});

t.test('GET /streams/{stream_id}: Invalid channel ID for unknown or invisible channels', async (t) => {
  const { s, admin, member, other } = await world(t);
  ok(t, await subscribe(s, member, ['hidden'], { invite_only: true }));
  const hidden = streamId(s, 'hidden');
  await bothFail(t, () => s.request('GET', `/streams/${hidden}`, { as: other }), () => s.chat.api.streams.get(other.user_id, { streamId: hidden }), bad('Invalid channel ID'));
  await bothFail(t, () => s.request('GET', '/streams/999', { as: member }), () => s.chat.api.streams.get(member.user_id, { streamId: 999 }), bad('Invalid channel ID'));
  t.match(ok(t, await s.request('GET', `/streams/${hidden}`, { as: member })).stream, { stream_id: hidden, name: 'hidden', invite_only: true });
  t.match(ok(t, await s.request('GET', `/streams/${hidden}`, { as: admin })).stream, { name: 'hidden' }, 'administrators see its metadata');
});

t.test('GET /get_stream_id: the id by name; Invalid channel name for unknown or private channels', async (t) => {
  const { s, admin, member, other } = await world(t);
  ok(t, await subscribe(s, member, ['Lobby']));
  ok(t, await subscribe(s, member, ['vault'], { invite_only: true }));
  t.same(ok(t, await s.request('GET', '/get_stream_id', { as: other, params: { stream: 'lobby' } })).stream_id, streamId(s, 'Lobby'));
  await bothFail(
    t,
    () => s.request('GET', '/get_stream_id', { as: other, params: { stream: 'nonexistent' } }),
    () => s.chat.api.streams.getId(other.user_id, { stream: 'nonexistent' }),
    bad("Invalid channel name 'nonexistent'"),
  );
  await bothFail(
    t,
    () => s.request('GET', '/get_stream_id', { as: admin, params: { stream: 'vault' } }),
    () => s.chat.api.streams.getId(other.user_id, { stream: 'vault' }),
    bad("Invalid channel name 'vault'"),
  );
  isError(t, await s.request('GET', '/get_stream_id', { as: other }), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'stream' argument" });
});

t.test('stream and subscription events match their schemas and applied to the state before equal a fresh register', async (t) => {
  const { s, admin, member, other, guest } = await world(t);
  ok(t, await subscribe(s, other, ['existing']));
  const everyone = [admin, member, other, guest];
  await eventsApply(t, s, everyone, async () => {
    ok(t, await subscribe(s, member, ['brand-new', 'existing']));
  });
  await eventsApply(t, s, everyone, async () => {
    ok(t, await subscribe(s, member, ['private-room'], { invite_only: true, principals: [member.user_id, other.user_id] }));
  });
  await eventsApply(t, s, everyone, async () => {
    ok(t, await subscribe(s, admin, ['existing', 'private-room'], { principals: [guest.user_id] }));
  });
  await eventsApply(t, s, everyone, async () => {
    await sendToStream(s, member, 'brand-new', 'first', 'the first message sets first_message_id');
  });
  await eventsApply(t, s, everyone, async () => {
    ok(t, await s.request('DELETE', '/users/me/subscriptions', { as: other, params: { subscriptions: ['private-room', 'existing'] } }));
  });
  await eventsApply(t, s, everyone, async () => {
    s.chat.api.streams.unsubscribe(admin.user_id, { subscriptions: ['existing', 'private-room'], principals: [guest.user_id] });
  });
  await throwsApiError(t, () => s.chat.api.streams.unsubscribe(guest.user_id, { subscriptions: ['gone'] }), bad('Channel(s) (gone) do not exist'));
});

t.test('GET /users/me/{stream_id}/topics: newest first, case variants merged, protected history per user', async (t) => {
  const { s, admin, member, other } = await world(t);
  ok(t, await subscribe(s, member, ['dev'], { principals: [member.user_id, other.user_id] }));
  const a = await sendToStream(s, member, 'dev', 'Build', 'one');
  const b = await sendToStream(s, other, 'dev', 'deploy', 'two');
  const c = await sendToStream(s, member, 'dev', 'build', 'three');
  const dev = streamId(s, 'dev');
  t.same(ok(t, await s.request('GET', `/users/me/${dev}/topics`, { as: admin })).topics, [{ name: 'build', max_id: c }, { name: 'deploy', max_id: b }], 'public history, seen by a non-subscriber');
  t.ok(a < c);
  ok(t, await subscribe(s, member, ['vault'], { invite_only: true, principals: [member.user_id] }));
  const early = await sendToStream(s, member, 'vault', 'before', 'x');
  ok(t, await subscribe(s, admin, ['vault'], { principals: [other.user_id] }));
  const late = await sendToStream(s, member, 'vault', 'after', 'y');
  const vault = streamId(s, 'vault');
  t.same(s.chat.api.streams.topics(other.user_id, { streamId: vault }).topics, [{ name: 'after', max_id: late }], 'protected history: only what one received');
  t.same(s.chat.api.streams.topics(member.user_id, { streamId: vault }).topics, [{ name: 'after', max_id: late }, { name: 'before', max_id: early }]);
  await bothFail(t, () => s.request('GET', `/users/me/${vault}/topics`, { as: admin }), () => s.chat.api.streams.topics(admin.user_id, { streamId: vault }), bad('Invalid channel ID'));
  await bothFail(t, () => s.request('GET', '/users/me/999/topics', { as: member }), () => s.chat.api.streams.topics(member.user_id, { streamId: 999 }), bad('Invalid channel ID'));
});
