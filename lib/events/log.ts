// The durable event log: events appended inside a domain transaction (the transactional outbox)
// and read back per user. One row per user for a few recipients, one listing them for more.
import type { Store } from '../store/db.js';
import { insertEvent, insertEventForRecipients, recipientList, selectEventsForUser } from '../store/events.js';
import type { ChatEvent, DeliveredEvent } from './event.js';

/** Rows a read scans at most. */
const BATCH = 1000;
/** An event for at least this many users is one row listing them (schema.sql, event.recipients). */
const LIST_MIN_USERS = 4;

/** Appends an event for the given users (null: every user). Call inside ctx.tx. */
export function appendEvent(store: Store, now: number, userIds: Iterable<number> | null, event: ChatEvent): void {
  const { type } = event;
  const payload = JSON.stringify(event);
  if (userIds === null) {
    insertEvent(store, null, type, payload, now);
    return;
  }
  const users = new Set(userIds);
  if (users.size === 0) return;
  if (users.size < LIST_MIN_USERS) {
    for (const userId of users) insertEvent(store, userId, type, payload, now);
    return;
  }
  insertEventForRecipients(store, recipientList(users), type, payload, now);
}

export interface EventsRead {
  events: DeliveredEvent[];
  /** The id of the last row scanned (afterId when none was). */
  scannedTo: number;
  /** Every row after afterId was scanned. */
  complete: boolean;
}

/** A user's events after `afterId` that pass the filter, up to BATCH rows scanned. */
export function readEvents(store: Store, userId: number, afterId: number, accepts: (type: string) => boolean): EventsRead {
  const rows = selectEventsForUser(store, userId, afterId, BATCH);
  const events: DeliveredEvent[] = [];
  for (const row of rows) {
    if (accepts(row.type)) events.push({ ...(JSON.parse(row.payload) as ChatEvent), id: row.id });
  }
  const scannedTo = rows.length > 0 ? rows[rows.length - 1]!.id : afterId;
  return { events, scannedTo, complete: rows.length < BATCH };
}
