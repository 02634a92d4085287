// SQL for subscription_period (schema.sql): the channel messages a user received by being
// subscribed, read up to a period's read_through and unread after unless a user_message row says
// otherwise; opening and closing periods on deactivation and reactivation (subscribing and leaving
// do it in triggers), and moving read_through forward over messages read in order.
import type { Store } from './db.js';

/** The id the next message gets (lib/store/messages.ts): ids never go back (schema.sql message_sequence). */
export const NEXT_MESSAGE_ID_SQL =
  '(max(coalesce((SELECT max(id) FROM message), 0), coalesce((SELECT last_id FROM message_sequence WHERE id = 1), 0)) + 1)';

export const READ = 1;

/** ChatOptions.largeChannelSubscribers's default: from this size on, a channel's messages are had by period. */
export const DEFAULT_LARGE_CHANNEL_SUBSCRIBERS = 250;

export interface Period {
  streamId: number;
  first: number;
  /** The first id after the period; Infinity while it lasts. */
  end: number;
  readThrough: number;
}

type PeriodTuple = [number, number, number | null, number];
const toPeriod = ([streamId, first, end, readThrough]: PeriodTuple): Period => ({ streamId, first, end: end ?? Infinity, readThrough });
const COLUMNS = 'stream_id, first_message_id, end_message_id, read_through';

/**
 * SQL: the flags message `m` has by a period of the user `user` (an SQL expression), NULL without
 * one: a message sent while its channel was big (message.by_period), in the period that covers it.
 */
export function periodFlagsSql(user: string): string {
  return `(SELECT CASE WHEN m.id <= p.read_through THEN 1 ELSE 0 END FROM subscription_period p
    WHERE m.by_period = 1 AND p.user_id = ${user} AND p.stream_id = m.stream_id AND p.first_message_id <= m.id
    AND (p.end_message_id IS NULL OR p.end_message_id > m.id))`;
}

/** The flags of a message of the period that has no user_message row. */
export function periodFlags(period: Period, messageId: number): number {
  return messageId <= period.readThrough ? READ : 0;
}

/**
 * The user's periods that hold any message (sent while their channel was big), by channel and
 * start: one statement whose EXISTS seeks message_by_period, where a query per period of every
 * channel the user is in cost about 12-20 µs each (GET /messages and unread ids query only these).
 */
export function selectPeriodsWithMessages(s: Store, userId: number): Period[] {
  return (
    s
      .prepare(
        `SELECT ${COLUMNS} FROM subscription_period p WHERE p.user_id = ? AND EXISTS (SELECT 1 FROM message m WHERE m.stream_id = p.stream_id
         AND m.by_period = 1 AND m.id >= p.first_message_id AND (p.end_message_id IS NULL OR m.id < p.end_message_id)) ORDER BY stream_id, first_message_id`,
      )
      .raw()
      .all(userId) as PeriodTuple[]
  ).map(toPeriod);
}

/** The user's periods in one channel, oldest first. */
export function selectPeriodsInStream(s: Store, userId: number, streamId: number): Period[] {
  return (
    s.prepare(`SELECT ${COLUMNS} FROM subscription_period WHERE user_id = ? AND stream_id = ? ORDER BY first_message_id`).raw().all(userId, streamId) as PeriodTuple[]
  ).map(toPeriod);
}

/** The user's period that covers a message of the channel, if any (the primary key: the last one begun by it). */
export function selectCoveringPeriod(s: Store, userId: number, streamId: number, messageId: number): Period | undefined {
  const row = s
    .prepare(`SELECT ${COLUMNS} FROM subscription_period WHERE user_id = ? AND stream_id = ? AND first_message_id <= ? ORDER BY first_message_id DESC LIMIT 1`)
    .raw()
    .get(userId, streamId, messageId) as PeriodTuple | undefined;
  const period = row && toPeriod(row);
  return period && messageId < period.end ? period : undefined;
}

/** Users whose period covers the channel message (subscription_period_by_stream: every period of the channel begun by it). */
export function selectUsersCovering(s: Store, streamId: number, messageId: number): number[] {
  return s
    .prepare(
      `SELECT user_id FROM subscription_period WHERE stream_id = ? AND first_message_id <= ?
       AND (end_message_id IS NULL OR end_message_id > ?) ORDER BY user_id`,
    )
    .pluck()
    .all(streamId, messageId, messageId) as number[];
}

