// A user's messages and their personal flags (schema.sql): a user_message row where flags differ
// from a subscription period's default or where there is no period (direct messages, historical
// rows), else the period's default (lib/store/subscription_periods.ts). Flags are Zulip's bit
// field (names in lib/domain/flags.ts) with starred as a row of starred_message: reads return
// `flags | (starred row exists) << 1` and writes split it. The questions other parts ask of a
// user and a message are answered here, whichever way it is stored: selectUserMessageFlags,
// selectHasReceived, selectIsUnread, selectReceiverIds, selectUserMaxMessageId.
import type { Store } from './db.js';
import { periodFlags, periodFlagsSql, selectCoveringPeriod, selectUsersCovering } from './subscription_periods.js';

export const READ_BIT = 1;
/** Zulip's starred bit, stored as a starred_message row (bit 1 of user_message.flags is always 0). */
export const STARRED_BIT = 2;
/** Zulip's historical flag: a row made for a message the user did not receive. */
const HISTORICAL_BIT = 1024;

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

/** The channel of a message (null for a direct message, undefined for no message). */
export function selectStreamOfMessage(s: Store, messageId: number): number | null | undefined {
  return s.prepare('SELECT stream_id FROM message WHERE id = ?').pluck().get(messageId) as number | null | undefined;
}

/** The channel of a message its subscribers have by their periods (message.by_period), else undefined. */
export function selectPeriodStreamOfMessage(s: Store, messageId: number): number | undefined {
  return (s.prepare('SELECT stream_id FROM message WHERE id = ? AND by_period = 1').pluck().get(messageId) as number | null | undefined) ?? undefined;
}

/**
 * Writes user_message rows: one statement per distinct flags value over a JSON list of the users
 * (a send mostly has one or two), cheaper than one run per user.
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

/** A historical row for the user unless they have the message already (a row, or a period's). */
export function insertUserMessageIfAbsent(s: Store, userId: number, messageId: number, flags: number): void {
  if (selectUserMessageFlags(s, userId, messageId) !== undefined) return;
  s.run('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)', userId, messageId, flags & ~STARRED_BIT);
  if ((flags & STARRED_BIT) !== 0) insertStarredRow(s, userId, messageId);
}

/** Deletes every user's row for a message (user_message_by_message); their stars go by the foreign key's cascade. */
export function deleteUserMessagesOfMessage(s: Store, messageId: number): void {
  s.run('DELETE FROM user_message WHERE message_id = ?', messageId);
}

/** The user's flags on a message: its row's, else its period's; undefined when the user does not have it. */
export function selectUserMessageFlags(s: Store, userId: number, messageId: number): number | undefined {
  const row = s.prepare(`SELECT ${flagsSql('user_message')} FROM user_message WHERE user_id = ? AND message_id = ?`).pluck().get(userId, messageId) as number | undefined;
  if (row !== undefined) return row;
  const streamId = selectPeriodStreamOfMessage(s, messageId);
  if (streamId === undefined) return undefined;
  const period = selectCoveringPeriod(s, userId, streamId, messageId);
  return period && periodFlags(period, messageId);
}

/** Whether the user received the message when it was sent (by a period, or a recipient's row; not a historical row). */
export function selectHasReceived(s: Store, userId: number, messageId: number): boolean {
  const flags = selectUserMessageFlags(s, userId, messageId);
  return flags !== undefined && (flags & HISTORICAL_BIT) === 0;
}

/** Whether the user has the message, unread. */
export function selectIsUnread(s: Store, userId: number, messageId: number): boolean {
  const flags = selectUserMessageFlags(s, userId, messageId);
  return flags !== undefined && (flags & READ_BIT) === 0;
}

/** Whether the user received the channel message by a subscription period (not by a row). */
export function selectReceivedByPeriod(s: Store, userId: number, messageId: number): boolean {
  const streamId = selectPeriodStreamOfMessage(s, messageId);
  return streamId !== undefined && selectCoveringPeriod(s, userId, streamId, messageId) !== undefined;
}

/** The users who received the channel message by a subscription period, ascending (O(subscribers)). */
export function selectPeriodReceiverIds(s: Store, messageId: number): number[] {
  const streamId = selectPeriodStreamOfMessage(s, messageId);
  return streamId === undefined ? [] : selectUsersCovering(s, streamId, messageId);
}

