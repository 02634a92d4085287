// Zulip's mobile app (zulip-flutter) gets past start-up: its exact POST /register (no event or
// fetch types, JSON-encoded values, client_capabilities, its User-Agent) answers what its
// InitialSnapshot parser requires, and the emoji data file it then fetches without credentials.
import t from 'tap';
import { z } from 'zod';
import { bothFail } from './assertions.js';
import { clientWorld, parses } from './register_helpers.js';

const int = z.int();
const ids = z.array(int);
const groupSetting = z.union([int, z.object({ direct_members: ids, direct_subgroups: ids })]);

// The app's required fields (absent or null fails the parse); optional ones typed when present.
const user = z.looseObject({
  user_id: int,
  email: z.string(),
  full_name: z.string(),
  date_joined: z.string(),
  is_active: z.boolean().optional(),
  is_bot: z.boolean(),
  role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]),
  timezone: z.string(),
  avatar_version: int,
  delivery_email: z.string().nullish(),
  bot_type: int.nullish(),
  bot_owner_id: int.nullish(),
  avatar_url: z.string().nullish(),
  profile_data: z.record(z.string(), z.looseObject({ value: z.string(), rendered_value: z.string().nullish() })).optional(),
  is_system_bot: z.boolean().optional(),
});
const stream = z
  .looseObject({
    stream_id: int,
    name: z.string(),
    description: z.string(),
    rendered_description: z.string(),
    date_created: int,
    invite_only: z.boolean(),
    is_web_public: z.boolean(),
    history_public_to_subscribers: z.boolean(),
    is_archived: z.boolean().optional(),
    first_message_id: int.nullish(),
    message_retention_days: int.nullish(),
    topics_policy: z.enum(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only']).optional(),
    stream_post_policy: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).nullish(),
    folder_id: int.nullish(),
    can_add_subscribers_group: groupSetting.optional(),
    can_delete_any_message_group: groupSetting.optional(),
    can_delete_own_message_group: groupSetting.optional(),
    can_send_message_group: groupSetting.optional(),
    can_subscribe_group: groupSetting.optional(),
    is_recently_active: z.boolean().nullish(),
    stream_weekly_traffic: int.nullish(),
  })
  // Sending checks can_send_message_group, else stream_post_policy.
  .refine((s) => s.can_send_message_group !== undefined || s.stream_post_policy != null, 'a send permission');