export function updateReadThrough(s: Store, userId: number, period: Period, readThrough: number): void {
  s.run('UPDATE subscription_period SET read_through = ? WHERE user_id = ? AND stream_id = ? AND first_message_id = ?', readThrough, userId, period.streamId, period.first);
  period.readThrough = readThrough;
}

/** A user deactivated: their periods end (a deactivated user receives nothing). */
export function closePeriodsOfUser(s: Store, userId: number): void {
  s.run(`UPDATE subscription_period SET end_message_id = ${NEXT_MESSAGE_ID_SQL} WHERE user_id = ? AND end_message_id IS NULL`, userId);
  s.run('DELETE FROM subscription_period WHERE user_id = ? AND end_message_id = first_message_id', userId);
}

/** A user reactivated: a period begins in each channel they are subscribed to. */
export function openPeriodsOfUser(s: Store, userId: number): void {
  s.run(
    `INSERT OR REPLACE INTO subscription_period (user_id, stream_id, first_message_id, end_message_id, read_through)
     SELECT user_id, stream_id, next, NULL, next - 1 FROM subscription, (SELECT ${NEXT_MESSAGE_ID_SQL} AS next) WHERE user_id = ?`,
    userId,
  );
}

/**
 * The user's unread messages of the period that have no user_message row (of a topic, from a
 * sender), newest first, at most `limit` (message_by_period from the newest down to read_through).
 */
export function selectPlainUnreadIds(s: Store, userId: number, period: Period, limit: number, only: { topic?: string | undefined; senderId?: number | undefined } = {}): number[] {
  const high = Number.isFinite(period.end) ? period.end : Number.MAX_SAFE_INTEGER;
  const low = Math.max(period.readThrough, period.first - 1);
  if (high <= low + 1) return [];
  const topic = only.topic === undefined ? '' : ' AND m.topic = ? COLLATE NOCASE';
  const sender = only.senderId === undefined ? '' : ' AND m.sender_id = ?';
  return s
    .prepare(
      `SELECT m.id FROM message m WHERE m.stream_id = ? AND m.id > ? AND m.id < ? AND m.by_period = 1${topic}${sender}
       AND NOT EXISTS (SELECT 1 FROM user_message um WHERE um.user_id = ? AND um.message_id = m.id) ORDER BY m.id DESC LIMIT ?`,
    )
    .pluck()
    .all(period.streamId, low, high, ...[only.topic, only.senderId].filter((v) => v !== undefined), userId, limit) as number[];
}

/**
 * Moves the period's read_through over the messages after it that are read, in order, and drops
 * the rows of those whose flags are now the period's default (read, nothing else, not starred):
 * a user who reads in order keeps no row per message. Stops at the first unread one. Only the
 * messages had by period count (message_by_period): the others' rows say all there is.
 */
export function advanceReadThrough(s: Store, userId: number, period: Period): void {
  const next = s
    .prepare(
      `SELECT m.id, um.flags, EXISTS (SELECT 1 FROM starred_message sm WHERE sm.user_id = ? AND sm.message_id = m.id)
       FROM message m LEFT JOIN user_message um ON um.user_id = ? AND um.message_id = m.id
       WHERE m.stream_id = ? AND m.id > ? AND m.id < ? AND m.by_period = 1 ORDER BY m.id LIMIT 500`,
    )
    .raw();
  const drop = s.prepare('DELETE FROM user_message WHERE user_id = ? AND message_id = ?');
  const end = Number.isFinite(period.end) ? period.end : Number.MAX_SAFE_INTEGER;
  let readThrough = period.readThrough;
  for (;;) {
    const rows = next.all(userId, userId, period.streamId, readThrough, end) as [number, number | null, number][];
    let stopped = false;
    for (const [id, flags, starred] of rows) {
      if (flags === null || (flags & READ) === 0) {
        stopped = true;
        break;
      }
      readThrough = id;
      if (flags === READ && starred === 0) drop.run(userId, id);
    }
    if (stopped || rows.length < 500) break;
  }
  if (readThrough !== period.readThrough) updateReadThrough(s, userId, period, readThrough);
}

/** Whether the user receives the channel's messages now (an open period: subscribed and active). */
export function selectReceivesNow(s: Store, userId: number, streamId: number): boolean {
  return s.prepare('SELECT 1 FROM subscription_period WHERE user_id = ? AND stream_id = ? AND end_message_id IS NULL').pluck().get(userId, streamId) !== undefined;
}
