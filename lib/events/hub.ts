// The event hub: appends events to the durable log inside a domain transaction (the
// transactional outbox), and after commit wakes whoever waits for them: long-polling GET /events
// requests and in-process subscribers. Commits by other processes are noticed by polling
// PRAGMA data_version while anyone waits.
import type { Store } from '../store/db.js';
import type { Logger } from '../logger.js';
import type { TimerHandle, Timers } from '../timers.js';
import type { ChatEvent, DeliveredEvent, EventOptions } from './event.js';
import { shapeForClient } from './shape.js';
import { collectQueueGarbage } from './queues.js';
import {
  insertEvent,
  insertEventForRecipients,
  recipientIds,
  recipientList,
  selectDataVersion,
  selectEventsAfter,
  selectEventsForUser,
  selectMaxEventId,
  touchQueue,
  updateQueueAck,
} from '../store/events.js';

const BATCH = 1000;
const WAKE_BATCH = 5000;
/** An event for at least this many users is one row listing them (schema.sql, event.recipients). */
const LIST_MIN_USERS = 4;

/** What the hub uses of the context (lib/context.ts), which it is built from. */
export interface HubContext {
  readonly store: Store;
  readonly clock: () => number;
  readonly logger: Logger;
  readonly timers: Timers;
  readonly options: { events?: EventOptions };
  tx<T>(fn: () => T): T;
  now(): number;
}

interface Waiter {
  userId: number;
  /** Events with an id above this have not been handed to the waiter yet. */
  cursor: number;
  accepts: (type: string) => boolean;
  /** Receives a non-empty batch; returns false when the waiter is done and must be removed. */
  deliver: (events: DeliveredEvent[]) => boolean;
}

export class EventHub {
  readonly #ctx: HubContext;
  readonly #waiters = new Set<Waiter>();
  #wakeScheduled = false;
  /** The newest event id the last wake handed out; waiters at or past it share the next read. */
  #wokenUpTo = 0;
  readonly #pendingPolls = new Map<string, { acked: number | undefined; at: number }>();
  #flushScheduled = false;
  #dataVersion = -1;
  #crossProcessTimer: TimerHandle | undefined;
  #gcTimer: TimerHandle | undefined;
  /** Queues with a poll waiting in this process: never expired while connected. */
  readonly #connectedQueues = new Map<string, number>();

  constructor(ctx: HubContext) {
    this.#ctx = ctx;
  }