const subscription = stream.and(z.looseObject({ pin_to_top: z.boolean(), is_muted: z.boolean(), color: z.string().regex(/^#[0-9a-f]{6}$/) }));
const unreadIds = z.looseObject({ unread_message_ids: ids });

export const initialSnapshot = z.looseObject({
  queue_id: z.string(),
  last_event_id: int,
  zulip_feature_level: int.min(277),
  zulip_version: z.string(),
  zulip_merge_base: z.string(),
  alert_words: z.array(z.string()),
  custom_profile_fields: z.array(
    z.looseObject({ id: int, type: int, order: int, name: z.string(), hint: z.string(), field_data: z.string(), display_in_profile_summary: z.boolean().nullish() }),
  ),
  max_stream_name_length: int,
  max_topic_length: int,
  server_presence_ping_interval_seconds: int,
  server_presence_offline_threshold_seconds: int,
  muted_users: z.array(z.looseObject({ id: int })),
  presences: z.record(z.string().regex(/^\d+$/), z.looseObject({ active_timestamp: int, idle_timestamp: int })),
  realm_emoji: z.record(
    z.string(),
    z.looseObject({ id: z.string(), name: z.string(), source_url: z.string(), deactivated: z.boolean(), still_url: z.string().nullish(), author_id: int.nullish() }),
  ),
  realm_user_groups: z.array(
    z.looseObject({ id: int, members: ids, direct_subgroup_ids: ids, name: z.string(), description: z.string(), is_system_group: z.boolean(), deactivated: z.boolean().optional() }),
  ),
  recent_private_conversations: z.array(z.looseObject({ max_message_id: int, user_ids: ids })),
  subscriptions: z.array(subscription),
  unread_msgs: z.looseObject({
    count: int,
    pms: z.array(unreadIds.and(z.looseObject({ other_user_id: int }))),
    streams: z.array(unreadIds.and(z.looseObject({ stream_id: int, topic: z.string() }))),
    huddles: z.array(unreadIds.and(z.looseObject({ user_ids_string: z.string() }))),
    mentions: ids,
    old_unreads_missing: z.boolean(),
  }),
  starred_messages: ids,
  streams: z.array(stream),
  user_status: z.record(
    z.string().regex(/^\d+$/),
    z.looseObject({
      status_text: z.string().optional(),
      emoji_name: z.string().optional(),
      emoji_code: z.string().optional(),
      reaction_type: z.enum(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']).optional(),
    }),
  ),
  user_settings: z.looseObject({
    starred_message_counts: z.boolean(),
    display_emoji_reaction_users: z.boolean(),
    emojiset: z.enum(['google', 'google-blob', 'twitter', 'text']),
    presence_enabled: z.boolean(),
    twenty_four_hour_time: z.boolean().nullish(),
  }),
  user_topics: z.array(z.looseObject({ stream_id: int, topic_name: z.string(), last_updated: int, visibility_policy: int })),
  realm_wildcard_mention_policy: z.union([1, 2, 3, 5, 6, 7].map((n) => z.literal(n)) as [z.ZodLiteral<number>, z.ZodLiteral<number>]),
  realm_name: z.string(),
  realm_waiting_period_threshold: int,
  realm_allow_message_editing: z.boolean(),
  realm_enable_read_receipts: z.boolean(),
  realm_icon_url: z.string(),
  realm_presence_disabled: z.boolean(),
  realm_default_external_accounts: z.record(z.string(), z.looseObject({ name: z.string(), text: z.string(), hint: z.string(), url_pattern: z.string() })),
  max_file_upload_size_mib: int,
  server_emoji_data_url: z.url({ protocol: /^https?$/ }),
  event_queue_longpoll_timeout_seconds: int,
  realm_users: z.array(user),
  realm_non_active_users: z.array(user),
  cross_realm_bots: z.array(user),
  // Optional in the parse, needed at run time (§3 of the app's contract: asserts and null checks).
  realm_topics_policy: z.enum(['allow_empty_topic', 'disable_empty_topic']),
  realm_can_delete_own_message_group: groupSetting,
  realm_can_delete_any_message_group: groupSetting,
  realm_empty_topic_display_name: z.string(),
  realm_message_content_edit_limit_seconds: int.nullable(),
  realm_message_content_delete_limit_seconds: int.nullable(),
  server_typing_started_expiry_period_milliseconds: int,
  server_typing_stopped_wait_period_milliseconds: int,
  server_typing_started_wait_period_milliseconds: int,
  server_thumbnail_formats: z.array(z.looseObject({ name: z.string(), max_width: int, max_height: int, animated: z.boolean(), format: z.string() })),
  saved_snippets: z.array(z.looseObject({ id: int, title: z.string(), content: z.string(), date_created: int })),
  channel_folders: z.array(z.looseObject({ id: int, name: z.string(), description: z.string(), rendered_description: z.string(), is_archived: z.boolean() })),
});

const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  include_deactivated_groups: true,
  empty_topic_name: true,
  individual_emoji_changes: true,
};

/** The app's request: every value JSON-encoded (idle_queue_timeout a JSON string, quotes included). */
const FLUTTER_REGISTER = {
  idle_queue_timeout: '"mobile"',
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: CLIENT_CAPABILITIES,
};
const FLUTTER_UA = 'ZulipFlutter/30.0.274+274 (Android 14)';

t.test("the mobile app's POST /register parses as its InitialSnapshot and holds what it checks at start-up", async (t) => {
  const { s, me, alice, bob, messages } = await clientWorld(t);
  const reply = await s.request('POST', '/register', { as: me, params: FLUTTER_REGISTER, headers: { 'user-agent': FLUTTER_UA } });
  t.equal(reply.status, 200);
  const body = reply.body;
  parses(t, initialSnapshot, body, 'InitialSnapshot parses');
  t.same(body.ignored_parameters_unsupported, ['idle_queue_timeout'], 'only idle_queue_timeout is ignored');
  t.ok(body.realm_users.some((u: { user_id: number }) => u.user_id === me.user_id), 'the self-user is in realm_users');
  const settings = (await s.request('GET', '/server_settings')).body;
  t.equal(body.realm_name, settings.realm_name, 'realm_name as /server_settings');
  t.equal(body.realm_icon_url, settings.realm_icon, 'realm_icon_url as /server_settings realm_icon');
  // Zulip's default icon with gravatar on: the identicon of the organization's (empty) string_id.
  t.equal(settings.realm_icon, 'https://secure.gravatar.com/avatar/d41d8cd98f00b204e9800998ecf8427e?d=identicon', 'a URL that serves an image');
  t.same(body.presences, {}, 'no presence recorded');
  t.same(
    body.recent_private_conversations,
    [
      { max_message_id: messages.self, user_ids: [] },
      { max_message_id: messages.group, user_ids: [alice.user_id, bob.user_id] },
      { max_message_id: messages.direct, user_ids: [alice.user_id] },
    ],
    'recent_private_conversations: newest first, other participants only',
  );
  t.same(body.starred_messages, [messages.direct], 'starred_messages from the starred flag');
  t.same(body.unread_msgs.mentions, [messages.channel], 'the unread mention');
  t.equal(body.max_file_upload_size_mib, 25, "parley's upload limit");
  t.equal(body.event_queue_longpoll_timeout_seconds, 90, "Zulip's long-poll timeout, above the heartbeat");
  t.ok(body.server_emoji_data_url.startsWith('http://localhost:9991/static/generated/emoji/'), 'under the organization URL');
  const inProcess = s.chat.api.events.register(me.user_id, { clientCapabilities: CLIENT_CAPABILITIES, applyMarkdown: true, slimPresence: true }) as Record<string, unknown>;
  parses(t, initialSnapshot, inProcess, 'in-process: InitialSnapshot parses');
});

t.test('server_emoji_data_url: code_to_names without credentials, cached for good; other names are not found', async (t) => {
  const { s, me } = await clientWorld(t);
  const url = (await s.request('POST', '/register', { as: me, params: { fetch_event_types: ['realm'] } })).body.server_emoji_data_url as string;
  const path = new URL(url).pathname;
  t.match(path, /^\/static\/generated\/emoji\/emoji_api\.[0-9a-f]{16}\.json$/);
  const response = await fetch(s.url + path);
  t.equal(response.status, 200);
  t.equal(response.headers.get('content-type'), 'application/json');
  t.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const data = z.object({ code_to_names: z.record(z.string(), z.array(z.string()).min(1)) }).strict().parse(await response.json());
  t.same(data.code_to_names['1f44d'], ['+1', 'thumbs_up', 'like'], "Zulip's names: the canonical name first, then the aliases");
  t.same(data.code_to_names['1f642'], ['smile'], "Zulip's smile, not the emoji-datasource package's (1f604)");
  t.same(data.code_to_names['1f604'], ['big_smile']);
  t.same(data.code_to_names['1f697'], ['car'], "only Zulip's names for Zulip's emoji (red_car is still accepted)");
  t.same(data.code_to_names['2764'], ['heart', 'love', 'love_you'], 'codes without variation selectors, as reactions use them');
  t.same(data.code_to_names['1f419'], ['octopus']);
  t.ok(Object.keys(data.code_to_names).length > 1500, 'every Unicode emoji');
  const fileName = path.split('/').pop()!;
  const direct = s.chat.api.emojiData.file(null, { fileName });
  t.equal(direct.status, 200);
  t.equal(direct.body, await (await fetch(s.url + path)).text(), 'in-process: the same file');
  await bothFail(
    t,
    async () => {
      const r = await fetch(`${s.url}/static/generated/emoji/emoji_api.0000000000000000.json`);
      return { status: r.status, body: (await r.json()) as Record<string, any>, headers: r.headers };
    },
    () => s.chat.api.emojiData.file(null, { fileName: 'emoji_api.0000000000000000.json' }),
    { status: 404, code: 'NOT_FOUND', msg: 'Not Found' },
  );
});
