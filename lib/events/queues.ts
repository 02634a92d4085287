// Event queue lifetime: which stored events a queue receives, the per-user queue limit, and the
// garbage collection that expires queues and prunes the events no live queue still needs.
import type { Store } from '../store/db.js';
import type { ClientCapabilities } from './event.js';
import {
  deleteEventsUpTo,
  deleteIdleQueues,
  deleteLeastRecentQueues,
  deleteQueue,
  iterateEventsAfter,
  recipientIds,
  selectAllQueues,
  selectMaxEventId,
  type QueueRow,
} from '../store/events.js';

/** Which stored event types a queue receives: `only` (null: every type) minus `except`. */
interface QueueTypes {
  only: readonly string[] | null;
  except: readonly string[];
}

/** Zulip has no such limit; a user's browser tabs, apps and bots rarely hold more than a few queues. */
const DEFAULT_MAX_QUEUES_PER_USER = 50;
/** Events younger than this are never pruned, so a subscriber in another process can still read them. */
const PRUNE_GRACE_SECONDS = 60;

function queueTypes(queue: Pick<QueueRow, 'event_types' | 'client_capabilities'>): QueueTypes {
  // Zulip sends realm_linkifiers only to clients with the linkifier_url_template capability.
  const capabilities = JSON.parse(queue.client_capabilities) as ClientCapabilities;
  const except = capabilities.linkifier_url_template === true ? [] : ['realm_linkifiers'];
  if (queue.event_types === null) return { only: null, except };
  const types = JSON.parse(queue.event_types) as string[];
  // Zulip's accepts_event: clients that take user_topic get no legacy muted_topics events.
  if (types.includes('user_topic')) except.push('muted_topics');
  return { only: [...types, 'heartbeat'], except };
}

export function typeFilter(queue: Pick<QueueRow, 'event_types' | 'client_capabilities'>): (type: string) => boolean {
  const { only, except } = queueTypes(queue);
  const accepted = only === null ? null : new Set(only);
  const refused = new Set(except);
  return (type) => !refused.has(type) && (accepted === null || accepted.has(type));
}

/** Makes room for one more queue of the user by expiring their least recently polled ones. Call inside a transaction. */
export function makeRoomForQueue(store: Store, userId: number, maxQueuesPerUser: number | undefined): void {
  deleteLeastRecentQueues(store, userId, Math.max(1, maxQueuesPerUser ?? DEFAULT_MAX_QUEUES_PER_USER) - 1);
}

/**
 * Expires a queue not polled for its lifespan unless a poll waits on it (Zulip's rule), and a queue
 * whose oldest undelivered event has waited longer than its lifespan although it is polled: its
 * client never acknowledges. Then prunes every event older than the oldest one a live queue
 * still has to deliver; other users' events after a queue's acknowledgement do not hold it back.
 * Call inside a transaction.
 */
export function collectQueueGarbage(store: Store, nowMs: number, connected: readonly string[]): { queues: number; events: number } {
  const nowSeconds = Math.floor(nowMs / 1000);
  let queues = deleteIdleQueues(store, nowMs, connected);
  let floor = selectMaxEventId(store);
  const expired: string[] = [];
  for (const [queue, pending] of firstPendingEvents(store, selectAllQueues(store))) {
    if (pending.created_at + queue.lifespan_secs <= nowSeconds) expired.push(queue.id);
    else floor = Math.min(floor, pending.id - 1);
  }
  for (const id of expired) queues += deleteQueue(store, id);
  const events = deleteEventsUpTo(store, floor, nowSeconds - PRUNE_GRACE_SECONDS);
  return { queues, events };
}

interface Unmatched {
  queue: QueueRow;
  accepts: (type: string) => boolean;
}

/**
 * Each queue's oldest event still to deliver, for the queues that have one. One pass over the
 * events after the lowest acknowledgement, which ends once every queue has found its event (a
 * broadcast finds them all), rather than one read per queue.
 */
function firstPendingEvents(store: Store, queues: readonly QueueRow[]): Map<QueueRow, { id: number; created_at: number }> {
  const found = new Map<QueueRow, { id: number; created_at: number }>();
  const byUser = new Map<number, Unmatched[]>();
  let from = Infinity;
  for (const queue of queues) {
    const list = byUser.get(queue.user_id) ?? [];
    list.push({ queue, accepts: typeFilter(queue) });
    byUser.set(queue.user_id, list);
    from = Math.min(from, queue.acked_event_id);
  }
  let left = queues.length;
  if (left === 0) return found;
  for (const row of iterateEventsAfter(store, from, [...byUser.keys()])) {
    const users = row.user_id !== null ? [row.user_id] : row.recipients !== null ? recipientIds(row.recipients) : [...byUser.keys()];
    for (const userId of users) {
      const unmatched = byUser.get(userId);
      if (unmatched === undefined) continue;
      const still = unmatched.filter(({ queue, accepts }) => {
        if (row.id <= queue.acked_event_id || !accepts(row.type)) return true;
        found.set(queue, { id: row.id, created_at: row.created_at });
        return false;
      });
      left -= unmatched.length - still.length;
      if (still.length === 0) byUser.delete(userId);
      else byUser.set(userId, still);
    }
    if (left === 0) break;
  }
  return found;
}
