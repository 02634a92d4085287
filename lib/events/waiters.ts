// Who waits for events in this process (long-polling GET /events requests, in-process
// subscribers), and waking them after each commit: the events committed since the last wake are
// read once and handed to each waiter. Commits by other processes are noticed by polling PRAGMA
// data_version while anyone waits.
import { recipientIds, selectDataVersion, selectEventsAfter, selectMaxEventId } from '../store/events.js';
import type { ChatEvent, DeliveredEvent, HubContext } from './event.js';
import { readEvents } from './log.js';
import type { TimerHandle } from '../timers.js';

const WAKE_BATCH = 5000;

export interface Waiter {
  userId: number;
  /** Events with an id above this have not been handed to the waiter yet. */
  cursor: number;
  accepts: (type: string) => boolean;
  /** Receives a non-empty batch (an empty one when the hub closes); returns false when the waiter is done and must be removed. */
  deliver: (events: DeliveredEvent[]) => boolean;
}

export class Waiters {
  readonly #ctx: HubContext;
  readonly #waiters = new Set<Waiter>();
  #wakeScheduled = false;
  /** The newest event id the last wake handed out; waiters at or past it share the next read. */
  #wokenUpTo = 0;
  #dataVersion = -1;
  #crossProcessTimer: TimerHandle | undefined;

  constructor(ctx: HubContext) {
    this.#ctx = ctx;
  }

  get count(): number {
    return this.#waiters.size;
  }

  /**
   * Registers a waiter for events after its cursor. If some are already there they are delivered
   * at once. Returns a function that removes the waiter.
   */
  wait(waiter: Waiter): () => void {
    if (this.#waiters.size === 0) this.#wokenUpTo = selectMaxEventId(this.#ctx.store);
    this.#waiters.add(waiter);
    this.#startCrossProcessPolling();
    this.#check(waiter);
    return () => this.#remove(waiter);
  }

  /** Called after every commit of this process: wake waiters on the next tick, in one batch. */
  committed(): void {
    if (this.#waiters.size === 0 || this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      this.#wakeAll();
    });
  }

  /** Ends every waiter (their requests are answered by their owners). */
  close(): void {
    this.#stopCrossProcessPolling();
    for (const waiter of [...this.#waiters]) {
      this.#waiters.delete(waiter);
      waiter.deliver([]);
    }
  }

  /**
   * Reads the events committed since the last wake once, and hands each waiter its share; a
   * waiter that is further behind (or a burst larger than one batch) reads on its own.
   */
  #wakeAll(): void {
    // Inside a transaction the host holds open, its uncommitted rows would show: its end wakes again.
    if (this.#waiters.size === 0 || this.#ctx.store.db.inTransaction) return;
    const since = this.#wokenUpTo;
    const rows = selectEventsAfter(this.#ctx.store, since, WAKE_BATCH);
    if (rows.length === 0) return;
    this.#wokenUpTo = rows[rows.length - 1]!.id;
    const complete = rows.length < WAKE_BATCH;
    const fresh = rows.map((row) => ({
      row,
      event: { ...(JSON.parse(row.payload) as ChatEvent), id: row.id } as DeliveredEvent,
      recipients: row.recipients === null ? null : new Set(recipientIds(row.recipients)),
    }));
    for (const waiter of [...this.#waiters]) {
      if (!this.#waiters.has(waiter)) continue;
      if (!complete || waiter.cursor < since) {
        this.#check(waiter);
        continue;
      }
      const events: DeliveredEvent[] = [];
      for (const { row, event, recipients } of fresh) {
        const forWaiter = row.user_id === null ? recipients === null || recipients.has(waiter.userId) : row.user_id === waiter.userId;
        if (row.id > waiter.cursor && forWaiter && waiter.accepts(row.type)) {
          events.push(event);
        }
      }
      waiter.cursor = this.#wokenUpTo;
      if (events.length > 0 && !waiter.deliver(events)) this.#remove(waiter);
    }
    if (!complete) this.#wakeAll();
  }

  #check(waiter: Waiter): void {
    for (;;) {
      // Everything up to `newest` is covered by the read below, even if a commit lands between.
      const newest = selectMaxEventId(this.#ctx.store);
      const { events, scannedTo, complete } = readEvents(this.#ctx.store, waiter.userId, waiter.cursor, waiter.accepts);
      waiter.cursor = complete && events.length === 0 ? Math.max(scannedTo, newest) : scannedTo;
      if (events.length > 0) {
        if (!waiter.deliver(events)) this.#remove(waiter);
        return;
      }
      if (complete) return;
    }
  }

  #remove(waiter: Waiter): void {
    this.#waiters.delete(waiter);
    if (this.#waiters.size === 0) this.#stopCrossProcessPolling();
  }

  #startCrossProcessPolling(): void {
    if (this.#crossProcessTimer !== undefined) return;
    this.#dataVersion = selectDataVersion(this.#ctx.store);
    const interval = this.#ctx.options.events?.crossProcessPollMs ?? 100;
    this.#crossProcessTimer = this.#ctx.timers.every(interval, () => {
      if (this.#ctx.store.db.inTransaction) return;
      const version = selectDataVersion(this.#ctx.store);
      if (version === this.#dataVersion) return;
      this.#dataVersion = version;
      this.#wakeAll();
    });
  }

  #stopCrossProcessPolling(): void {
    this.#crossProcessTimer?.cancel();
    this.#crossProcessTimer = undefined;
  }
}
