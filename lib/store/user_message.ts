// SQL for user_message: one row per (user, message) with the personal flags as a bit field in
// Zulip's bit order (schema.sql; names in lib/domain/flags.ts), but starred (bit 1) as a row of
// starred_message, so that starring writes no page of user_message or its partial indexes. Callers
// see one bit field: reads return `flags | (starred row exists) << 1` and writes split it. Shared
// by sending, fetching, editing and the flags operation.
import type { Store } from './db.js';

export const READ_BIT = 1;
/** Zulip's starred bit, stored as a starred_message row (bit 1 of user_message.flags is always 0). */
export const STARRED_BIT = 2;

/** SQL: whether the user_message row named `alias` is starred (starred_message's primary key). */
export function starredSql(alias: string): string {
  return `EXISTS (SELECT 1 FROM starred_message sm WHERE sm.user_id = ${alias}.user_id AND sm.message_id = ${alias}.message_id)`;
}

/** SQL for the full bit field of the user_message row named `alias` (NULL when the row is absent). */
export function flagsSql(alias: string): string {
  return `(${alias}.flags | (${starredSql(alias)} << 1))`;
}

/** Stars a row just inserted with flags that include starred. */
export function insertStarredRow(s: Store, userId: number, messageId: number): void {
  s.run('INSERT INTO starred_message (user_id, message_id) VALUES (?, ?)', userId, messageId);
}

/**
 * Inserts one row per recipient: one statement per distinct flags value over a JSON list of the
 * users (a send to 1,000 subscribers mostly has one or two), cheaper than 1,000 single runs.
 */
export function insertUserMessages(s: Store, messageId: number, userIds: readonly number[], flags: readonly number[]): void {
  const byFlags = new Map<number, number[]>();
  for (let i = 0; i < userIds.length; i++) {
    const users = byFlags.get(flags[i]!);
    if (users) users.push(userIds[i]!);
    else byFlags.set(flags[i]!, [userIds[i]!]);
  }
  const insert = s.prepare('INSERT INTO user_message (user_id, message_id, flags) SELECT value, ?, ? FROM json_each(?)');
  for (const [value, users] of byFlags) {
    insert.run(messageId, value & ~STARRED_BIT, JSON.stringify(users));
    if ((value & STARRED_BIT) !== 0) for (const userId of users) insertStarredRow(s, userId, messageId);
  }
}

/** A row for the user unless they have one (a message entering their history). */
export function insertUserMessageIfAbsent(s: Store, userId: number, messageId: number, flags: number): void {
  const inserted = s.run('INSERT OR IGNORE INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)', userId, messageId, flags & ~STARRED_BIT).changes;
  if (inserted === 1 && (flags & STARRED_BIT) !== 0) insertStarredRow(s, userId, messageId);
}

/** Deletes every user's row for a message (user_message_by_message); their stars go by the foreign key's cascade. */
export function deleteUserMessagesOfMessage(s: Store, messageId: number): void {
  s.run('DELETE FROM user_message WHERE message_id = ?', messageId);
}

/**
 * Whether the user received the message when it was sent (a recipient's row; not a historical
 * row made later by starring or reacting).
 */
export function selectHasReceived(s: Store, userId: number, messageId: number): boolean {
  return s.prepare('SELECT 1 FROM user_message WHERE user_id = ? AND message_id = ? AND (flags & 1024) = 0').pluck().get(userId, messageId) !== undefined;
}

/** The user's flags on a message, or undefined when the user has no row for it. */
export function selectUserMessageFlags(s: Store, userId: number, messageId: number): number | undefined {
  return s
    .prepare(`SELECT ${flagsSql('user_message')} FROM user_message WHERE user_id = ? AND message_id = ?`)
    .pluck()
    .get(userId, messageId) as number | undefined;
}

/** [user_id, flags] of every row of a message (user_message_by_message index). */
export function selectUserMessagesOfMessage(s: Store, messageId: number): [number, number][] {
  return s.prepare(`SELECT user_id, ${flagsSql('user_message')} FROM user_message WHERE message_id = ? ORDER BY user_id`).raw().all(messageId) as [number, number][];
}

