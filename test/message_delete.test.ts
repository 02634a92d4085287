// Deleting messages (Zulip's delete_message_backend, validate_can_delete_message and
// do_delete_messages): who may delete what and until when, Zulip's errors, nothing left behind,
// the delete_message event (shape, audience, bulk_message_deletion) and first_message_id, and
// the /register state (unread_msgs, max_message_id) kept consistent by the events.
import t from 'tap';
import { DELETE_LIMIT_SECONDS } from '../lib/domain/message_delete.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, bothFail, memberPair, ok, poll, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { checkSchemas, eventsApply } from './messaging_events.js';
import { applyUnreadEvents, unreadFromRows, type UnreadMsgs } from './message_flags_helpers.js';

let now = 1_700_000_000_000;
const s: TestServer = await startServer({ clock: () => now });
t.teardown(() => s.close());
const api = s.chat.api;

const del = (user: TestUser, id: number) => s.request('DELETE', `/messages/${id}`, { as: user });
const count = (sql: string, id: number) => s.db.prepare(sql).pluck().get(id) as number;
const rowsOf = (id: number) => ({
  message: count('SELECT count(*) FROM message WHERE id = ?', id),
  user_message: count('SELECT count(*) FROM user_message WHERE message_id = ?', id),
  starred_message: count('SELECT count(*) FROM starred_message WHERE message_id = ?', id),
  reaction: count('SELECT count(*) FROM reaction WHERE message_id = ?', id),
  message_edit: count('SELECT count(*) FROM message_edit WHERE message_id = ?', id),
});
const GONE = { message: 0, user_message: 0, starred_message: 0, reaction: 0, message_edit: 0 };
const DENIED = bad("You don't have permission to delete this message");
const TOO_LATE = bad('The time limit for deleting this message has passed');
const INVALID = bad('Invalid message(s)');

async function queue(user: TestUser, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return ok(t, await s.request('POST', '/register', { as: user, params: { event_types: ['delete_message', 'stream'], ...params } }));
}

t.test('the sender deletes their message: it, its rows, stars, reactions and edit history are gone; drafts stay', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'gone');
  const id = await sendToStream(s, alice, channel, 'hi', 'delete me');
  for (const user of [alice, bob]) api.messageFlags.update(user.user_id, { messages: [id], op: 'add', flag: 'starred' });
  api.reactions.add(bob.user_id, { messageId: id, emojiName: 'smile' });
  api.messages.edit(alice.user_id, { messageId: id, content: 'edited, then deleted' });
  const draft = api.drafts.create(alice.user_id, { drafts: [{ type: '', to: [], topic: '', content: 'a draft' }] }).ids[0];
  t.same(rowsOf(id), { message: 1, user_message: 2, starred_message: 2, reaction: 1, message_edit: 1 });
  t.same(ok(t, await del(alice, id)), { result: 'success', msg: '' });
  t.same(rowsOf(id), GONE, 'no row left');
  await bothFail(t, () => s.request('GET', `/messages/${id}`, { as: bob }), () => api.messages.get(bob.user_id, { messageId: id }), INVALID);
  await bothFail(t, () => del(alice, id), () => api.messages.delete(alice.user_id, { messageId: id }), INVALID);
  t.same(api.drafts.list(alice.user_id).drafts.map((d: { id: number }) => d.id), [draft], 'drafts untouched');

  const other = await sendDirect(s, alice, [bob.user_id], 'in-process');
  api.messageFlags.update(bob.user_id, { messages: [other], op: 'add', flag: 'starred' });
  t.same(api.messages.delete(alice.user_id, { messageId: other }), {});
  t.same(rowsOf(other), GONE, 'in-process too');
});

t.test("who may delete: administrators any message; others only their own or their bots', within the limit", async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'who');
  const moderator = await s.user('moderator');
  const admin = await s.user('admin');
  ok(t, await subscribe(s, s.owner, [channel], { principals: [moderator.user_id, admin.user_id] }));
  const id = await sendToStream(s, alice, channel, 'hi', 'mine');
  for (const user of [bob, moderator]) await bothFail(t, () => del(user, id), () => api.messages.delete(user.user_id, { messageId: id }), DENIED);
  t.same(rowsOf(id).message, 1, 'nothing was deleted');
  ok(t, await del(admin, id), 'an administrator deletes anyone’s message');

  const bot = await s.user('member', { bot: true });
  s.db.prepare('UPDATE user SET bot_owner_id = ? WHERE id = ?').run(bob.user_id, bot.user_id);
  ok(t, await subscribe(s, s.owner, [channel], { principals: [bot.user_id] }));
  const fromBot = await sendToStream(s, bot, channel, 'hi', 'beep');
  await bothFail(t, () => del(alice, fromBot), () => api.messages.delete(alice.user_id, { messageId: fromBot }), DENIED);
  ok(t, await del(bob, fromBot), "the bot's owner deletes its message");

  const guest = await s.user('guest');
  const dm = await sendDirect(s, guest, [alice.user_id], 'guest message');
  ok(t, await del(guest, dm), 'guests delete their own messages (can_delete_own_message_group: everyone)');
});

