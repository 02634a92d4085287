// Fills the state from POST /register (Zulip's fetch types: https://zulip.com/api/register-queue).
import { topicKey, type Presence, type State } from './store.js';
import type { LegacyPresence, ModernPresence, RegisterAnswer, UserStatus } from './types.js';

const sortedKey = (ids: number[]): string => [...new Set(ids)].sort((a, b) => a - b).join(',');

/** A presence in either of Zulip's formats, as timestamps of the last active and idle moments. */
export function presenceOf(entry: ModernPresence | LegacyPresence): Presence {
  if ('active_timestamp' in entry && typeof entry.active_timestamp === 'number') {
    return { active: entry.active_timestamp, idle: Number(entry.idle_timestamp) };
  }
  const legacy = entry as LegacyPresence;
  const aggregated = legacy['aggregated'] ?? legacy['website'];
  if (!aggregated) return { active: 0, idle: 0 };
  return aggregated.status === 'active' ? { active: aggregated.timestamp, idle: aggregated.timestamp } : { active: 0, idle: aggregated.timestamp };
}

export function applyInitialState(state: State, s: RegisterAnswer): void {
  state.displayEpoch++;
  state.me = {
    user_id: s.user_id ?? 0, email: s.email ?? '', delivery_email: s.delivery_email ?? '', full_name: s.full_name ?? '',
    is_admin: s.is_admin ?? false, is_owner: s.is_owner ?? false,
  };
  state.realm = {
    name: s.realm_name ?? '', icon: s.realm_icon_url ?? '', description: s.realm_description ?? '', url: s.realm_url ?? '',
    maxMessageId: s.max_message_id ?? -1, pingSeconds: s.server_presence_ping_interval_seconds ?? 60,
    offlineSeconds: s.server_presence_offline_threshold_seconds ?? 140, maxStreamName: s.max_stream_name_length ?? 60,
  };
  state.users = new Map((s.realm_users ?? []).map((u) => [u.user_id, u]));
  state.inactiveUsers = new Map((s.realm_non_active_users ?? []).map((u) => [u.user_id, u]));
  state.subs = new Map((s.subscriptions ?? []).map((sub) => [sub.stream_id, sub]));
  state.streams = new Map((s.streams ?? []).map((stream) => [stream.stream_id, stream]));
  state.defaultStreams = s.realm_default_streams ?? [];
  state.unread = new Map();
  const unread = s.unread_msgs;
  for (const entry of unread?.streams ?? []) {
    for (const id of entry.unread_message_ids) state.unread.set(id, { streamId: entry.stream_id, topic: entry.topic });
  }
  for (const entry of unread?.pms ?? []) {
    const key = sortedKey([entry.other_user_id, state.me.user_id]);
    for (const id of entry.unread_message_ids) state.unread.set(id, { dm: key });
  }
  for (const entry of unread?.huddles ?? []) {
    for (const id of entry.unread_message_ids) state.unread.set(id, { dm: entry.user_ids_string });
  }
  state.mentions = new Set(unread?.mentions ?? []);
  state.starred = new Set(s.starred_messages ?? []);
  state.drafts = new Map((s.drafts ?? []).map((d) => [d.id, d]));
  state.realmEmoji = new Map(Object.entries(s.realm_emoji ?? {}));
  state.alertWords = s.alert_words ?? [];
  state.linkifiers = s.realm_linkifiers ?? [];
  state.userStatus = new Map(Object.entries(s.user_status ?? {}).map(([id, st]): [number, UserStatus] => [Number(id), st]));
  state.navigationViews = s.navigation_views ?? [];
  state.dmKeys = (s.recent_private_conversations ?? []).map((c) => sortedKey([...c.user_ids, state.me.user_id]));
  state.presence = new Map(Object.entries(s.presences ?? {}).map(([id, p]): [number, Presence] => [Number(id), presenceOf(p)]));
  state.clockSkew = s.server_timestamp === undefined ? 0 : s.server_timestamp - Date.now() / 1000;
  state.settings = s.user_settings ?? null;
  state.userTopics = new Map((s.user_topics ?? []).map((t) => [topicKey(t.stream_id, t.topic_name), t]));
  state.mutedUsers = new Set((s.muted_users ?? []).map((m) => m.id));
  state.bots = new Map((s.realm_bots ?? []).map((b) => [b.user_id, b]));
  state.integrations = s.realm_incoming_webhook_bots ?? [];
  state.topics = new Map();
  state.typing = new Map();
}
