// Zulip Terminal gets past start-up: its POST /register (python-zulip-api's encoding: strings as
// they are, everything else JSON; its 13 fetch types; include_subscribers=true; no slim_presence)
// answers every key it reads, with the shapes it reads them in.
import t from 'tap';
import { z } from 'zod';
import { clientWorld, parses } from './register_helpers.js';

const int = z.int();
const ids = z.array(int);

const TERMINAL_EVENT_TYPES = ['message', 'update_message', 'reaction', 'submessage', 'subscription', 'typing', 'update_message_flags', 'user_settings', 'realm_emoji', 'realm_user'];
const TERMINAL_FETCH_TYPES = [
  'realm',
  'presence',
  'subscription',
  'message',
  'starred_messages',
  'update_message_flags',
  'muted_topics',
  'realm_user',
  'realm_user_groups',
  'user_settings',
  'realm_emoji',
  'custom_profile_fields',
  'zulip_version',
];
const TERMINAL_UA = 'ZulipTerminal/0.7.0+git Linux-6.8.0-x86_64-with-glibc2.39 (Ubuntu; 24.04)';

const terminalSubscription = z.looseObject({
  name: z.string(),
  stream_id: int,
  color: z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/),
  description: z.string(),
  pin_to_top: z.boolean(),
  is_muted: z.boolean(),
  desktop_notifications: z.boolean().nullable(),
  invite_only: z.boolean(),
  message_retention_days: int.nullable(),
  date_created: int,
  subscribers: ids,
  history_public_to_subscribers: z.boolean(),
  stream_weekly_traffic: int.nullable(),
  rendered_description: z.string(),
  stream_post_policy: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional(),
});

/** Every key the terminal reads with [] (a KeyError when absent), at start-up or on an action. */
const terminalState = z.looseObject({
  max_message_id: int,
  queue_id: z.string(),
  last_event_id: int,
  zulip_version: z.string(),
  zulip_feature_level: int,
  user_id: int,
  email: z.string(),
  full_name: z.string(),
  realm_name: z.string(),
  // The legacy, email-keyed format: every entry (aggregated included) with status and timestamp.
  presences: z.record(z.string(), z.record(z.string(), z.looseObject({ status: z.enum(['active', 'idle', 'offline']), timestamp: int }))),
  realm_users: z.array(z.looseObject({ user_id: int, email: z.string(), full_name: z.string(), is_bot: z.boolean() })),
  cross_realm_bots: z.array(z.looseObject({ user_id: int, email: z.string(), full_name: z.string() })),
  subscriptions: z.array(terminalSubscription),
  realm_message_retention_days: int.nullable(),
  muted_topics: z.array(z.tuple([z.string(), z.string(), int])),
  realm_user_groups: z.array(z.looseObject({ id: int, name: z.string() })),
  unread_msgs: z.looseObject({
    mentions: ids,
    pms: z.array(z.looseObject({ sender_id: int, unread_message_ids: ids })),
    streams: z.array(z.looseObject({ stream_id: int, topic: z.string(), unread_message_ids: ids })),
    huddles: z.array(z.looseObject({ user_ids_string: z.string(), unread_message_ids: ids })),
  }),
  realm_emoji: z.record(z.string(), z.looseObject({ name: z.string(), deactivated: z.boolean() })),
  user_settings: z.looseObject({
    send_private_typing_notifications: z.boolean(),
    twenty_four_hour_time: z.boolean(),
    pm_content_in_desktop_notifications: z.boolean(),
  }),
  starred_messages: ids,
  custom_profile_fields: z.array(z.looseObject({ id: int, type: int, name: z.string(), order: int, field_data: z.string() })),
  realm_allow_message_editing: z.boolean(),
  realm_message_content_edit_limit_seconds: int.nullable(),
  realm_allow_edit_history: z.boolean(),
  // Read with .get and a default; when present, of these types.
  max_stream_name_length: int,
  max_topic_length: int,
  max_message_length: int,
  server_typing_started_wait_period_milliseconds: int,
  server_typing_stopped_wait_period_milliseconds: int,
  server_typing_started_expiry_period_milliseconds: int,
  server_presence_offline_threshold_seconds: int,
  server_presence_ping_interval_seconds: int,
});

t.test("Zulip Terminal's POST /register answers every key it reads, in the shapes it reads", async (t) => {
  const { s, me, alice, messages } = await clientWorld(t);
  const params = {
    event_types: TERMINAL_EVENT_TYPES,
    fetch_event_types: TERMINAL_FETCH_TYPES,
    narrow: [],
    client_gravatar: true,
    apply_markdown: true,
    include_subscribers: true,
  };
  const reply = await s.request('POST', '/register', { as: me, params, headers: { 'user-agent': TERMINAL_UA } });
  t.equal(reply.status, 200);
  const body = reply.body;
  parses(t, terminalState, body, 'every key the terminal reads');
  t.notOk('ignored_parameters_unsupported' in body, 'every parameter understood');
  t.ok(body.realm_users.some((u: { user_id: number }) => u.user_id === me.user_id), 'the self-user is listed');
  const lobby = body.subscriptions.find((sub: { name: string }) => sub.name === 'lobby');
  t.same(lobby.subscribers, [me.user_id, alice.user_id].sort((a, b) => a - b), 'subscribers of each subscription');
  t.same(body.starred_messages, [messages.direct]);
  // The note to oneself stays unread: an API client's own message is not marked read (Zulip's read_by_sender).
  t.same(body.unread_msgs.pms.map((pm: { sender_id: number }) => pm.sender_id), [me.user_id, alice.user_id].sort((a, b) => a - b), 'pms[].sender_id');
  t.same(body.muted_topics, [], 'muted_topics: the terminal asks for it without user_topic');
  t.notOk('recent_private_conversations' in body || 'drafts' in body, 'only the fetch types asked for');
  const inProcess = s.chat.api.events.register(me.user_id, {
    eventTypes: TERMINAL_EVENT_TYPES,
    fetchEventTypes: TERMINAL_FETCH_TYPES,
    narrow: [],
    clientGravatar: true,
    applyMarkdown: true,
    includeSubscribers: true,
  }) as Record<string, unknown>;
  parses(t, terminalState, inProcess, 'in-process: every key the terminal reads');
});

t.test('subscribers: in every list with include_subscribers, in none without; muted_topics left out for user_topic clients', async (t) => {
  const { s, me, alice, bob } = await clientWorld(t);
  const register = async (params: Record<string, unknown>) => (await s.request('POST', '/register', { as: me, params })).body;
  const all = await register({ fetch_event_types: ['subscription'], include_subscribers: true });
  t.same(all.unsubscribed.find((sub: { name: string }) => sub.name === 'left behind').subscribers, [alice.user_id], 'unsubscribed');
  t.same(all.never_subscribed.find((sub: { name: string }) => sub.name === 'elsewhere').subscribers, [bob.user_id], 'never_subscribed');
  // A JSON string, as every value of include_subscribers (Zulip's Json[bool | Literal["partial"]]).
  const partial = await register({ fetch_event_types: ['subscription'], include_subscribers: '"partial"' });
  t.same(partial.subscriptions, all.subscriptions, "'partial' gets the full lists");
  const none = await register({ fetch_event_types: ['subscription'] });
  for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed']) {
    t.notOk(none[key].some((sub: object) => 'subscribers' in sub), `${key}: no subscribers by default`);
  }
  const modern = await register({ fetch_event_types: ['muted_topics', 'user_topic'] });
  t.same(modern, { ...modern, user_topics: [] });
  t.notOk('muted_topics' in modern, 'Zulip leaves muted_topics out when user_topic is asked for');
});