/** Sets the row's flags but starred, which stays as stored (an edit recomputes only rendered flags). */
export function updateUserMessageFlags(s: Store, userId: number, messageId: number, flags: number): void {
  s.run('UPDATE user_message SET flags = ? WHERE user_id = ? AND message_id = ?', flags & ~STARRED_BIT, userId, messageId);
}

/**
 * Sets `mask` (bits of `flags`: not starred) on the user's rows for the given messages (a prepared
 * statement in a loop: measured faster than one json_each statement).
 */
export function setUserMessageFlagBits(s: Store, userId: number, messageIds: readonly number[], mask: number): void {
  const update = s.prepare('UPDATE user_message SET flags = flags | ? WHERE user_id = ? AND message_id = ?');
  for (const id of messageIds) update.run(mask, userId, id);
}

/** The user's unread messages in a channel (user_message_unread partial index). */
export function selectUnreadMessageIdsInStream(s: Store, userId: number, streamId: number): number[] {
  return s
    .prepare(
      `SELECT um.message_id FROM user_message um JOIN message m ON m.id = um.message_id
       WHERE um.user_id = ? AND (um.flags & 1) = 0 AND m.stream_id = ? ORDER BY um.message_id`,
    )
    .pluck()
    .all(userId, streamId) as number[];
}

/** The user's unread messages in a channel's topic (case-insensitive, as topics compare). */
export function selectUnreadMessageIdsInTopic(s: Store, userId: number, streamId: number, topic: string): number[] {
  return s
    .prepare(
      `SELECT um.message_id FROM user_message um JOIN message m ON m.id = um.message_id
       WHERE um.user_id = ? AND (um.flags & 1) = 0 AND m.stream_id = ? AND m.topic = ? COLLATE NOCASE ORDER BY um.message_id`,
    )
    .pluck()
    .all(userId, streamId, topic) as number[];
}

/** Whether the user has a row for any message of the topic (Zulip's user_message_exists_for_topic). */
export function selectHasMessageInTopic(s: Store, userId: number, streamId: number, topic: string): boolean {
  return (
    s
      .prepare(
        `SELECT 1 FROM message m JOIN user_message um ON um.message_id = m.id AND um.user_id = ?
         WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE LIMIT 1`,
      )
      .pluck()
      .get(userId, streamId, topic) !== undefined
  );
}

/** The newest message the user has a row for, or -1. */
export function selectUserMaxMessageId(s: Store, userId: number): number {
  return (s.prepare('SELECT max(message_id) FROM user_message WHERE user_id = ?').pluck().get(userId) as number | null) ?? -1;
}

/** Active users of the given roles or better who have a row for the message (user_message_by_message index). */
export function selectActiveUserIdsWithRow(s: Store, messageId: number, maxRole: number): number[] {
  return s
    .prepare('SELECT um.user_id FROM user_message um JOIN user u ON u.id = um.user_id WHERE um.message_id = ? AND u.is_active = 1 AND u.role <= ?')
    .pluck()
    .all(messageId, maxRole) as number[];
}

/** The ids of the user's starred messages, ascending (starred_message's primary key). */
export function selectStarredMessageIds(s: Store, userId: number): number[] {
  return s.prepare('SELECT message_id FROM starred_message WHERE user_id = ? ORDER BY message_id').pluck().all(userId) as number[];
}

/**
 * The conversations of the user's newest `limit` direct messages: their members (direct_group's
 * member_key, sorted ids) and the newest of those message ids, newest first (index user_message_private).
 */
export function selectRecentDirectConversations(s: Store, userId: number, limit: number): { memberKey: string; maxMessageId: number }[] {
  const rows = s
    .prepare(
      `SELECT g.member_key, max(m.id) AS max_id FROM (
         SELECT message_id FROM user_message WHERE user_id = ? AND (flags & 2048) <> 0 ORDER BY message_id DESC LIMIT ?
       ) recent JOIN message m ON m.id = recent.message_id JOIN direct_group g ON g.id = m.direct_group_id
       GROUP BY g.id ORDER BY max_id DESC`,
    )
    .raw()
    .all(userId, limit) as [string, number][];
  return rows.map(([memberKey, maxMessageId]) => ({ memberKey, maxMessageId }));
}
