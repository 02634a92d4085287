// SQL for the event log (event) and the durable event queues (event_queue).
import type { Store } from './db.js';

export interface EventRow {
  id: number;
  type: string;
  payload: string;
}

export interface QueueRow {
  id: string;
  user_id: number;
  event_types: string | null;
  client_capabilities: string;
  apply_markdown: number;
  created_event_id: number;
  acked_event_id: number;
  created_at: number;
  last_poll_at: number;
  lifespan_secs: number;
}

export function insertEvent(s: Store, userId: number | null, type: string, payload: string, now: number): void {
  s.run('INSERT INTO event (user_id, type, payload, created_at) VALUES (?, ?, ?, ?)', userId, type, payload, now);
}

/**
 * One event row for many users: user_id NULL, `recipients` the list as text ',3,17,42,' (matched
 * by instr() on ',<id>,': recipientNeedle) and/or `audience` a rule (lib/events/audience.ts).
 */
export function insertEventForMany(s: Store, recipients: string | null, audience: string | null, type: string, payload: string, now: number): void {
  s.run('INSERT INTO event (user_id, recipients, audience, type, payload, created_at) VALUES (NULL, ?, ?, ?, ?, ?)', recipients, audience, type, payload, now);
}

/** The text recipients lists are stored as: every id between commas. */
export function recipientList(userIds: Iterable<number>): string {
  return `,${[...userIds].join(',')},`;
}

/** The users of a recipients list. */
export function recipientIds(recipients: string): number[] {
  return recipients.slice(1, -1).split(',').map(Number);
}

function recipientNeedle(userId: number): string {
  return `,${userId},`;
}

export function selectMaxEventId(s: Store): number {
  // Pruning never removes the newest event, so this is the highest id ever handed out.
  return (s.prepare('SELECT coalesce(max(id), 0) FROM event').pluck().get() as number) ?? 0;
}

export interface RoutedEventRow extends EventRow {
  user_id: number | null;
  /** The recipients list (recipientList) of a row for many users; null for one user or everyone. */
  recipients: string | null;
  /** The rule of a row for many users (lib/events/audience.ts); null otherwise. */
  audience: string | null;
}

/**
 * A user's events after an id, and the rows with a rule the caller decides (lib/events/audience.ts):
 * their own rows, broadcasts, and lists that name them. A range of the primary key from `afterId`:
 * a client that keeps up reads only the few newest rows, one that is behind reads past the other
 * users' events since (event has no per-user index: every write would pay for it, bench/README.md
 * "write path").
 */
export function selectEventsForUser(s: Store, userId: number, afterId: number, limit: number): RoutedEventRow[] {
  return s.all<RoutedEventRow>(
    `SELECT id, user_id, recipients, audience, type, payload FROM event
     WHERE id > ? AND (user_id = ? OR (user_id IS NULL AND (audience IS NOT NULL OR recipients IS NULL OR instr(recipients, ?) > 0)))
     ORDER BY id LIMIT ?`,
    afterId,
    userId,
    recipientNeedle(userId),
    limit,
  );
}

/** Every user's events after an id: one read shared by all waiters when a commit wakes them. */
export function selectEventsAfter(s: Store, afterId: number, limit: number): RoutedEventRow[] {
  return s.all<RoutedEventRow>(
    'SELECT id, user_id, recipients, audience, type, payload FROM event WHERE id > ? ORDER BY id LIMIT ?',
    afterId,
    limit,
  );
}

export function insertQueue(s: Store, q: QueueRow): void {
  s.run(
    `INSERT INTO event_queue (id, user_id, event_types, client_capabilities, apply_markdown,
       created_event_id, acked_event_id, created_at, last_poll_at, lifespan_secs)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    q.id,
    q.user_id,
    q.event_types,
    q.client_capabilities,
    q.apply_markdown,
    q.created_event_id,
    q.acked_event_id,
    q.created_at,
    q.last_poll_at,
    q.lifespan_secs,
  );
}

export function selectQueue(s: Store, queueId: string): QueueRow | undefined {
  return s.get<QueueRow>('SELECT * FROM event_queue WHERE id = ?', queueId);
}

export function updateQueueAck(s: Store, queueId: string, ackedEventId: number, pollAt: number): void {
  s.run(
    'UPDATE event_queue SET acked_event_id = max(acked_event_id, ?), last_poll_at = ? WHERE id = ?',
    ackedEventId,
    pollAt,
    queueId,
  );
}

export function touchQueue(s: Store, queueId: string, pollAt: number): void {
  s.run('UPDATE event_queue SET last_poll_at = ? WHERE id = ?', pollAt, queueId);
}

export function deleteQueue(s: Store, queueId: string): number {
  return s.run('DELETE FROM event_queue WHERE id = ?', queueId).changes;
}

/** Zulip's expiry rule: a queue not polled for its lifespan (and not waited on) is gone. */
export function deleteIdleQueues(s: Store, nowMs: number, keep: readonly string[]): number {
  return s.run(
    `DELETE FROM event_queue WHERE last_poll_at + lifespan_secs * 1000 <= ?
       AND id NOT IN (SELECT value FROM json_each(?))`,
    nowMs,
    JSON.stringify(keep),
  ).changes;
}

export function selectAllQueues(s: Store): QueueRow[] {
  return s.all<QueueRow>('SELECT * FROM event_queue');
}

export interface PendingEventRow {
  id: number;
  user_id: number | null;
  recipients: string | null;
  audience: string | null;
  type: string;
  created_at: number;
}

/**
 * The events after an id that may concern the given users, oldest first, read one row at a time
 * (queue garbage collection): their own rows, broadcasts, recipients lists and rules; other users'
 * rows are skipped by SQLite.
 */
export function iterateEventsAfter(s: Store, afterId: number, userIds: readonly number[]): IterableIterator<PendingEventRow> {
  return s
    .prepare(
      `SELECT id, user_id, recipients, audience, type, created_at FROM event
       WHERE id > ? AND (user_id IS NULL OR user_id IN (SELECT value FROM json_each(?))) ORDER BY id`,
    )
    .iterate(afterId, JSON.stringify(userIds)) as IterableIterator<PendingEventRow>;
}

/** Keeps a user's `keep` most recently polled queues and deletes the others. */
export function deleteLeastRecentQueues(s: Store, userId: number, keep: number): number {
  return s.run(
    `DELETE FROM event_queue WHERE id IN (
       SELECT id FROM event_queue WHERE user_id = ? ORDER BY last_poll_at DESC, rowid DESC LIMIT -1 OFFSET ?)`,
    userId,
    keep,
  ).changes;
}

export function deleteEventsUpTo(s: Store, maxId: number, createdBefore: number): number {
  // The newest row always stays: ids must never be handed out twice (see schema.sql).
  return s.run(
    'DELETE FROM event WHERE id <= ? AND id < (SELECT max(id) FROM event) AND created_at < ?',
    maxId,
    createdBefore,
  ).changes;
}

export function selectDataVersion(s: Store): number {
  return s.prepare('PRAGMA data_version').pluck().get() as number;
}

export function deleteQueuesOfUser(s: Store, userId: number): number {
  return s.run('DELETE FROM event_queue WHERE user_id = ?', userId).changes;
}
