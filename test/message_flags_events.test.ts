// The `update_message_flags` event (schema, who gets it, `messages` = what really changed,
// message_details) and unread_msgs in POST /register: its shape, the 50000 cap, and applying the
// events a change produced to the state before equals a fresh /register (Zulip's test_events.py).
import t, { type Test } from 'tap';
import { MAX_UNREAD_MESSAGES } from '../lib/domain/unread.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { ok, poll, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { applyUnreadEvents, flagsEventSchema, unreadFromRows, unreadMsgsSchema, type UnreadMsgs } from './message_flags_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

const TYPES = ['message', 'update_message_flags', 'update_message', 'subscription'];

let counter = 0;
async function world() {
  counter += 1;
  const alice = await s.user('member', { fullName: `Alice ${counter}` });
  const bob = await s.user('member', { fullName: `Bob ${counter}` });
  const carol = await s.user('member', { fullName: `Carol ${counter}` });
  const channel = `events-${counter}`;
  ok(t, await subscribe(s, alice, [channel], { principals: [alice.user_id, bob.user_id] }));
  return { alice, bob, carol, channel };
}

const streamId = (name: string): number => s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number;
const flags = (user: TestUser, messages: number[], op: string, flag: string) => s.chat.api.messageFlags.update(user.user_id, { messages, op, flag });

async function register(user: TestUser, eventTypes: string[] | null = TYPES): Promise<Record<string, any>> {
  return ok(t, await s.request('POST', '/register', { as: user, params: { event_types: eventTypes } }));
}

/** Registers, runs the change, checks the flag events' schema and that applying all events equals a fresh register and the rows. */
async function eventsApply(t: Test, user: TestUser, change: () => Promise<unknown> | unknown): Promise<Record<string, any>[]> {
  const before = await register(user);
  await change();
  const events = await poll(s, user, before);
  for (const event of events.filter((e) => e.type === 'update_message_flags')) {
    const result = flagsEventSchema.safeParse(event);
    t.ok(result.success, `update_message_flags schema${result.success ? '' : `: ${result.error.message}`}`);
  }
  const after = await register(user);
  t.ok(unreadMsgsSchema.safeParse(after.unread_msgs).success, 'unread_msgs schema');
  t.same(applyUnreadEvents(before.unread_msgs as UnreadMsgs, events, user.user_id), after.unread_msgs, 'events applied to the state before equal a fresh register');
  t.same(after.unread_msgs, unreadFromRows(s.db, user.user_id), 'unread_msgs matches the rows');
  return events;
}

const flagEvents = (events: Record<string, any>[]) => events.filter((e) => e.type === 'update_message_flags').map(({ id: _id, ...rest }) => rest);

t.test('the event goes to the acting user only and lists only the messages that changed', async (t) => {
  const { alice, bob, channel } = await world();
  const a = await sendToStream(s, alice, channel, 't', 'a');
  const b = await sendToStream(s, alice, channel, 't', 'b');
  flags(bob, [a], 'add', 'read');
  const aliceQueue = await register(alice);
  const events = await eventsApply(t, bob, () => s.request('POST', '/messages/flags', { as: bob, params: { messages: [a, b, 999999, b], op: 'add', flag: 'read' } }));
  t.same(flagEvents(events), [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [b], all: false }]);
  t.same(await poll(s, alice, aliceQueue), [], 'no event for other users');
});

t.test('the event is sent even when nothing changed', async (t) => {
  const { bob } = await world();
  const events = await eventsApply(t, bob, () => flags(bob, [999999], 'add', 'read'));
  t.same(flagEvents(events), [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: false }]);
  const none = await eventsApply(t, bob, () => flags(bob, [], 'remove', 'starred'));
  t.same(flagEvents(none), [{ type: 'update_message_flags', op: 'remove', operation: 'remove', flag: 'starred', messages: [], all: false }]);
});

t.test('new historical rows are in the event; starring leaves unread_msgs alone', async (t) => {
  const { alice, carol, channel } = await world();
  const id = await sendToStream(s, alice, channel, 't', 'x');
  const events = await eventsApply(t, carol, () => flags(carol, [id], 'add', 'starred'));
  t.same(flagEvents(events), [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [id], all: false }]);
});

