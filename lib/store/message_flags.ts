// SQL for the flags operations (POST /messages/flags, /messages/flags/narrow, /mark_all_as_read)
// and the unread_msgs state, over both ways a user has a message (lib/store/user_message.ts): a
// message with a period's default flags gets a user_message row when a change makes its flags
// differ, and marking read in order moves the period's read_through and drops such rows again.
// One prepared statement run in a loop inside the caller's transaction (measured faster than one
// big json_each statement: bench/README.md).
import type { Store } from './db.js';
import { advanceReadThrough, periodFlagsSql, selectPeriodsInStream, selectPeriodsWithMessages, selectPlainUnreadIds } from './subscription_periods.js';
import { READ_BIT, STARRED_BIT, flagsSql, insertStarredRow, materializeUserMessage, selectStreamOfMessage } from './user_message.js';

/** SQL: the flags a message m has by a period of user ?, NULL without one. */
const PERIOD_FLAGS = periodFlagsSql('?');

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
      // A message the user has by a period gets its row first.
      if (materializeUserMessage(s, userId, messageIds[i]!)) changed[i] = star.run(userId, messageIds[i]).changes;
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
  // A message without a row whose period's flags differ gets a row.
  const fromPeriod = s.prepare(
    `INSERT INTO user_message (user_id, message_id, flags) SELECT ?, m.id, (f & ~?) | ? FROM (SELECT m.id, ${PERIOD_FLAGS} AS f FROM message m WHERE m.id = ?) m
     WHERE f IS NOT NULL AND (f & ?) <> ? AND NOT EXISTS (SELECT 1 FROM user_message um WHERE um.user_id = ? AND um.message_id = m.id)`,
  );
  for (let i = 0; i < messageIds.length; i++) {
    const id = messageIds[i];
    changed[i] = update.run(mask, target, userId, id, mask, target).changes || fromPeriod.run(userId, mask, target, userId, id, mask, target, userId).changes;
  }
  if (mask === READ_BIT && target === READ_BIT) advanceReadThroughs(s, userId, messageIds.filter((_, i) => changed[i] === 1));
  return changed;
}

/** After messages were marked read: read_through moves forward in the periods of their channels. */
export function advanceReadThroughs(s: Store, userId: number, messageIds: readonly number[]): void {
  const streams = new Set<number>();
  for (const id of messageIds) {
    const streamId = selectStreamOfMessage(s, id);
    if (streamId !== null && streamId !== undefined) streams.add(streamId);
  }
  for (const streamId of streams) for (const period of selectPeriodsInStream(s, userId, streamId)) advanceReadThrough(s, userId, period);
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
  // A message read by its period's read_through gets an unread row (a period's flags mention no one).
  const fromPeriod = s.prepare(
    `INSERT INTO user_message (user_id, message_id, flags) SELECT ?, m.id, 0 FROM (SELECT m.id, ${PERIOD_FLAGS} AS f FROM message m WHERE m.id = ?) m
     WHERE f = 1 AND NOT EXISTS (SELECT 1 FROM user_message um WHERE um.user_id = ? AND um.message_id = m.id)`,
  );
  const changed = new Uint8Array(messageIds.length);
  for (let i = 0; i < messageIds.length; i++) {
    const id = messageIds[i];
    if (unmentioned.run(userId, id, mentionMasks[i]).changes === 1) changed[i] = 1;
    else if (any.run(userId, id).changes === 1) changed[i] = 2;
    else if (fromPeriod.run(userId, userId, id, userId).changes === 1) changed[i] = 1;
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

/** Which unread messages: of a channel, of a channel's topic, from a sender. */
export interface UnreadFilter {
  streamId?: number | undefined;
  topic?: string | undefined;
  senderId?: number | undefined;
}

/**
 * Ids of the user's newest `limit` unread messages (of the filter), newest first: unread rows
 * (user_message_unread) merged with each period's messages after its read_through that have no row.
 */
export function selectNewestUnreadMessageIds(s: Store, userId: number, limit: number, filter: UnreadFilter = {}): number[] {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.streamId !== undefined) {
    conditions.push('m.stream_id = ?');
    params.push(filter.streamId);
  }
  if (filter.topic !== undefined) {
    conditions.push('m.topic = ? COLLATE NOCASE');
    params.push(filter.topic);
  }
  if (filter.senderId !== undefined) {
    conditions.push('m.sender_id = ?');
    params.push(filter.senderId);
  }
  const where = conditions.map((c) => ` AND ${c}`).join('');
  const rows = s
    .prepare(
      conditions.length === 0
        ? // Named: the planner otherwise walks all of the user's rows by the primary key (about
          // 0.35 ms per 10,000 read messages, on every POST /register), not only the unread ones.
          'SELECT message_id FROM user_message INDEXED BY user_message_unread WHERE user_id = ? AND (flags & 1) = 0 ORDER BY message_id DESC LIMIT ?'
        : `SELECT um.message_id FROM user_message um INDEXED BY user_message_unread CROSS JOIN message m ON m.id = um.message_id
           WHERE um.user_id = ? AND (um.flags & 1) = 0${where} ORDER BY um.message_id DESC LIMIT ?`,
    )
    .pluck()
    .all(userId, ...params, limit) as number[];
  const periods = filter.streamId === undefined ? selectPeriodsWithMessages(s, userId) : selectPeriodsInStream(s, userId, filter.streamId);
  const lists = [rows, ...periods.filter((p) => p.readThrough + 1 < p.end).map((p) => selectPlainUnreadIds(s, userId, p, limit, filter))];
  return lists
    .flat()
    .sort((a, b) => b - a)
    .slice(0, limit);
}

/** An unread message of the user, with what unread_msgs groups it by. */
export interface UnreadRow {
  id: number;
  flags: number;
  streamId: number | null;
  directGroupId: number | null;
  topic: string;
}

/** The user's newest `limit` unread messages, newest first, with their flags and conversations. */
export function selectNewestUnreadRows(s: Store, userId: number, limit: number): UnreadRow[] {
  const select = s
    .prepare(
      `SELECT m.id, coalesce(${flagsSql('um')}, 0), m.stream_id, m.direct_group_id, m.topic
       FROM message m LEFT JOIN user_message um ON um.user_id = ? AND um.message_id = m.id WHERE m.id = ?`,
    )
    .raw();
  return selectNewestUnreadMessageIds(s, userId, limit).map((id) => {
    const [, flags, streamId, directGroupId, topic] = select.get(userId, id) as [number, number, number | null, number | null, string];
    return { id, flags, streamId, directGroupId, topic };
  });
}
