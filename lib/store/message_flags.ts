// SQL for the flags operations (POST /messages/flags, /messages/flags/narrow, /mark_all_as_read)
// and the unread_msgs state: one prepared statement run in a loop inside the caller's
// transaction (measured faster than one big json_each statement: bench/README.md).
import type { Store } from './db.js';
import { STARRED_BIT, flagsSql, insertStarredRow } from './user_message.js';

/**
 * Stars (or unstars) the user's existing rows for the ids: per index of `messageIds`, 1 when that
 * row changed, else 0. Starring writes only starred_message; its foreign key is the test that the
 * user has a row (measured a third cheaper per star than reading the row first): no row fails the
 * insert alone, in the caller's open transaction, and counts as unchanged.
 */
function setStarredRows(s: Store, userId: number, messageIds: readonly number[], starred: boolean): Uint8Array {
  const changed = new Uint8Array(messageIds.length);
  if (!starred) {
    const unstar = s.prepare('DELETE FROM starred_message WHERE user_id = ? AND message_id = ?');
    for (let i = 0; i < messageIds.length; i++) changed[i] = unstar.run(userId, messageIds[i]).changes;
    return changed;
  }
  const star = s.prepare('INSERT OR IGNORE INTO starred_message (user_id, message_id) VALUES (?, ?)');
  for (let i = 0; i < messageIds.length; i++) {
    try {
      changed[i] = star.run(userId, messageIds[i]).changes;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') throw error;
    }
  }
  return changed;
}

/**
 * Sets the bits of `mask` (one flag, or flags other than starred) to `target` on the user's rows
 * for the ids, skipping rows already in that state. Returns, per index of `messageIds`, 1 when
 * that row changed, else 0 (no row, or already in the target state; a repeated id changes once).
 * Starred inserts or deletes a starred_message row and writes no page of user_message.
 */
export function updateUserMessageFlagsWhereDifferent(
  s: Store,
  userId: number,
  messageIds: readonly number[],
  mask: number,
  target: number,
): Uint8Array {
  if (mask === STARRED_BIT) return setStarredRows(s, userId, messageIds, target !== 0);
  const changed = new Uint8Array(messageIds.length);
  const update = s.prepare('UPDATE user_message SET flags = (flags & ~?) | ? WHERE user_id = ? AND message_id = ? AND (flags & ?) <> ?');
  for (let i = 0; i < messageIds.length; i++) changed[i] = update.run(mask, target, userId, messageIds[i], mask, target).changes;
  return changed;
}

/** A message's conversation: its channel and topic, or its direct-message group. */
export interface Conversation {
  streamId: number | null;
  directGroupId: number | null;
  topic: string;
}

/** Per index of `messageIds`: the message's conversation, or undefined when there is no such message. */
export function selectConversations(s: Store, messageIds: readonly number[]): (Conversation | undefined)[] {
  const select = s.prepare('SELECT stream_id, direct_group_id, topic FROM message WHERE id = ?').raw();
  return messageIds.map((id) => {
    const row = select.get(id) as [number | null, number | null, string] | undefined;
    return row && { streamId: row[0], directGroupId: row[1], topic: row[2] };
  });
}

/**
 * Clears the read bit on the user's read rows for the ids. Per index: 0 when the row did not
 * change (no row, or already unread), 1 when it changed, 2 when it changed and has one of the
 * bits of `mentionMasks[i]`. Telling 1 from 2 by which of two conditional statements matched
 * saves reading every row before writing it.
 */
export function clearUserMessageReadBits(s: Store, userId: number, messageIds: readonly number[], mentionMasks: readonly number[]): Uint8Array {
  const unmentioned = s.prepare('UPDATE user_message SET flags = flags & ~1 WHERE user_id = ? AND message_id = ? AND (flags & 1) <> 0 AND (flags & ?) = 0');
  const any = s.prepare('UPDATE user_message SET flags = flags & ~1 WHERE user_id = ? AND message_id = ? AND (flags & 1) <> 0');
  const changed = new Uint8Array(messageIds.length);
  for (let i = 0; i < messageIds.length; i++) {
    const id = messageIds[i];
    if (unmentioned.run(userId, id, mentionMasks[i]).changes === 1) changed[i] = 1;
    else if (any.run(userId, id).changes === 1) changed[i] = 2;
  }
  return changed;
}

/** Rows for messages that enter the user's history (Zulip's historical UserMessage rows). */
export function insertHistoricalUserMessages(s: Store, userId: number, messageIds: readonly number[], flags: number): void {
  const insert = s.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)');
  for (const id of messageIds) {
    insert.run(userId, id, flags & ~STARRED_BIT);
    if ((flags & STARRED_BIT) !== 0) insertStarredRow(s, userId, id);
  }
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
      `SELECT um.message_id, ${flagsSql('um')}, m.stream_id, m.direct_group_id, m.topic
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