t.test('marking unread: message_details for channel messages, mentions, 1:1, self and group direct messages', async (t) => {
  const { alice, bob, carol, channel } = await world();
  const plain = await sendToStream(s, alice, channel, 'Lunch', 'x');
  const mention = await sendToStream(s, alice, channel, 'Lunch', `@**Bob ${counter}** hi`);
  const wildcard = await sendToStream(s, alice, channel, 'other', '@**all** hi');
  const dm = await sendDirect(s, alice, [bob.user_id], 'dm');
  const self = await sendDirect(s, bob, [bob.user_id], 'note to self');
  const group = await sendDirect(s, carol, [alice.user_id, bob.user_id], 'group');
  const all = [plain, mention, wildcard, dm, self, group];
  flags(bob, all, 'add', 'read');
  const events = await eventsApply(t, bob, () => flags(bob, all, 'remove', 'read'));
  const sid = streamId(channel);
  t.same(flagEvents(events), [
    {
      type: 'update_message_flags',
      op: 'remove',
      operation: 'remove',
      flag: 'read',
      messages: all,
      all: false,
      message_details: {
        [plain]: { type: 'stream', stream_id: sid, topic: 'Lunch', unmuted_stream_msg: true },
        [mention]: { type: 'stream', stream_id: sid, topic: 'Lunch', unmuted_stream_msg: true, mentioned: true },
        [wildcard]: { type: 'stream', stream_id: sid, topic: 'other', unmuted_stream_msg: true, mentioned: true },
        [dm]: { type: 'private', user_ids: [alice.user_id] },
        [self]: { type: 'private', user_ids: [] },
        [group]: { type: 'private', user_ids: [alice.user_id, carol.user_id].sort((x, y) => x - y) },
      },
    },
  ]);
});

t.test('marking unread a message of a channel one joined later: its historical row is in message_details', async (t) => {
  const { alice, carol, channel } = await world();
  const id = await sendToStream(s, alice, channel, 't', 'old');
  ok(t, await subscribe(s, carol, [channel]));
  const events = await eventsApply(t, carol, () => flags(carol, [id], 'remove', 'read'));
  t.same(flagEvents(events)[0]?.message_details, { [id]: { type: 'stream', stream_id: streamId(channel), topic: 't', unmuted_stream_msg: true } });
});

t.test('events applied equal a fresh register: sends, reads, unreads, narrows, leaving a channel, edits, mark all', async (t) => {
  const { alice, bob, carol, channel } = await world();
  const other = `${channel}-b`;
  ok(t, await subscribe(s, alice, [other], { principals: [bob.user_id] }));
  let ids: number[] = [];
  await eventsApply(t, bob, async () => {
    ids = [
      await sendToStream(s, alice, channel, 'Topic', 'a'),
      await sendToStream(s, alice, channel, 'Topic', 'b'),
      await sendToStream(s, alice, other, 'x', `@**Bob ${counter}**`),
      await sendToStream(s, alice, other, 'y', '@**topic**'),
      await sendDirect(s, alice, [bob.user_id], 'dm'),
      await sendDirect(s, carol, [alice.user_id, bob.user_id], 'group'),
      await sendDirect(s, bob, [bob.user_id], 'self'),
    ];
  });
  await eventsApply(t, bob, () => flags(bob, ids.slice(0, 3), 'add', 'read'));
  await eventsApply(t, bob, () => flags(bob, [ids[0]!, ids[2]!], 'remove', 'read'));
  await eventsApply(t, bob, () => s.chat.api.messageFlags.updateForNarrow(bob.user_id, { anchor: 'oldest', numBefore: 0, numAfter: 100, narrow: [{ operator: 'channel', operand: channel }], op: 'add', flag: 'read' }));
  await eventsApply(t, bob, () => s.chat.api.messageFlags.updateForNarrow(bob.user_id, { anchor: 'newest', numBefore: 100, numAfter: 0, narrow: null, op: 'remove', flag: 'read' }));
  await eventsApply(t, bob, () => s.request('PATCH', `/messages/${ids[0]}`, { as: alice, params: { topic: 'renamed' } }));
  await eventsApply(t, bob, () => s.request('PATCH', `/messages/${ids[1]}`, { as: alice, params: { content: `now @**Bob ${counter}**` } }));
  await eventsApply(t, bob, () => s.request('DELETE', '/users/me/subscriptions', { as: bob, params: { subscriptions: [other] } }));
  await eventsApply(t, bob, () => s.request('POST', '/mark_all_as_read', { as: bob }));
  const after = await register(bob);
  t.same(after.unread_msgs, { pms: [], streams: [], huddles: [], mentions: [], count: 0, old_unreads_missing: false });
});

t.test('mark_all_as_read in several batches: batch events, then all: true', async (t) => {
  const { alice, bob, channel } = await world();
  const insert = s.db.prepare("INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, date_sent) VALUES (?, ?, 'bulk', 'x', '<p>x</p>', 0)");
  const row = s.db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, 0)');
  s.db.transaction(() => {
    for (let i = 0; i < 2500; i++) row.run(bob.user_id, Number(insert.run(alice.user_id, streamId(channel)).lastInsertRowid));
  })();
  const events = await eventsApply(t, bob, () => s.chat.api.messageFlags.markAllAsRead(bob.user_id));
  const list = flagEvents(events);
  t.same(list.map((e) => [e.messages.length, e.all]), [[2000, false], [0, true]]);
});

