// Typing notifications (Zulip's POST /typing and POST /messages/{message_id}/typing): each rule
// over HTTP and in-process, and who gets which typing / typing_edit_message event.
import t, { type Test } from 'tap';
import { startServer, type TestUser } from './helpers.js';
import { OK, badRequest, camel, eventsSince, expectBoth, register, type Outcome } from './user_status_helpers.js';
import { TYPING_REPEAT_MS } from '../lib/domain/typing_throttle.js';

let nowMs = Date.UTC(2026, 0, 1);
const s = await startServer({ clock: () => nowMs });
t.teardown(() => s.close());
const [alice, bob, carol] = [await s.user('member'), await s.user('member'), await s.user('member')];
const api = s.chat.api;
api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'typing' }], principals: [alice.user_id, bob.user_id, s.owner.user_id] });
const channelId = api.streams.getId(alice.user_id, { stream: 'typing' }).stream_id;
api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'secret typing' }], inviteOnly: true, principals: [s.owner.user_id] } as never);
const secretId = api.streams.getId(s.owner.user_id, { stream: 'secret typing' }).stream_id;

type Params = Record<string, unknown>;
const person = (u: TestUser) => ({ user_id: u.user_id, email: u.email });

/**
 * The same notification passed on again: later than the throttle's window (the same op again
 * within it is dropped), for a notification that is passed on.
 */
function later<T>(wanted: Outcome, call: () => T): () => T {
  return () => {
    if (wanted === OK) nowMs += TYPING_REPEAT_MS;
    return call();
  };
}

function typing(tt: Test, as: TestUser, params: Params, wanted: Outcome, label = '') {
  return expectBoth(tt, wanted, () => s.request('POST', '/typing', { as, params }), later(wanted, () => api.typing.send(as.user_id, camel(params) as never)), label);
}

function editTyping(tt: Test, as: TestUser, messageId: number, params: Params, wanted: Outcome, label = '') {
  return expectBoth(
    tt,
    wanted,
    () => s.request('POST', `/messages/${messageId}/typing`, { as, params }),
    later(wanted, () => api.typing.edit(as.user_id, { messageId, ...camel(params) } as never)),
    label,
  );
}

/** Queues for the users, then what each got after `act`. */
async function eventsOf(users: TestUser[], act: () => Promise<unknown> | unknown): Promise<Record<string, unknown>[][]> {
  const queues = await Promise.all(users.map((u) => register(s, u, ['typing', 'typing_edit_message'])));
  await act();
  return Promise.all(users.map((u, i) => eventsSince(s, u, queues[i]!)));
}

const strip = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...event }) => event);

t.test('direct: the other participants get a typing event naming the sender and every participant; the sender gets none', async (t) => {
  const [a, b, c] = await eventsOf([alice, bob, carol], () => typing(t, alice, { op: 'start', to: [bob.user_id, carol.user_id] }, OK));
  const event = { type: 'typing', op: 'start', message_type: 'direct', sender: person(alice), recipients: [person(bob), person(carol), person(alice)] };
  t.same(strip(b!), [event, event], 'once over HTTP, once in-process');
  t.same(strip(c!), [event, event]);
  t.same(a, [], 'not the sender');
});

t.test('type defaults to direct; stop events; the sender listed in `to` keeps its place', async (t) => {
  const [b] = await eventsOf([bob], () => typing(t, alice, { op: 'stop', type: 'direct', to: [alice.user_id, bob.user_id] }, OK));
  t.same(strip(b!)[0], { type: 'typing', op: 'stop', message_type: 'direct', sender: person(alice), recipients: [person(alice), person(bob)] });
});

t.test('a deactivated participant is listed but gets nothing', async (t) => {
  const gone = await s.user('member');
  s.chat.admin.deactivateUser(gone.user_id);
  const [b] = await eventsOf([bob], () => typing(t, alice, { op: 'start', to: [bob.user_id, gone.user_id] }, OK));
  t.same((b![0] as { recipients: unknown }).recipients, [person(bob), { user_id: gone.user_id, email: gone.email }, person(alice)]);
});

t.test('direct: Zulip\'s errors for to', async (t) => {
  await typing(t, alice, { op: 'start' }, badRequest("Missing 'to' argument"), 'no to');
  await typing(t, alice, { op: 'start', to: [] }, badRequest("Empty 'to' list"), 'empty list');
  await typing(t, alice, { op: 'start', to: [bob.user_id, 999999] }, badRequest('Invalid user ID 999999'), 'unknown user');
  await typing(t, alice, { op: 'start', to: [bob.email] }, badRequest('to[0] is not an integer'), 'emails (Zulip dropped them at feature level 11)');
  await typing(t, alice, { op: 'start', to: bob.user_id }, badRequest('to is not a list'), 'not a list');
});

