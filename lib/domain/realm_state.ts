// The `realm` part of POST /register (Zulip's fetch_initial_state_data under want("realm")): the
// organization row, parley's limits and rules as the settings Zulip names them, and Zulip's
// defaults for the settings parley does not have.
import type { Ctx } from '../context.js';
import { DEFAULT_UPLOAD_BYTES } from '../context.js';
import type { StateOptions } from './state_options.js';
import { botCreationGroups } from './bot_limits.js';
import { emojiDataUrl } from './emoji_data.js';
import { longpollTimeoutSeconds } from './heartbeat.js';
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from './message_addressee.js';
import { CONTENT_EDIT_LIMIT_SECONDS, TOPIC_EDIT_LIMIT_SECONDS } from './message_edit.js';
import { OFFLINE_THRESHOLD_SECONDS, PING_INTERVAL_SECONDS } from './presence.js';
import { botDomain, getRealm, pushNotificationsEnabled, REALM_ICON_URL } from './realm.js';
import type { Actor } from './roles.js';
import type { BotCreationGroups, RealmState } from './realm_dicts.js';
import { MAX_STREAM_DESCRIPTION_LENGTH, MAX_STREAM_NAME_LENGTH } from './stream_dicts.js';
import { DELETE_LIMIT_SECONDS, messageDeleteGroups } from './message_delete_settings.js';

const MIB = 1024 * 1024;

/** Zulip's settings that parley has no counterpart for, at Zulip's defaults (fixed). */
const zulipDefaults = () => ({
  realm_allow_edit_history: true,
  realm_message_retention_days: -1,
  realm_default_external_accounts: {},
  realm_moderation_request_channel_id: -1,
  realm_empty_topic_display_name: 'general chat',
  realm_default_language: 'en',
  server_typing_started_expiry_period_milliseconds: 45000,
  server_typing_stopped_wait_period_milliseconds: 12000,
  server_typing_started_wait_period_milliseconds: 30000,
  server_thumbnail_formats: [],
});

/** The realm_ names /register gives a realm property (update_dict events name it without). */
function realmKeys(groups: BotCreationGroups) {
  return { realm_can_create_bots_group: groups.can_create_bots_group, realm_can_create_write_only_bots_group: groups.can_create_write_only_bots_group };
}

export function fetchRealmState(ctx: Ctx, actor: Actor, _options: StateOptions): RealmState {
  const realm = getRealm(ctx);
  const deleteGroups = messageDeleteGroups(ctx);
  return {
    realm_name: realm.name,
    realm_url: realm.url,
    realm_uri: realm.url,
    realm_description: realm.description,
    realm_date_created: realm.dateCreated,
    realm_icon_url: REALM_ICON_URL,
    realm_icon_source: 'G',
    realm_bot_domain: botDomain(realm),
    realm_push_notifications_enabled: pushNotificationsEnabled(ctx, realm),
    realm_presence_disabled: false,
    realm_invite_required: ctx.options.accounts?.inviteRequired !== false,
    realm_emails_restricted_to_domains: (ctx.options.accounts?.emailDomains ?? []).length > 0,
    // parley's rules, as Zulip's settings: anyone may mention everyone, there is no waiting period
    // for full membership, no read receipts; administrators delete any message, everyone their
    // own for a while (lib/domain/message_delete.ts); the empty topic is allowed.
    realm_wildcard_mention_policy: 1,
    realm_waiting_period_threshold: 0,
    realm_enable_read_receipts: false,
    realm_can_delete_any_message_group: deleteGroups.can_delete_any_message_group,
    realm_can_delete_own_message_group: deleteGroups.can_delete_own_message_group,
    ...realmKeys(botCreationGroups(ctx, actor)),
    realm_message_content_delete_limit_seconds: DELETE_LIMIT_SECONDS,
    realm_topics_policy: 'allow_empty_topic',
    realm_mandatory_topics: false,
    realm_allow_message_editing: true,
    realm_message_content_edit_limit_seconds: CONTENT_EDIT_LIMIT_SECONDS,
    realm_move_messages_within_stream_limit_seconds: TOPIC_EDIT_LIMIT_SECONDS,
    max_stream_name_length: MAX_STREAM_NAME_LENGTH,
    max_stream_description_length: MAX_STREAM_DESCRIPTION_LENGTH,
    max_topic_length: MAX_TOPIC_LENGTH,
    max_message_length: MAX_MESSAGE_LENGTH,
    max_file_upload_size_mib: Math.floor((ctx.options.limits?.uploadBytes ?? DEFAULT_UPLOAD_BYTES) / MIB),
    server_emoji_data_url: emojiDataUrl(ctx),
    event_queue_longpoll_timeout_seconds: longpollTimeoutSeconds(ctx),
    server_presence_ping_interval_seconds: PING_INTERVAL_SECONDS,
    server_presence_offline_threshold_seconds: OFFLINE_THRESHOLD_SECONDS,
    ...zulipDefaults(),
  };
}
