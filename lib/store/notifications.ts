// SQL for notifications (lib/notifications/): topic followers, channel settings, idleness, push
// devices, messages shown on phones (active_mobile_push_notification), missed-message entries.
import type { Store } from './db.js';

/** The bit of user_message.flags Zulip calls active_mobile_push_notification (lib/domain/flags.ts). */
const PUSHED = 4096;
const READ = 1;

/** Zulip's visibility policies of the users who set one for the topic. */
export function selectTopicPolicies(s: Store, streamId: number, topic: string): Map<number, number> {
  const rows = s.prepare('SELECT user_id, visibility_policy FROM user_topic WHERE stream_id = ? AND topic = ?').raw().all(streamId, topic) as [number, number][];
  return new Map(rows);
}

interface SubscriptionNotificationRow {
  user_id: number;
  is_muted: number;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

/** The channel's subscribers who muted it or set a notification setting of its own (a partial index). */
export function selectSubscriptionNotificationRows(s: Store, streamId: number): Map<number, SubscriptionNotificationRow> {
  const rows = s.all<SubscriptionNotificationRow>(
    `SELECT user_id, is_muted, push_notifications, email_notifications, wildcard_mentions_notify FROM subscription
     WHERE stream_id = ? AND (is_muted = 1 OR push_notifications IS NOT NULL OR email_notifications IS NOT NULL OR wildcard_mentions_notify IS NOT NULL)`,
    streamId,
  );
  return new Map(rows.map((row) => [row.user_id, row]));
}

const ACCEPTS_MESSAGES = `(event_types IS NULL OR EXISTS (SELECT 1 FROM json_each(event_types) WHERE value = 'message'))`;

/** Zulip's receiver_is_off_zulip, negated: the user has an event queue that receives messages. */
export function selectHasMessageQueue(s: Store, userId: number): boolean {
  return s.prepare(`SELECT 1 FROM event_queue WHERE user_id = ? AND ${ACCEPTS_MESSAGES} LIMIT 1`).pluck().get(userId) !== undefined;
}

/** Every user with an event queue that receives messages. */
export function selectUsersWithMessageQueues(s: Store): Set<number> {
  return new Set(s.prepare(`SELECT DISTINCT user_id FROM event_queue WHERE ${ACCEPTS_MESSAGES}`).pluck().all() as number[]);
}

/** When the user was last active (presence), in unix seconds; null when never. */
export function selectLastActiveTime(s: Store, userId: number): number | null {
  return (s.prepare('SELECT last_active_time FROM presence WHERE user_id = ?').pluck().get(userId) as number | null | undefined) ?? null;
}

/** Users active (presence) at or after `since` (unix seconds). */
export function selectUsersActiveSince(s: Store, since: number): Set<number> {
  return new Set(s.prepare('SELECT user_id FROM presence WHERE last_active_time >= ?').pluck().all(since) as number[]);
}

export function selectUsersWithPushDevices(s: Store): Set<number> {
  return new Set(s.prepare('SELECT user_id FROM device WHERE push_token_id IS NOT NULL').pluck().all() as number[]);
}

/** A push notification went out: marks the message as shown on the user's phones, unless it was read meanwhile. */
export function markPushedIfUnread(s: Store, userId: number, messageId: number): boolean {
  return s.run(`UPDATE user_message SET flags = flags | ${PUSHED} WHERE user_id = ? AND message_id = ? AND (flags & ${READ}) = 0`, userId, messageId).changes > 0;
}

/** The user's messages shown on their phones that are read now (the user_message_push_active index). */
export function selectPushedReadMessageIds(s: Store, userId: number): number[] {
  return s
    .prepare(`SELECT message_id FROM user_message WHERE user_id = ? AND (flags & ${PUSHED}) <> 0 AND (flags & ${READ}) <> 0`)
    .pluck()
    .all(userId) as number[];
}

/** Who has the message shown on their phones. */
export function selectPushedUserIds(s: Store, messageId: number): number[] {
  return s.prepare(`SELECT user_id FROM user_message WHERE message_id = ? AND (flags & ${PUSHED}) <> 0`).pluck().all(messageId) as number[];
}

export function clearPushed(s: Store, userId: number, messageIds: readonly number[]): void {
  const statement = s.prepare(`UPDATE user_message SET flags = flags & ~${PUSHED} WHERE user_id = ? AND message_id = ?`);
  for (const id of messageIds) statement.run(userId, id);
}

interface MissedMessageEmailRow {
  message_id: number;
  trigger: string;
  mentioned_group_id: number | null;
}

export function insertMissedMessageEmail(s: Store, userId: number, messageId: number, trigger: string, mentionedGroupId: number | null): void {
  s.run('INSERT OR IGNORE INTO missed_message_email (user_id, message_id, trigger, mentioned_group_id) VALUES (?, ?, ?, ?)', userId, messageId, trigger, mentionedGroupId);
}

/** The user's waiting messages that still exist, oldest first. */
export function selectMissedMessageEmails(s: Store, userId: number): MissedMessageEmailRow[] {
  return s.all<MissedMessageEmailRow>('SELECT message_id, trigger, mentioned_group_id FROM missed_message_email WHERE user_id = ? ORDER BY message_id', userId);
}

export function deleteMissedMessageEmails(s: Store, userId: number): void {
  s.run('DELETE FROM missed_message_email WHERE user_id = ?', userId);
}

export function selectHasMissedMessageEmails(s: Store, userId: number): boolean {
  return s.prepare('SELECT 1 FROM missed_message_email WHERE user_id = ? LIMIT 1').pluck().get(userId) !== undefined;
}
