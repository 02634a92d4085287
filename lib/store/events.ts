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

/** Stores a payload shared by many event rows; returns its id. */
export function insertEventPayload(s: Store, payload: string, now: number): number {
  return Number(s.run('INSERT INTO event_payload (payload, created_at) VALUES (?, ?)', payload, now).lastInsertRowid);
}

/** An event row whose payload lives in event_payload; returns the event id. */
export function insertSharedEvent(s: Store, userId: number, type: string, payloadId: number, now: number): number {
  return Number(
    s.run("INSERT INTO event (user_id, type, payload, payload_id, created_at) VALUES (?, ?, '', ?, ?)", userId, type, payloadId, now)
      .lastInsertRowid,
  );
}

export function updateEventPayloadLastEvent(s: Store, payloadId: number, lastEventId: number): void {
  s.run('UPDATE event_payload SET last_event_id = ? WHERE id = ?', lastEventId, payloadId);
}

export function selectMaxEventId(s: Store): number {
  // Pruning never removes the newest event, so this is the highest id ever handed out.
  return (s.prepare('SELECT coalesce(max(id), 0) FROM event').pluck().get() as number) ?? 0;
}

export function selectEventsForUser(s: Store, userId: number, afterId: number, limit: number): EventRow[] {
  return s.all<EventRow>(
    `SELECT e.id, e.type, coalesce(p.payload, e.payload) AS payload FROM event e
     LEFT JOIN event_payload p ON p.id = e.payload_id
     WHERE e.id > ? AND (e.user_id = ? OR e.user_id IS NULL) ORDER BY e.id LIMIT ?`,
    afterId,
    userId,
    limit,
  );
}

export interface RoutedEventRow extends EventRow {
  user_id: number | null;
  payload_id: number | null;
  /** The shared payload when payload_id is set (payload is then ''). */
  shared: string | null;
}

/** Every user's events after an id: one read shared by all waiters when a commit wakes them. */
export function selectEventsAfter(s: Store, afterId: number, limit: number): RoutedEventRow[] {
  return s.all<RoutedEventRow>(
    `SELECT e.id, e.user_id, e.type, e.payload, e.payload_id, p.payload AS shared FROM event e
     LEFT JOIN event_payload p ON p.id = e.payload_id WHERE e.id > ? ORDER BY e.id LIMIT ?`,
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

export function deleteExpiredQueues(s: Store, nowMs: number, keep: readonly string[]): number {
  return s.run(
    `DELETE FROM event_queue WHERE last_poll_at + lifespan_secs * 1000 < ?
       AND id NOT IN (SELECT value FROM json_each(?))`,
    nowMs,
    JSON.stringify(keep),
  ).changes;
}

export function selectPruneFloor(s: Store): number | null {
  return s.get<{ floor: number | null }>('SELECT min(acked_event_id) AS floor FROM event_queue')?.floor ?? null;
}

export function deleteEventsUpTo(s: Store, maxId: number, createdBefore: number): number {
  // The newest row always stays: ids must never be handed out twice (see schema.sql).
  const events = s.run(
    'DELETE FROM event WHERE id <= ? AND id < (SELECT max(id) FROM event) AND created_at < ?',
    maxId,
    createdBefore,
  ).changes;
  s.run('DELETE FROM event_payload WHERE last_event_id <= ? AND created_at < ?', maxId, createdBefore);
  return events;
}

export function selectDataVersion(s: Store): number {
  return s.prepare('PRAGMA data_version').pluck().get() as number;
}

export function deleteQueuesOfUser(s: Store, userId: number): number {
  return s.run('DELETE FROM event_queue WHERE user_id = ?', userId).changes;
}
