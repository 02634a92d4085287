// Message edit history (Zulip's get_message_edit_history, fill_edit_history_entries and the
// message object's edit_history / last_edit_timestamp / last_moved_timestamp), and local echo
// (local_message_id in the message event of the queue named in POST /messages).
import t from 'tap';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, bothFail, first, memberPair, ok, poll, sendDirect, sendToStream } from './messaging_helpers.js';
import { checkSchemas } from './messaging_events.js';

let now = 1_700_000_000_000;
const s: TestServer = await startServer({ clock: () => now });
t.teardown(() => s.close());
const api = s.chat.api;
const seconds = () => Math.floor(now / 1000);

const history = async (user: TestUser, id: number) => ok(t, await s.request('GET', `/messages/${id}/history`, { as: user })).message_history;
const edit = (user: TestUser, id: number, params: Record<string, unknown>) => s.request('PATCH', `/messages/${id}`, { as: user, params });
const fetched = async (user: TestUser, id: number) => ok(t, await s.request('GET', `/messages/${id}`, { as: user })).message;

t.test('a message never edited: one snapshot, no edit_history in the message object', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'plain');
  const sent = seconds();
  const id = await sendToStream(s, alice, channel, 'Topic', '**hi**');
  const expected = [{ topic: 'Topic', content: '**hi**', rendered_content: '<p><strong>hi</strong></p>', timestamp: sent, user_id: alice.user_id }];
  t.same(await history(bob, id), expected);
  t.same(api.messages.history(bob.user_id, { messageId: id }), { message_history: expected }, 'in-process too');
  const message = await fetched(bob, id);
  t.notOk('edit_history' in message || 'last_edit_timestamp' in message || 'last_moved_timestamp' in message);
  const dm = await sendDirect(s, alice, [bob.user_id], 'direct');
  t.same((await history(bob, dm))[0].topic, '', 'direct messages have an empty topic');
});

t.test('edits and moves: snapshots oldest first; edit_history newest first; the timestamps', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'edits');
  const sent = seconds();
  const id = await sendToStream(s, alice, channel, 'Old', 'one');
  now += 10_000;
  const contentAt = seconds();
  ok(t, await edit(alice, id, { content: 'two' }));
  now += 10_000;
  const movedAt = seconds();
  ok(t, await edit(bob, id, { topic: 'New' }));
  now += 10_000;
  const bothAt = seconds();
  ok(t, await edit(alice, id, { topic: 'Newer', content: 'three' }));
  t.same(await history(bob, id), [
    { topic: 'Old', content: 'one', rendered_content: '<p>one</p>', timestamp: sent, user_id: alice.user_id },
    { topic: 'Old', content: 'two', rendered_content: '<p>two</p>', timestamp: contentAt, user_id: alice.user_id, prev_content: 'one', prev_rendered_content: '<p>one</p>' },
    { topic: 'New', content: 'two', rendered_content: '<p>two</p>', timestamp: movedAt, user_id: bob.user_id, prev_topic: 'Old' },
    {
      topic: 'Newer',
      content: 'three',
      rendered_content: '<p>three</p>',
      timestamp: bothAt,
      user_id: alice.user_id,
      prev_topic: 'New',
      prev_content: 'two',
      prev_rendered_content: '<p>two</p>',
    },
  ]);
  const editHistory = [
    { user_id: alice.user_id, timestamp: bothAt, prev_content: 'two', prev_rendered_content: '<p>two</p>', prev_topic: 'New', topic: 'Newer' },
    { user_id: bob.user_id, timestamp: movedAt, prev_topic: 'Old', topic: 'New' },
    { user_id: alice.user_id, timestamp: contentAt, prev_content: 'one', prev_rendered_content: '<p>one</p>' },
  ];
  const message = await fetched(bob, id);
  t.same([message.edit_history, message.last_edit_timestamp, message.last_moved_timestamp], [editHistory, bothAt, bothAt]);
  const page = ok(t, await s.request('GET', '/messages', { as: bob, params: { anchor: id, num_before: 0, num_after: 0 } }));
  t.same(page.messages[0].edit_history, editHistory, 'GET /messages too');
});

t.test('moving a topic: every moved message gets its entry; resolving alone is no move', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'moves');
  const first = await sendToStream(s, alice, channel, 'thread', 'a');
  const second = await sendToStream(s, bob, channel, 'thread', 'b');
  now += 1000;
  const resolvedAt = seconds();
  ok(t, await edit(alice, second, { topic: '✔ thread', propagate_mode: 'change_all' }));
  for (const id of [first, second]) {
    const message = await fetched(alice, id);
    t.same(message.edit_history, [{ user_id: alice.user_id, timestamp: resolvedAt, prev_topic: 'thread', topic: '✔ thread' }], `message ${id}`);
    t.notOk('last_moved_timestamp' in message, 'resolving is not moving');
    t.notOk('last_edit_timestamp' in message, 'nor editing');
  }
  now += 1000;
  ok(t, await edit(alice, first, { topic: 'elsewhere', propagate_mode: 'change_all' }));
  t.equal((await fetched(bob, second)).last_moved_timestamp, seconds());
  t.same((await history(bob, second)).map((h: { topic: string }) => h.topic), ['thread', '✔ thread', 'elsewhere']);
});

t.test("Zulip's error for a message one cannot read; a deleted message has no history", async (t) => {
  const { alice, bob } = await memberPair(t, s, 'errors');
  const carol = await s.user('member');
  const dm = await sendDirect(s, alice, [bob.user_id], 'private');
  const expected = bad('Invalid message(s)');
  for (const id of [dm, 999_999]) {
    await bothFail(t, () => s.request('GET', `/messages/${id}/history`, { as: carol }), () => api.messages.history(carol.user_id, { messageId: id }), expected);
  }
  ok(t, await edit(alice, dm, { content: 'edited' }));
  ok(t, await s.request('DELETE', `/messages/${dm}`, { as: alice }));
  await bothFail(t, () => s.request('GET', `/messages/${dm}/history`, { as: bob }), () => api.messages.history(bob.user_id, { messageId: dm }), expected);
});

t.test('local echo: the queue named in POST /messages gets local_message_id; no other queue does', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'echo');
  const register = async (user: TestUser) => ok(t, await s.request('POST', '/register', { as: user, params: { event_types: ['message'] } }));
  const [mine, other, bobs] = [await register(alice), await register(alice), await register(bob)];
  const id = await sendToStream(s, alice, channel, 'hi', 'echo', { queue_id: mine.queue_id, local_id: '1.01' });
  const events = await poll(s, alice, mine);
  checkSchemas(t, events);
  t.match(events, [{ type: 'message', local_message_id: '1.01', message: { id } }]);
  t.notOk('local_message_id' in first(await poll(s, alice, other)), "the sender's other queue");
  t.notOk('local_message_id' in first(await poll(s, bob, bobs)), 'other users');

  const next = await register(bob);
  await sendDirect(s, alice, [bob.user_id], 'naming a queue of someone else', { queue_id: next.queue_id, local_id: '2' });
  t.notOk('local_message_id' in first(await poll(s, bob, next)), "another user's queue gets no local_message_id");
  const inProcess = await register(alice);
  api.messages.send(alice.user_id, { type: 'direct', to: [bob.user_id], content: 'x', queueId: inProcess.queue_id, localId: '3' });
  t.match(await poll(s, alice, inProcess), [{ local_message_id: '3' }], 'in-process too');
  const stored = s.db.prepare("SELECT payload FROM event WHERE type = 'message' ORDER BY id DESC LIMIT 1").pluck().get() as string;
  t.ok(stored.includes('_local_id'), 'stored with the event');
});