t.test('unread_msgs: Zulip\'s shape, grouping and count; a muted channel counts nowhere but streams', async (t) => {
  const { alice, bob, carol, channel } = await world();
  const a = await sendToStream(s, alice, channel, 'Plans', 'a');
  const b = await sendToStream(s, alice, channel, 'plans', 'b');
  const c = await sendToStream(s, alice, channel, 'Other', `@**all** c`);
  const dm = await sendDirect(s, alice, [bob.user_id], 'dm');
  const group = await sendDirect(s, carol, [alice.user_id, bob.user_id], 'group');
  const sid = streamId(channel);
  const members = [alice.user_id, bob.user_id, carol.user_id].sort((x, y) => x - y).join(',');
  const expected = {
    pms: [{ other_user_id: alice.user_id, sender_id: alice.user_id, unread_message_ids: [dm] }],
    streams: [
      { stream_id: sid, topic: 'Other', unread_message_ids: [c] },
      { stream_id: sid, topic: 'Plans', unread_message_ids: [a, b] },
    ],
    huddles: [{ user_ids_string: members, unread_message_ids: [group] }],
    mentions: [c],
    count: 5,
    old_unreads_missing: false,
  };
  t.same((await register(bob)).unread_msgs, expected);
  s.db.prepare('UPDATE subscription SET is_muted = 1 WHERE user_id = ? AND stream_id = ?').run(bob.user_id, sid);
  t.same((await register(bob)).unread_msgs, { ...expected, mentions: [], count: 2 }, 'muted: no count, no wildcard mention');
  flags(bob, [a], 'add', 'read');
  const before = await register(bob);
  flags(bob, [a], 'remove', 'read');
  const events = await poll(s, bob, before);
  t.same(events[0]?.message_details, { [a]: { type: 'stream', stream_id: sid, topic: 'Plans', unmuted_stream_msg: false } });
  t.same(applyUnreadEvents(before.unread_msgs, events, bob.user_id, new Set([sid])), (await register(bob)).unread_msgs);
  s.db.prepare('UPDATE subscription SET is_muted = 0 WHERE user_id = ? AND stream_id = ?').run(bob.user_id, sid);
});

t.test('unread_msgs only when both message and update_message_flags events are wanted', async (t) => {
  const { bob } = await world();
  t.notOk('unread_msgs' in (await register(bob, ['update_message_flags'])));
  t.notOk('unread_msgs' in (await register(bob, ['message'])));
  t.ok('unread_msgs' in (await register(bob, ['message', 'update_message_flags'])));
  t.ok('unread_msgs' in (await register(bob, null)));
});

t.test(`unread_msgs covers the newest ${MAX_UNREAD_MESSAGES} unread messages; old_unreads_missing says when there are more`, async (t) => {
  const { alice, bob, channel } = await world();
  const insert = s.db.prepare("INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, date_sent) VALUES (?, ?, 'bulk', 'x', '<p>x</p>', 0)");
  const row = s.db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, 0)');
  const ids: number[] = [];
  s.db.transaction(() => {
    for (let i = 0; i < MAX_UNREAD_MESSAGES; i++) {
      const id = Number(insert.run(alice.user_id, streamId(channel)).lastInsertRowid);
      row.run(bob.user_id, id);
      ids.push(id);
    }
  })();
  const full = (await register(bob, ['message', 'update_message_flags'])).unread_msgs;
  t.same([full.count, full.old_unreads_missing, full.streams[0].unread_message_ids.length], [MAX_UNREAD_MESSAGES, true, MAX_UNREAD_MESSAGES], 'Zulip: reaching the cap counts as truncated');
  flags(bob, [ids[0]!], 'add', 'read');
  const below = (await register(bob, ['message', 'update_message_flags'])).unread_msgs;
  t.same([below.count, below.old_unreads_missing], [MAX_UNREAD_MESSAGES - 1, false]);
  const newer = await sendToStream(s, alice, channel, 'bulk', 'one more');
  flags(bob, [ids[0]!], 'remove', 'read');
  const over = (await register(bob, ['message', 'update_message_flags'])).unread_msgs;
  t.same([over.count, over.old_unreads_missing], [MAX_UNREAD_MESSAGES, true]);
  t.equal(over.streams[0].unread_message_ids[0], ids[1], 'the oldest are left out');
  t.equal(over.streams[0].unread_message_ids.at(-1), newer);
  await s.chat.api.messageFlags.markAllAsRead(bob.user_id);
});
