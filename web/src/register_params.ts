// What the client asks POST /register for (Zulip's event and fetch types:
// https://zulip.com/api/register-queue); also the boot script's request (boot.ts).

export const EVENT_TYPES = [
  'realm_user', 'subscription', 'stream', 'default_streams', 'message', 'update_message_flags', 'starred_messages', 'drafts',
  'realm_emoji', 'alert_words', 'realm_linkifiers', 'user_status', 'navigation_view', 'typing',
  'update_message', 'delete_message', 'reaction', 'presence', 'user_settings', 'user_topic', 'muted_users', 'realm', 'invites_changed', 'realm_bot',
];
// The state that needs no event type of its own to fetch (invites_changed has none: GET /invites).
export const FETCH_TYPES = [...EVENT_TYPES.filter((type) => type !== 'invites_changed'), 'navigation_views', 'recent_private_conversations', 'realm_incoming_webhook_bots'];

export const REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: true,
  slim_presence: true,
  event_types: EVENT_TYPES,
  fetch_event_types: FETCH_TYPES,
  include_subscribers: false,
};