t.test("op and type: Zulip's errors", async (t) => {
  await typing(t, alice, { to: [bob.user_id] }, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'op' argument" }, 'no op');
  await typing(t, alice, { op: 'typing', to: [bob.user_id] }, badRequest('Invalid op'), 'unknown op');
  await typing(t, alice, { op: 'start', type: 'private', to: [bob.user_id] }, badRequest('Invalid type'), '"private" (refused since feature level 215)');
});

t.test('channel: subscribers but the sender get stream_id and topic, as "stream" or "channel"', async (t) => {
  for (const type of ['stream', 'channel']) {
    nowMs += TYPING_REPEAT_MS;
    const [a, b, o, c] = await eventsOf([alice, bob, s.owner, carol], () =>
      s.request('POST', '/typing', { as: alice, params: { op: 'start', type, stream_id: channelId, topic: 'lunch' } }),
    );
    const event = { type: 'typing', op: 'start', message_type: 'stream', sender: person(alice), stream_id: channelId, topic: 'lunch' };
    t.same(strip(b!), [event], `${type}: a subscriber`);
    t.same(strip(o!), [event], `${type}: another subscriber`);
    t.same(c, [], `${type}: not a non-subscriber`);
    t.same(a, [], `${type}: not the sender`);
  }
  await typing(t, bob, { op: 'stop', type: 'channel', stream_id: channelId, topic: 'lunch' }, OK);
});

t.test('channel: "(no topic)" is the empty topic', async (t) => {
  const [b] = await eventsOf([bob], () => api.typing.send(alice.user_id, { op: 'start', type: 'channel', streamId: channelId, topic: '(no topic)' }));
  t.equal((b![0] as { topic: string }).topic, '');
});

t.test("channel: Zulip's errors", async (t) => {
  await typing(t, alice, { op: 'start', type: 'channel', topic: 'x' }, badRequest("Missing 'stream_id' argument"), 'no stream_id');
  await typing(t, alice, { op: 'start', type: 'stream', stream_id: channelId }, badRequest('Missing topic'), 'no topic');
  await typing(t, alice, { op: 'start', type: 'channel', stream_id: 999999, topic: 'x' }, badRequest('Invalid channel ID'), 'unknown channel');
  await typing(t, alice, { op: 'start', type: 'channel', stream_id: secretId, topic: 'x' }, badRequest('Invalid channel ID'), 'a private channel of others');
  const guest = await s.user('guest');
  await typing(t, guest, { op: 'start', type: 'channel', stream_id: channelId, topic: 'x' }, badRequest('Invalid channel ID'), 'a guest, not subscribed');
});

t.test('channels with more than 100 subscribers get no typing events', async (t) => {
  const crowd = [];
  for (let i = 0; i < 100; i += 1) crowd.push((await s.user('member')).user_id);
  api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'crowd' }], principals: [alice.user_id, bob.user_id, ...crowd.slice(0, 98)] });
  const crowdId = api.streams.getId(alice.user_id, { stream: 'crowd' }).stream_id;
  const params = { op: 'start', type: 'channel', stream_id: crowdId, topic: 't' };
  let [b] = await eventsOf([bob], () => typing(t, alice, params, OK));
  t.equal(b!.length, 2, '100 subscribers: still told');
  api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'crowd' }], principals: [crowd[99]!] });
  [b] = await eventsOf([bob], () => typing(t, alice, params, OK));
  t.same(b, [], '101 subscribers: no event');
});

t.test('bots may send typing notifications', async (t) => {
  const bot = await s.user('member', { bot: true });
  const [b] = await eventsOf([bob], () => typing(t, bot, { op: 'start', to: [bob.user_id] }, OK));
  t.equal(b!.length, 2);
});

t.test('editing: the other recipients of a channel message get typing_edit_message', async (t) => {
  const id = api.messages.send(alice.user_id, { type: 'stream', to: 'typing', topic: 'plans', content: 'hi' }).id;
  const [a, b, o] = await eventsOf([alice, bob, s.owner], () => editTyping(t, alice, id, { op: 'start' }, OK));
  const event = { type: 'typing_edit_message', op: 'start', sender_id: alice.user_id, message_id: id, recipient: { type: 'channel', channel_id: channelId, topic: 'plans' } };
  t.same(strip(b!), [event, event]);
  t.same(strip(o!), [event, event]);
  t.same(a, [], 'not the editor');
});

t.test('editing: a direct message names every active participant', async (t) => {
  const id = api.messages.send(alice.user_id, { type: 'direct', to: [bob.user_id, carol.user_id], content: 'hi' }).id;
  const [b, c] = await eventsOf([bob, carol], () => editTyping(t, alice, id, { op: 'stop' }, OK));
  const ids = [alice.user_id, bob.user_id, carol.user_id].sort((x, y) => x - y);
  const event = { type: 'typing_edit_message', op: 'stop', sender_id: alice.user_id, message_id: id, recipient: { type: 'direct', user_ids: ids } };
  t.same(strip(b!), [event, event]);
  t.same(strip(c!), [event, event]);
});