/** Every user who received the message, ascending: O(recipients), for the few who need the list. */
export function selectReceiverIds(s: Store, messageId: number): number[] {
  const rows = s.prepare('SELECT user_id FROM user_message WHERE message_id = ? AND (flags & 1024) = 0').pluck().all(messageId) as number[];
  return [...new Set([...rows, ...selectPeriodReceiverIds(s, messageId)])].sort((a, b) => a - b);
}

/** [user_id, flags] of every row of a message (user_message_by_message index): users with flags other than a period's. */
export function selectUserMessagesOfMessage(s: Store, messageId: number): [number, number][] {
  return s.prepare(`SELECT user_id, ${flagsSql('user_message')} FROM user_message WHERE message_id = ? ORDER BY user_id`).raw().all(messageId) as [number, number][];
}

/** Sets the row's flags but starred, which stays as stored (an edit recomputes only rendered flags). */
export function updateUserMessageFlags(s: Store, userId: number, messageId: number, flags: number): void {
  s.run('UPDATE user_message SET flags = ? WHERE user_id = ? AND message_id = ?', flags & ~STARRED_BIT, userId, messageId);
}

/** A row for a message the user has by a period, with the period's flags, unless it has one: returns whether a row exists now. */
export function materializeUserMessage(s: Store, userId: number, messageId: number): boolean {
  if (s.prepare('SELECT 1 FROM user_message WHERE user_id = ? AND message_id = ?').pluck().get(userId, messageId) !== undefined) return true;
  const flags = selectUserMessageFlags(s, userId, messageId);
  if (flags === undefined) return false;
  s.run('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)', userId, messageId, flags);
  return true;
}

/** Whether the user has any message of the topic (Zulip's user_message_exists_for_topic): a row, or a period's. */
export function selectHasMessageInTopic(s: Store, userId: number, streamId: number, topic: string): boolean {
  return (
    s
      .prepare(
        `SELECT 1 FROM message m WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE AND (
           EXISTS (SELECT 1 FROM user_message um WHERE um.user_id = ? AND um.message_id = m.id) OR ${periodFlagsSql('?')} IS NOT NULL) LIMIT 1`,
      )
      .pluck()
      .get(streamId, topic, userId, userId) !== undefined
  );
}

/**
 * The newest message the user has, or -1: their newest row, or the newest message of one of their
 * periods (one statement: GET /users/me asks on every call; each period is one seek of message_by_period).
 */
export function selectUserMaxMessageId(s: Store, userId: number): number {
  return s
    .prepare(
      `SELECT max(coalesce((SELECT max(message_id) FROM user_message WHERE user_id = ?), -1), coalesce((
         SELECT max((SELECT max(m.id) FROM message m WHERE m.stream_id = p.stream_id AND m.by_period = 1
                     AND m.id >= p.first_message_id AND m.id < coalesce(p.end_message_id, 9007199254740991)))
         FROM subscription_period p WHERE p.user_id = ?), -1))`,
    )
    .pluck()
    .get(userId, userId) as number;
}

/** Active users of the given roles or better with a row for the message (user_message_by_message index). */
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
 * member_key, sorted ids) and the newest of those message ids, newest first (index
 * user_message_private, named: the planner otherwise walks all of the user's rows by the primary key).
 */
export function selectRecentDirectConversations(s: Store, userId: number, limit: number): { memberKey: string; maxMessageId: number }[] {
  const rows = s
    .prepare(
      `SELECT g.member_key, max(m.id) AS max_id FROM (
         SELECT message_id FROM user_message INDEXED BY user_message_private WHERE user_id = ? AND (flags & 2048) <> 0 ORDER BY message_id DESC LIMIT ?
       ) recent JOIN message m ON m.id = recent.message_id JOIN direct_group g ON g.id = m.direct_group_id
       GROUP BY g.id ORDER BY max_id DESC`,
    )
    .raw()
    .all(userId, limit) as [string, number][];
  return rows.map(([memberKey, maxMessageId]) => ({ memberKey, maxMessageId }));
}
