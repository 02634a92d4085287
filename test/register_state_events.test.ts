// The message-derived lists of POST /register stay current through events: applying the events
// a change produced to the state fetched before equals a fresh /register (Zulip's test_events.py):
// starred_messages through update_message_flags (starred), recent_private_conversations through
// message events (Zulip's apply_event for both).
import t, { type Test } from 'tap';
import { z } from 'zod';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { ok, poll, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

const KEYS = ['starred_messages', 'recent_private_conversations'] as const;
const PARAMS = { event_types: ['message', 'update_message_flags'], fetch_event_types: [...KEYS] };

const conversationSchema = z.object({ max_message_id: z.int(), user_ids: z.array(z.int()) }).strict();
const stateSchema = z.object({ starred_messages: z.array(z.int()), recent_private_conversations: z.array(conversationSchema) });

type State = z.infer<typeof stateSchema>;

async function register(user: TestUser): Promise<Record<string, any>> {
  return ok(t, await s.request('POST', '/register', { as: user, params: PARAMS }));
}

const pick = (body: Record<string, any>): State => ({ starred_messages: body.starred_messages, recent_private_conversations: body.recent_private_conversations });

/** Zulip's apply_event for the two lists (starred ids kept ascending, as /register gives them). */
function applyEvents(before: State, events: readonly Record<string, any>[], userId: number): State {
  let starred = [...before.starred_messages];
  const conversations = new Map(before.recent_private_conversations.map((c) => [c.user_ids.join(','), { ...c }]));
  for (const event of events) {
    if (event.type === 'update_message_flags' && event.flag === 'starred') {
      if (event.op === 'add') starred = [...new Set([...starred, ...event.messages])].sort((a, b) => a - b);
      else starred = starred.filter((id) => !event.messages.includes(id));
    } else if (event.type === 'message' && event.message.type === 'private') {
      const userIds = (event.message.display_recipient as { id: number }[]).map((r) => r.id).filter((id) => id !== userId).sort((a, b) => a - b);
      conversations.set(userIds.join(','), { max_message_id: event.message.id, user_ids: userIds });
    }
  }
  return { starred_messages: starred, recent_private_conversations: [...conversations.values()].sort((a, b) => b.max_message_id - a.max_message_id) };
}

async function eventsApply(t: Test, users: readonly TestUser[], change: () => Promise<unknown> | unknown): Promise<void> {
  const before = new Map<number, Record<string, any>>();
  for (const user of users) before.set(user.user_id, await register(user));
  await change();
  for (const user of users) {
    const queue = before.get(user.user_id)!;
    const events = await poll(s, user, queue);
    const after = await register(user);
    t.ok(stateSchema.safeParse(pick(after)).success, `user ${user.user_id}: the lists' schema`);
    t.same(applyEvents(pick(queue), events, user.user_id), pick(after), `user ${user.user_id}: events applied to the state before equal a fresh register`);
  }
}

let counter = 0;
async function trio(): Promise<{ alice: TestUser; bob: TestUser; carol: TestUser; channel: string }> {
  counter += 1;
  const alice = await s.user('member', { fullName: `Alice State ${counter}` });
  const bob = await s.user('member', { fullName: `Bob State ${counter}` });
  const carol = await s.user('member', { fullName: `Carol State ${counter}` });
  const channel = `state-${counter}`;
  ok(t, await subscribe(s, alice, [channel], { principals: [alice.user_id, bob.user_id] }));
  return { alice, bob, carol, channel };
}

t.test('recent_private_conversations: new and continued one-to-one, group and self conversations', async (t) => {
  const { alice, bob, carol, channel } = await trio();
  await sendDirect(s, alice, [bob.user_id], 'before');
  await eventsApply(t, [alice, bob, carol], async () => {
    await sendDirect(s, bob, [alice.user_id], 'continued');
    await sendDirect(s, carol, [alice.user_id, bob.user_id], 'a new group');
    await sendDirect(s, alice, [alice.user_id], 'to myself');
    await sendToStream(s, alice, channel, 'not direct', 'a channel message changes nothing');
    await sendDirect(s, alice, [bob.user_id], 'the newest again');
  });
  const conversations = pick(await register(alice)).recent_private_conversations;
  t.same(
    conversations.map((c) => c.user_ids),
    [[bob.user_id], [alice.user_id], [bob.user_id, carol.user_id]].map((ids) => ids.filter((id) => id !== alice.user_id).sort((a, b) => a - b)),
    'newest first; oneself is never listed',
  );
});

t.test('starred_messages: starring and unstarring by ids and by narrow', async (t) => {
  const { alice, bob, channel } = await trio();
  const first = await sendToStream(s, alice, channel, 'stars', 'one');
  const second = await sendToStream(s, alice, channel, 'stars', 'two');
  const direct = await sendDirect(s, alice, [bob.user_id], 'three');
  await eventsApply(t, [alice, bob], async () => {
    ok(t, await s.request('POST', '/messages/flags', { as: bob, params: { messages: [second, first, direct], op: 'add', flag: 'starred' } }));
    ok(t, await s.request('POST', '/messages/flags', { as: bob, params: { messages: [first], op: 'remove', flag: 'starred' } }));
    ok(t, await s.request('POST', '/messages/flags', { as: alice, params: { messages: [direct], op: 'add', flag: 'starred' } }));
  });
  t.same((await register(bob)).starred_messages, [second, direct], 'ascending ids');
  await eventsApply(t, [bob], () =>
    s.request('POST', '/messages/flags/narrow', {
      as: bob,
      params: { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [{ operator: 'is', operand: 'starred' }], op: 'remove', flag: 'starred' },
    }),
  );
  t.same((await register(bob)).starred_messages, [], 'all unstarred');
});
