// The organization as the API shows it: GET /server_settings, the `realm` part of POST /register,
// custom emoji and linkifiers (their answers, /register state and events).
// https://zulip.com/api/get-server-settings, https://zulip.com/api/register-queue
import { z } from 'zod';
import { groupSettingValueSchema } from './user_group_dicts.js';


/** GET /server_settings (lib/domain/realm.ts serverSettings). */
export const serverSettingsSchema = z.object({
  zulip_version: z.string(),
  zulip_feature_level: z.int(),
  zulip_merge_base: z.string(),
  push_notifications_enabled: z.boolean(),
  is_incompatible: z.boolean(),
  email_auth_enabled: z.boolean(),
  require_email_format_usernames: z.boolean(),
  authentication_methods: z.record(z.string(), z.boolean()),
  external_authentication_methods: z.array(z.never()).describe('Always empty: parley has no external authentication'),
  realm_url: z.string(),
  realm_uri: z.string(),
  realm_name: z.string(),
  realm_icon: z.string(),
  realm_description: z.string(),
  realm_web_public_access_enabled: z.boolean(),
});
export type ServerSettings = z.infer<typeof serverSettingsSchema>;

/** Zulip's settings that parley has no counterpart for, at Zulip's defaults (fixed). */
const zulipDefaultsSchema = z.object({
  realm_allow_edit_history: z.boolean(),
  realm_message_retention_days: z.int(),
  realm_default_external_accounts: z.object({}),
  realm_moderation_request_channel_id: z.int(),
  realm_empty_topic_display_name: z.string(),
  realm_default_language: z.string(),
  server_typing_started_expiry_period_milliseconds: z.int(),
  server_typing_stopped_wait_period_milliseconds: z.int(),
  server_typing_started_wait_period_milliseconds: z.int(),
  server_thumbnail_formats: z.array(z.never()),
});

/** The `realm` part of POST /register (lib/domain/realm_state.ts). */
export const realmStateSchema = z.object({
  realm_name: z.string(),
  realm_url: z.string(),
  realm_uri: z.string(),
  realm_description: z.string(),
  realm_date_created: z.int(),
  realm_icon_url: z.string(),
  realm_icon_source: z.string(),
  realm_bot_domain: z.string(),
  realm_push_notifications_enabled: z.boolean(),
  realm_presence_disabled: z.boolean(),
  /** options.accounts.inviteRequired (fixed while the server runs: no event changes it). */
  realm_invite_required: z.boolean(),
  /** Whether options.accounts.emailDomains restricts new accounts' addresses. */
  realm_emails_restricted_to_domains: z.boolean(),
  realm_wildcard_mention_policy: z.int(),
  realm_waiting_period_threshold: z.int(),
  realm_enable_read_receipts: z.boolean(),
  realm_can_delete_any_message_group: z.int().describe('The id of the system group role:administrators (a group-setting value)'),
  realm_can_delete_own_message_group: z.int().describe('The id of the system group role:everyone (a group-setting value)'),
  realm_can_create_bots_group: groupSettingValueSchema.describe('Whether the caller may create bots of every type: the caller alone, or no one'),
  realm_can_create_write_only_bots_group: groupSettingValueSchema.describe('Whether the caller may create incoming webhook bots: the caller alone, or no one'),
  realm_message_content_delete_limit_seconds: z.int().nullable(),
  realm_topics_policy: z.string(),
  realm_mandatory_topics: z.boolean(),
  realm_allow_message_editing: z.boolean(),
  realm_message_content_edit_limit_seconds: z.int().nullable(),
  realm_move_messages_within_stream_limit_seconds: z.int().nullable(),
  max_stream_name_length: z.int(),
  max_stream_description_length: z.int(),
  max_topic_length: z.int(),
  max_message_length: z.int(),
  max_file_upload_size_mib: z.int(),
  server_emoji_data_url: z.string(),
  event_queue_longpoll_timeout_seconds: z.int(),
  server_presence_ping_interval_seconds: z.int(),
  server_presence_offline_threshold_seconds: z.int(),
  ...zulipDefaultsSchema.shape,
});
export type RealmState = z.infer<typeof realmStateSchema>;

/** A custom emoji (Zulip's RealmEmoji dictionary). */
const realmEmojiSchema = z.object({
  id: z.string(),
  name: z.string(),
  source_url: z.string(),
  still_url: z.string().nullable(),
  deactivated: z.boolean(),
  author_id: z.int().nullable(),
});
export type RealmEmoji = z.infer<typeof realmEmojiSchema>;

/** Every custom emoji, deactivated ones included, keyed by id. */
const realmEmojiByIdSchema = z.record(z.string(), realmEmojiSchema);
export const realmEmojiListSchema = z.object({ emoji: realmEmojiByIdSchema });
export const realmEmojiStateSchema = z.object({ realm_emoji: realmEmojiByIdSchema });
export type RealmEmojiState = z.infer<typeof realmEmojiStateSchema>;

/** Zulip's LinkifierDict. */
export const linkifierSchema = z.object({
  pattern: z.string(),
  url_template: z.string(),
  id: z.int(),
  example_input: z.string().nullable(),
  reverse_template: z.string().nullable(),
  alternative_url_templates: z.array(z.string()),
});
export type Linkifier = z.infer<typeof linkifierSchema>;

/** realm_filters: Zulip's legacy [pattern, url_format, id] list, always empty here. */
export const linkifierStateSchema = z.object({
  realm_linkifiers: z.array(linkifierSchema),
  realm_filters: z.array(z.tuple([z.string(), z.string(), z.int()])),
});
export type LinkifierState = z.infer<typeof linkifierStateSchema>;

/** Who may create bots, as the caller sees it (lib/domain/bot_limits.ts). */
export const botCreationGroupsSchema = z.object({
  can_create_bots_group: groupSettingValueSchema,
  can_create_write_only_bots_group: groupSettingValueSchema,
});
export type BotCreationGroups = z.infer<typeof botCreationGroupsSchema>;

/** The realm's group settings an update_dict event may carry (those that changed). */
const realmGroupSettingsSchema = botCreationGroupsSchema.partial();

/** The organization's properties PATCH /realm changes in parley (lib/domain/realm_settings.ts). */
export const realmPropertySchema = z.enum(['name', 'description']);

export const realmEventSchemas = [
  // Zulip's simpler realm event, to every active user: /register's realm_<property> is now value.
  z.object({ type: z.literal('realm'), op: z.literal('update'), property: realmPropertySchema, value: z.string() }),
  realmEmojiStateSchema.extend({ type: z.literal('realm_emoji'), op: z.literal('update') }),
  // Zulip's realm update_dict event with the group settings that changed: who may create bots (to a
  // user whose role changed it).
  z.object({ type: z.literal('realm'), op: z.literal('update_dict'), property: z.literal('default'), data: realmGroupSettingsSchema }),
  z.object({ type: z.literal('realm_linkifiers'), realm_linkifiers: z.array(linkifierSchema) }),
] as const;
