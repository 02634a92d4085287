// SQL for the flags operations (POST /messages/flags, /messages/flags/narrow, /mark_all_as_read)
// and the unread_msgs state: one prepared statement run in a loop inside the caller's
// transaction (PERFORMANCE.md: never one big json_each statement).
import type { Store } from './db.js';

/**
 * Sets the bits of `mask` to `target` on the user's rows for the ids, skipping rows already in
 * that state. Returns, per index of `messageIds`, 1 when that row changed, else 0 (no row, or
 * already in the target state; a repeated id changes once).
 */
export function updateUserMessageFlagsWhereDifferent(
  s: Store,
  userId: number,
  messageIds: readonly number[],
  mask: number,
  target: number,
): Uint8Array {
  const update = s.prepare('UPDATE user_message SET flags = (flags & ~?) | ? WHERE user_id = ? AND message_id = ? AND (flags & ?) <> ?');
  const changed = new Uint8Array(messageIds.length);
  for (let i = 0; i < messageIds.length; i++) changed[i] = update.run(mask, target, userId, messageIds[i], mask, target).changes;
  return changed;
}

/** What marking a message unread needs: its conversation, and the user's flags (null: no row). */
export interface MessageState {
  streamId: number | null;
  directGroupId: number | null;
  topic: string;
  flags: number | null;
}

/** Per index of `messageIds`: the message and the user's flags, or undefined when there is no such message. */
export function selectMessageStates(s: Store, userId: number, messageIds: readonly number[]): (MessageState | undefined)[] {
  const select = s
    .prepare(
      `SELECT m.stream_id, m.direct_group_id, m.topic, um.flags FROM message m
       LEFT JOIN user_message um ON um.user_id = ? AND um.message_id = m.id WHERE m.id = ?`,
    )
    .raw();
  return messageIds.map((id) => {
    const row = select.get(userId, id) as [number | null, number | null, string, number | null] | undefined;
    return row && { streamId: row[0], directGroupId: row[1], topic: row[2], flags: row[3] };
  });
}

/** Writes new flag values on existing rows (parallel arrays). */
export function updateUserMessageFlagValues(s: Store, userId: number, messageIds: readonly number[], flags: readonly number[]): void {
  const update = s.prepare('UPDATE user_message SET flags = ? WHERE user_id = ? AND message_id = ?');
  for (let i = 0; i < messageIds.length; i++) update.run(flags[i], userId, messageIds[i]);
}

/** Rows for messages that enter the user's history (Zulip's historical UserMessage rows). */
export function insertHistoricalUserMessages(s: Store, userId: number, messageIds: readonly number[], flags: number): void {
  const insert = s.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)');
  for (const id of messageIds) insert.run(userId, id, flags);
}

/** An unread message of the user, with what unread_msgs groups it by. */
export interface UnreadRow {
  id: number;
  flags: number;
  streamId: number | null;
  directGroupId: number | null;
  topic: string;
}

/** The user's newest `limit` unread messages, newest first (user_message_unread partial index). */
export function selectNewestUnreadRows(s: Store, userId: number, limit: number): UnreadRow[] {
  const rows = s
    .prepare(
      `SELECT um.message_id, um.flags, m.stream_id, m.direct_group_id, m.topic
       FROM user_message um JOIN message m ON m.id = um.message_id
       WHERE um.user_id = ? AND (um.flags & 1) = 0 ORDER BY um.message_id DESC LIMIT ?`,
    )
    .raw()
    .all(userId, limit) as [number, number, number | null, number | null, string][];
  return rows.map(([id, flags, streamId, directGroupId, topic]) => ({ id, flags, streamId, directGroupId, topic }));
}

/** Ids of the user's newest `limit` unread messages, newest first (a batch of mark-all-as-read). */
export function selectNewestUnreadMessageIds(s: Store, userId: number, limit: number): number[] {
  return s
    .prepare('SELECT message_id FROM user_message WHERE user_id = ? AND (flags & 1) = 0 ORDER BY message_id DESC LIMIT ?')
    .pluck()
    .all(userId, limit) as number[];
}