  /** Appends an event for the given users (null: every user). Call inside ctx.tx. */
  append(userIds: Iterable<number> | null, event: ChatEvent): void {
    const { type } = event;
    const payload = JSON.stringify(event);
    const { store } = this.#ctx;
    const now = this.#ctx.now();
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

  maxEventId(): number {
    return selectMaxEventId(this.#ctx.store);
  }

  /** Reads a user's events after `afterId` that pass the filter, up to BATCH rows scanned. */
  read(
    userId: number,
    afterId: number,
    accepts: (type: string) => boolean,
  ): { events: DeliveredEvent[]; scannedTo: number; complete: boolean } {
    const rows = selectEventsForUser(this.#ctx.store, userId, afterId, BATCH);
    const events: DeliveredEvent[] = [];
    for (const row of rows) {
      if (accepts(row.type)) events.push({ ...(JSON.parse(row.payload) as ChatEvent), id: row.id });
    }
    const scannedTo = rows.length > 0 ? rows[rows.length - 1]!.id : afterId;
    return { events, scannedTo, complete: rows.length < BATCH };
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

  /**
   * Reads the events committed since the last wake once, and hands each waiter its share; a
   * waiter that is further behind (or a burst larger than one batch) reads on its own.
   */
  #wakeAll(): void {
    if (this.#waiters.size === 0) return;
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
      const newest = this.maxEventId();
      const { events, scannedTo, complete } = this.read(waiter.userId, waiter.cursor, waiter.accepts);
      waiter.cursor = complete && events.length === 0 ? Math.max(scannedTo, newest) : scannedTo;
      if (events.length > 0) {
        if (!waiter.deliver(events)) this.#remove(waiter);
        return;
      }
      if (complete) return;
    }
  }

  /**
   * Records that a queue was polled (and what it acknowledged). Written in one batched
   * transaction on the next tick, so a thousand polls cost one commit, not a thousand.
   */
  recordPoll(queueId: string, ackedEventId?: number): void {
    const pending = this.#pendingPolls.get(queueId);
    const acked = Math.max(ackedEventId ?? -1, pending?.acked ?? -1);
    this.#pendingPolls.set(queueId, { acked: acked >= 0 ? acked : undefined, at: this.#ctx.clock() });
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => this.flushPolls());
  }

  /** A queue's acknowledged event id, counting a poll not yet written. */
  ackedEventId(queueId: string, stored: number): number {
    return Math.max(stored, this.#pendingPolls.get(queueId)?.acked ?? stored);
  }

  flushPolls(): void {
    this.#flushScheduled = false;
    if (this.#pendingPolls.size === 0) return;
    const pending = [...this.#pendingPolls];
    this.#pendingPolls.clear();
    try {
      this.#ctx.tx(() => {
        for (const [queueId, poll] of pending) {
          if (poll.acked === undefined) touchQueue(this.#ctx.store, queueId, poll.at);
          else updateQueueAck(this.#ctx.store, queueId, poll.acked, poll.at);
        }
      });
    } catch (error) {
      this.#ctx.logger.warn('could not record polls', { error: String(error) });
    }
  }

  /**
   * Registers a waiter for events after `cursor`. If some are already there they are delivered
   * at once. Returns a function that removes the waiter.
   */
  wait(waiter: Waiter): () => void {
    if (this.#waiters.size === 0) this.#wokenUpTo = this.maxEventId();
    this.#waiters.add(waiter);
    this.#startCrossProcessPolling();
    this.#check(waiter);
    return () => this.#remove(waiter);
  }

  #remove(waiter: Waiter): void {
    this.#waiters.delete(waiter);
    if (this.#waiters.size === 0) this.#stopCrossProcessPolling();
  }

  /** In-process subscription to one user's events, delivered after each commit. */
  subscribe(
    userId: number,
    listener: (event: DeliveredEvent) => void,
    options: { eventTypes?: readonly string[]; afterEventId?: number; applyMarkdown?: boolean } = {},
  ): () => void {
    const types = options.eventTypes ? new Set(options.eventTypes) : null;
    const applyMarkdown = options.applyMarkdown ?? true;
    return this.wait({
      userId,
      cursor: options.afterEventId ?? this.maxEventId(),
      accepts: (type) => types === null || types.has(type),
      deliver: (events) => {
        for (const event of events) {
          try {
            listener(shapeForClient(event, { applyMarkdown, bulkMessageDeletion: true }));
          } catch (error) {
            this.#ctx.logger.error('event subscriber threw', { error: String(error) });
          }
        }
        return true;
      },
    });
  }

  markConnected(queueId: string, connected: boolean): void {
    const count = (this.#connectedQueues.get(queueId) ?? 0) + (connected ? 1 : -1);
    if (count > 0) this.#connectedQueues.set(queueId, count);
    else this.#connectedQueues.delete(queueId);
  }

  get waiterCount(): number {
    return this.#waiters.size;
  }

  #startCrossProcessPolling(): void {
    if (this.#crossProcessTimer !== undefined) return;
    this.#dataVersion = selectDataVersion(this.#ctx.store);
    const interval = this.#ctx.options.events?.crossProcessPollMs ?? 100;
    this.#crossProcessTimer = this.#ctx.timers.every(interval, () => {
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

  /** Expires queues and prunes the events no live queue still needs (lib/events/queues.ts). */
  collectGarbage(): { queues: number; events: number } {
    this.flushPolls();
    return this.#ctx.tx(() => collectQueueGarbage(this.#ctx.store, this.#ctx.clock(), [...this.#connectedQueues.keys()]));
  }

  startGarbageCollection(): void {
    const interval = this.#ctx.options.events?.gcIntervalMs ?? 60_000;
    this.#gcTimer = this.#ctx.timers.every(interval, () => {
      try {
        this.collectGarbage();
      } catch (error) {
        this.#ctx.logger.warn('event garbage collection failed', { error: String(error) });
      }
    });
  }

  /** Stops timers and ends every waiter (their requests are answered by their owners). */
  close(): void {
    this.flushPolls();
    this.#gcTimer?.cancel();
    this.#gcTimer = undefined;
    this.#stopCrossProcessPolling();
    for (const waiter of [...this.#waiters]) {
      this.#waiters.delete(waiter);
      waiter.deliver([]);
    }
  }
}