t.test("editing: Zulip's errors (who may edit, the time limit without a buffer)", async (t) => {
  const id = api.messages.send(alice.user_id, { type: 'direct', to: [bob.user_id], content: 'hi' }).id;
  await editTyping(t, bob, id, { op: 'start' }, badRequest("You don't have permission to edit this message"), 'not the sender');
  await editTyping(t, carol, id, { op: 'start' }, badRequest('Invalid message(s)'), 'a message one cannot read');
  await editTyping(t, alice, 999999, { op: 'start' }, badRequest('Invalid message(s)'), 'unknown message');
  await editTyping(t, alice, id, { op: 'begin' }, badRequest('Invalid op'), 'unknown op');
  await editTyping(t, alice, id, {}, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'op' argument" }, 'no op');
  // Over HTTP a window before the limit, in-process at the limit (the throttle's window between them).
  nowMs += 600_000 - TYPING_REPEAT_MS;
  await editTyping(t, alice, id, { op: 'start' }, OK, 'at the limit');
  nowMs += 1000;
  await editTyping(t, alice, id, { op: 'start' }, badRequest('The time limit for editing this message has passed'), 'a second later');
});

/** Typing events `user` got while `act` ran, without ids. */
async function typingEventsOf(user: TestUser, act: () => Promise<unknown> | unknown): Promise<Record<string, unknown>[]> {
  const [events] = await eventsOf([user], act);
  return strip(events!);
}

const send = (as: TestUser, params: Params) => s.request('POST', '/typing', { as, params });

t.test('the same op again in a conversation within 5 s is answered success and passed on to no one; after 5 s it passes again', async (t) => {
  nowMs += TYPING_REPEAT_MS;
  const events = await typingEventsOf(bob, async () => {
    for (let i = 0; i < 20; i += 1) t.equal((await send(alice, { op: 'start', to: [bob.user_id] })).status, 200);
    for (let i = 0; i < 5; i += 1) api.typing.send(alice.user_id, { op: 'start', to: [bob.user_id] });
    nowMs += TYPING_REPEAT_MS - 1;
    await send(alice, { op: 'start', to: [bob.user_id] });
    nowMs += 1;
    await send(alice, { op: 'start', to: [bob.user_id] });
  });
  t.same(events.map((e) => e.op), ['start', 'start'], '26 starts within the window: one; the next window: one more');
});

t.test('the throttle is per sender and per conversation: other conversations and other senders pass', async (t) => {
  nowMs += TYPING_REPEAT_MS;
  const events = await typingEventsOf(bob, async () => {
    await send(alice, { op: 'start', to: [bob.user_id] });
    await send(alice, { op: 'start', to: [bob.user_id, carol.user_id] });
    await send(alice, { op: 'start', to: [carol.user_id, bob.user_id, alice.user_id] });
    await send(carol, { op: 'start', to: [bob.user_id] });
    await send(alice, { op: 'start', type: 'channel', stream_id: channelId, topic: 'one' });
    await send(alice, { op: 'start', type: 'channel', stream_id: channelId, topic: 'ONE' });
    await send(alice, { op: 'start', type: 'channel', stream_id: channelId, topic: 'two' });
  });
  t.same(
    events.map((e) => [(e.sender as { user_id: number }).user_id, e.message_type, e.topic ?? (e.recipients as { user_id: number }[]).length]),
    [
      [alice.user_id, 'direct', 2],
      [alice.user_id, 'direct', 3],
      [carol.user_id, 'direct', 2],
      [alice.user_id, 'stream', 'one'],
      [alice.user_id, 'stream', 'two'],
    ],
    'the group conversation is one whatever the order of `to`; a topic is one whatever its case',
  );
});

t.test("what Zulip's clients send all passes: start and stop as the user types and sends, start again every 10 s or 30 s", async (t) => {
  nowMs += TYPING_REPEAT_MS;
  const expected: string[] = [];
  const events = await typingEventsOf(bob, async () => {
    // Typing, sending (stop), typing the next message at once, several times within a second.
    for (let i = 0; i < 4; i += 1) {
      for (const op of ['start', 'stop']) {
        await send(alice, { op, to: [bob.user_id] });
        expected.push(op);
        nowMs += 100;
      }
    }
    // Typing on and on: start repeated every 10 s (clients before feature level 204), then every 30 s.
    for (const every of [10_000, 10_000, 30_000, 30_000]) {
      nowMs += every;
      await send(alice, { op: 'start', to: [bob.user_id] });
      expected.push('start');
    }
  });
  t.same(events.map((e) => e.op), expected, 'every one of them');
});

t.test('editing: the same op again on a message within 5 s is dropped too', async (t) => {
  nowMs += TYPING_REPEAT_MS;
  const id = api.messages.send(alice.user_id, { type: 'direct', to: [bob.user_id], content: 'to edit' }).id;
  const events = await typingEventsOf(bob, async () => {
    for (const op of ['start', 'start', 'start', 'stop', 'stop', 'start']) {
      t.equal((await s.request('POST', `/messages/${id}/typing`, { as: alice, params: { op } })).status, 200);
    }
  });
  t.same(events.map((e) => e.op), ['start', 'stop', 'start']);
});