t.test('the time limit: 600 seconds for senders, none for administrators', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'limit');
  const admin = await s.user('admin');
  const onTime = await sendToStream(s, alice, channel, 'hi', 'on time');
  const late = await sendToStream(s, alice, channel, 'hi', 'late');
  now += DELETE_LIMIT_SECONDS * 1000;
  ok(t, await del(alice, onTime), 'exactly at the limit');
  now += 1000;
  await bothFail(t, () => del(alice, late), () => api.messages.delete(alice.user_id, { messageId: late }), TOO_LATE);
  await bothFail(t, () => del(bob, late), () => api.messages.delete(bob.user_id, { messageId: late }), DENIED);
  t.same(rowsOf(late).message, 1, 'nothing was deleted');
  ok(t, await subscribe(s, s.owner, [channel], { principals: [admin.user_id] }));
  ok(t, await del(admin, late), 'administrators have no limit');
});

t.test('messages one cannot read, unknown ids and bad ids', async (t) => {
  const { alice, bob } = await memberPair(t, s, 'invalid');
  const carol = await s.user('member');
  const dm = await sendDirect(s, alice, [bob.user_id], 'private');
  ok(t, await subscribe(s, alice, ['invalid-private'], { invite_only: true }));
  const secret = await sendToStream(s, alice, 'invalid-private', 'hi', 'secret');
  const admin = await s.user('admin');
  for (const [user, id] of [[carol, dm], [carol, secret], [admin, dm], [admin, secret], [carol, 999_999]] as const) {
    await bothFail(t, () => del(user, id), () => api.messages.delete(user.user_id, { messageId: id }), INVALID);
  }
  const badId = await s.request('DELETE', '/messages/abc', { as: alice });
  t.same([badId.status, badId.body.code], [404, 'NOT_FOUND'], 'an id that is not a number matches no route');
  t.same([rowsOf(dm).message, rowsOf(secret).message], [1, 1], 'nothing was deleted');
});

t.test("the delete_message event: Zulip's shape, to everyone who could see the message and the deleter", async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'event');
  const carol = await s.user('member');
  const admin = await s.user('admin');
  const id = await sendToStream(s, alice, channel, 'Mixed Case', 'x');
  const queues = new Map<TestUser, Record<string, any>>();
  for (const user of [alice, bob, carol, admin]) queues.set(user, await queue(user, { client_capabilities: { bulk_message_deletion: true } }));
  ok(t, await del(admin, id));
  const expected = { type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: api.streams.getId(alice.user_id, { stream: channel }).stream_id, topic: 'mixed case' };
  for (const user of [alice, bob, admin]) {
    const events = await poll(s, user, queues.get(user)!);
    checkSchemas(t, events);
    t.same(events.map(({ id: _id, ...e }) => e).filter((e) => e.type === 'delete_message'), [expected], `user ${user.user_id}`);
  }
  t.same(await poll(s, carol, queues.get(carol)!), [], 'not to a member who is not subscribed and never received it');

  const dm = await sendDirect(s, alice, [bob.user_id], 'dm');
  const old = await queue(bob);
  const modern = await queue(bob, { client_capabilities: { bulk_message_deletion: true } });
  const carolQueue = await queue(carol);
  ok(t, await del(alice, dm));
  t.same((await poll(s, bob, old)).map(({ id: _id, ...e }) => e), [{ type: 'delete_message', message_id: dm, message_type: 'private' }], 'message_id without bulk_message_deletion');
  t.same((await poll(s, bob, modern)).map(({ id: _id, ...e }) => e), [{ type: 'delete_message', message_ids: [dm], message_type: 'private' }]);
  t.same(await poll(s, carol, carolQueue), []);
});

t.test('protected history: only subscribers who received the message hear of it', async (t) => {
  const { alice, bob } = await memberPair(t, s, 'protected');
  const late = await s.user('member');
  ok(t, await subscribe(s, alice, ['protected-x'], { invite_only: true, history_public_to_subscribers: false, principals: [alice.user_id, bob.user_id] }));
  const id = await sendToStream(s, alice, 'protected-x', 'hi', 'x');
  ok(t, await subscribe(s, s.owner, ['protected-x'], { principals: [late.user_id] }));
  const bobQueue = await queue(bob);
  const lateQueue = await queue(late);
  ok(t, await del(alice, id));
  t.match(await poll(s, bob, bobQueue), [{ type: 'stream' }, { type: 'delete_message', message_id: id }]);
  t.same(await poll(s, late, lateQueue), [], 'a later subscriber never saw it');
});

