// The message-derived lists of POST /register stay current through events: applying the events
// a change produced to the state fetched before equals a fresh /register (Zulip's test_events.py):
// starred_messages through update_message_flags (starred), recent_private_conversations through
// message events (Zulip's apply_event for both); user_settings, muted_users, user_topics and
// muted_topics through their events.
import t, { type Test } from 'tap';
import type { z } from 'zod';
import { recentPrivateConversationsStateSchema, starredMessagesStateSchema } from '../lib/domain/recent_conversations.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { ok, poll, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

const KEYS = ['starred_messages', 'recent_private_conversations'] as const;
const PARAMS = { event_types: ['message', 'update_message_flags'], fetch_event_types: [...KEYS] };

const stateSchema = starredMessagesStateSchema.extend(recentPrivateConversationsStateSchema.shape).strict();

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

// Settings and muting: user_settings, muted_users, user_topics and muted_topics (Zulip's apply_event).
const SETTING_KEYS = ['user_settings', 'muted_users', 'user_topics', 'muted_topics'] as const;

function applySettingEvents(before: Record<string, any>, events: readonly Record<string, any>[]): Record<string, unknown> {
  const state: Record<string, any> = { user_settings: { ...before.user_settings }, muted_users: before.muted_users, user_topics: [...before.user_topics], muted_topics: before.muted_topics };
  for (const event of events) {
    if (event.type === 'user_settings') state.user_settings[event.property] = event.value;
    else if (event.type === 'muted_users') state.muted_users = event.muted_users;
    else if (event.type === 'muted_topics') state.muted_topics = event.muted_topics;
    else if (event.type === 'user_topic') {
      const same = (u: Record<string, any>) => u.stream_id === event.stream_id && u.topic_name.toLowerCase() === event.topic_name.toLowerCase();
      state.user_topics = state.user_topics.filter((u: Record<string, any>) => !same(u));
      if (event.visibility_policy !== 0) state.user_topics.push({ stream_id: event.stream_id, topic_name: event.topic_name, last_updated: event.last_updated, visibility_policy: event.visibility_policy });
    }
  }
  return state;
}

const pickSettings = (body: Record<string, any>) => Object.fromEntries(SETTING_KEYS.map((key) => [key, body[key]]));
const byTopic = (state: Record<string, any>) => ({ ...state, user_topics: [...state.user_topics].sort((a, b) => a.stream_id - b.stream_id || (a.topic_name < b.topic_name ? -1 : 1)) });

t.test('user_settings, muted_users, user_topics and muted_topics: events applied equal a fresh register', async (t) => {
  const { alice, bob, channel } = await trio();
  const streamId = s.chat.api.streams.getId(alice.user_id, { stream: channel }).stream_id;
  // Without user_topic in event_types, Zulip sends the legacy muted_topics events too.
  // Zulip leaves muted_topics out of a register that fetches user_topic: fetched on its own.
  const params = { event_types: ['user_settings', 'muted_users', 'user_topic', 'muted_topics', 'update_message_flags'], fetch_event_types: ['user_settings', 'muted_users', 'user_topic'] };
  const legacyParams = { event_types: params.event_types.filter((type) => type !== 'user_topic'), fetch_event_types: ['muted_topics'] };
  const legacy = ok(t, await s.request('POST', '/register', { as: alice, params: legacyParams }));
  const before = { ...ok(t, await s.request('POST', '/register', { as: alice, params })), muted_topics: legacy.muted_topics };
  ok(t, await s.request('POST', `/users/me/muted_users/${bob.user_id}`, { as: alice }));
  ok(t, await s.request('PATCH', '/settings', { as: alice, params: { emojiset: 'text', default_language: 'fr', enter_sends: true, timezone: 'Asia/Tokyo' } }));
  ok(t, await s.request('POST', '/user_topics', { as: alice, params: { stream_id: streamId, topic: 'one', visibility_policy: 1 } }));
  ok(t, await s.request('POST', '/user_topics', { as: alice, params: { stream_id: streamId, topic: 'two', visibility_policy: 3 } }));
  ok(t, await s.request('PATCH', '/users/me/subscriptions/muted_topics', { as: alice, params: { stream: channel, topic: 'three', op: 'add' } }));
  ok(t, await s.request('POST', '/user_topics', { as: alice, params: { stream_id: streamId, topic: 'one', visibility_policy: 2 } }));
  ok(t, await s.request('POST', '/user_topics', { as: alice, params: { stream_id: streamId, topic: 'two', visibility_policy: 0 } }));
  const modern = await poll(s, alice, before);
  t.notOk(modern.some((e) => e.type === 'muted_topics'), 'no muted_topics events for a queue that takes user_topic');
  const events = [...modern, ...(await poll(s, alice, legacy)).filter((e) => e.type === 'muted_topics')];
  const after = ok(t, await s.request('POST', '/register', { as: alice, params }));
  after.muted_topics = ok(t, await s.request('POST', '/register', { as: alice, params: legacyParams })).muted_topics;
  t.same(byTopic(applySettingEvents(pickSettings(before), events)), byTopic(pickSettings(after)), 'events applied to the state before equal a fresh register');
  t.match(after.user_settings, { emojiset: 'text', default_language: 'fr', enter_sends: true, timezone: 'Asia/Tokyo' });
  t.equal(after.user_topics.length, 2);
});