t.test("deleting a channel's first message moves first_message_id; the events keep /register consistent", async (t) => {
  const { alice, bob } = await memberPair(t, s, 'first');
  const channel = 'first-channel';
  ok(t, await subscribe(s, alice, [channel], { principals: [alice.user_id, bob.user_id] }));
  const first = await sendToStream(s, alice, channel, 'hi', 'one');
  const second = await sendToStream(s, alice, channel, 'hi', 'two');
  const firstId = () => s.db.prepare('SELECT first_message_id FROM stream WHERE name = ?').pluck().get(channel);
  const events = await eventsApply(t, s, [alice, bob], () => del(alice, first));
  t.equal(firstId(), second);
  t.match(events.get(bob.user_id), [
    { type: 'stream', op: 'update', property: 'first_message_id', value: second },
    { type: 'delete_message', message_id: first },
  ]);
  await eventsApply(t, s, [alice, bob], () => del(alice, second));
  t.equal(firstId(), null, 'no message left: null');
  await eventsApply(t, s, [alice, bob], async () => del(alice, await sendToStream(s, alice, channel, 'hi', 'three')));
});

t.test('unread_msgs and max_message_id after a deletion equal a fresh register', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'unread');
  const bob = await s.user('member', { fullName: 'Unread Bob' });
  const carol = await s.user('member');
  ok(t, await subscribe(s, s.owner, [channel], { principals: [bob.user_id] }));
  const types = ['message', 'update_message_flags', 'delete_message'];
  const ids = [
    await sendToStream(s, alice, channel, 'hi', '@**Unread Bob** mention'),
    await sendDirect(s, alice, [bob.user_id], 'dm'),
    await sendDirect(s, alice, [bob.user_id, carol.user_id], 'group dm'),
    await sendToStream(s, alice, channel, 'hi', 'newest'),
  ];
  const start = ok(t, await s.request('POST', '/register', { as: bob, params: { event_types: types } }));
  t.same([start.unread_msgs.count, start.unread_msgs.mentions], [4, [ids[0]]], 'all four unread, one mention');
  for (const id of ids) {
    const before = ok(t, await s.request('POST', '/register', { as: bob, params: { event_types: types } }));
    ok(t, await del(alice, id));
    const events = await poll(s, bob, before);
    const after = ok(t, await s.request('POST', '/register', { as: bob, params: { event_types: types } }));
    t.same(applyUnreadEvents(before.unread_msgs as UnreadMsgs, events, bob.user_id), after.unread_msgs, 'events applied equal a fresh register');
    t.same(after.unread_msgs, unreadFromRows(s.db, bob.user_id), 'and the rows');
    const u = after.unread_msgs as UnreadMsgs;
    const unreadIds = [...u.pms, ...u.streams, ...u.huddles].flatMap((c) => c.unread_message_ids).concat(u.mentions);
    t.notOk(unreadIds.includes(id), 'the message is no longer unread');
  }
  const final = ok(t, await s.request('POST', '/register', { as: bob, params: { event_types: types } }));
  t.equal(final.max_message_id, s.db.prepare('SELECT coalesce(max(message_id), -1) FROM user_message WHERE user_id = ?').pluck().get(bob.user_id));
  t.equal(final.unread_msgs.count, 0);
});

t.test("/register says who may delete (administrators anything; everyone their own for 600 s), and realm events keep it current", async (t) => {
  const member = await s.user('member');
  const registered = ok(t, await s.request('POST', '/register', { as: member, params: { event_types: ['realm'], fetch_event_types: ['realm'] } }));
  const groups = () => ({ any: registered.realm_can_delete_any_message_group, own: registered.realm_can_delete_own_message_group });
  t.equal(registered.realm_message_content_delete_limit_seconds, DELETE_LIMIT_SECONDS);
  t.ok(groups().own.direct_members.includes(member.user_id), 'a member deletes their own messages');
  t.notOk(groups().any.direct_members.includes(member.user_id), 'not others\'');
  t.ok(groups().any.direct_members.includes(s.owner.user_id), 'the owner deletes any');
  const newcomer = await s.user('member');
  api.users.update(s.owner.user_id, { userId: member.user_id, role: 200 });
  s.chat.admin.deactivateUser(newcomer.user_id);
  const events = await poll(s, member, registered);
  const state = { ...registered };
  for (const event of events) {
    if (event.type !== 'realm' || event.op !== 'update_dict') continue;
    for (const [name, value] of Object.entries(event.data as Record<string, unknown>)) state[`realm_${name}`] = value;
  }
  const fresh = ok(t, await s.request('POST', '/register', { as: member, params: { fetch_event_types: ['realm'] } }));
  t.same(
    [state.realm_can_delete_any_message_group, state.realm_can_delete_own_message_group],
    [fresh.realm_can_delete_any_message_group, fresh.realm_can_delete_own_message_group],
    'events applied to the state before equal a fresh register',
  );
  t.ok(fresh.realm_can_delete_any_message_group.direct_members.includes(member.user_id), 'promoted to administrator');
  t.notOk(fresh.realm_can_delete_own_message_group.direct_members.includes(newcomer.user_id), 'deactivated');
});
