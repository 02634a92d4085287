// The event hub, what the domain sees of lib/events (ctx.events): the durable log (log.ts), the
// waiters woken after each commit (waiters.ts) and GET /events' long-polls (long_poll.ts), the
// polls recorded per queue (polls.ts), in-process subscriptions, and the garbage collection of
// expired queues and the events no queue needs (queues.ts).
import { selectMaxEventId } from '../store/events.js';
import { whenOutsideTransaction } from '../store/outside_transaction.js';
import type { TimerHandle } from '../timers.js';
import type { ChatEvent, DeliveredEvent, HubContext } from './event.js';
import { appendEvent, readEvents, type EventsRead } from './log.js';
import { waitForEvents, type LongPoll } from './long_poll.js';
import { Polls } from './polls.js';
import { collectQueueGarbage } from './queues.js';
import { shapeForClient } from './shape.js';
import { Waiters, type Waiter } from './waiters.js';

export class EventHub {
  readonly #ctx: HubContext;
  readonly #waiters: Waiters;
  readonly #polls: Polls;
  #gcTimer: TimerHandle | undefined;

  constructor(ctx: HubContext) {
    this.#ctx = ctx;
    this.#waiters = new Waiters(ctx);
    this.#polls = new Polls(ctx);
  }

  /** Appends an event for the given users (null: every user). Call inside ctx.tx. */
  append(userIds: Iterable<number> | null, event: ChatEvent): void {
    appendEvent(this.#ctx.store, this.#ctx.now(), userIds, event);
  }

  maxEventId(): number {
    return selectMaxEventId(this.#ctx.store);
  }

  /** A user's events after `afterId` that pass the filter, up to a batch of rows scanned. */
  read(userId: number, afterId: number, accepts: (type: string) => boolean): EventsRead {
    return readEvents(this.#ctx.store, userId, afterId, accepts);
  }

  /** Called after every commit of this process: wakes the waiters on the next tick. */
  committed(): void {
    this.#waiters.committed();
  }

  wait(waiter: Waiter): () => void {
    return this.#waiters.wait(waiter);
  }

  /** GET /events' wait for a queue with nothing new yet. */
  longPoll(poll: LongPoll): Promise<DeliveredEvent[]> {
    return waitForEvents(this.#waiters, this.#polls, this.#ctx.timers, poll);
  }

  get waiterCount(): number {
    return this.#waiters.count;
  }

  /** Records that a queue was polled (and what it acknowledged), in a batch on the next tick. */
  recordPoll(queueId: string, ackedEventId?: number): void {
    this.#polls.record(queueId, ackedEventId);
  }

  /** A queue's acknowledged event id, counting a poll not yet written. */
  ackedEventId(queueId: string, stored: number): number {
    return this.#polls.ackedEventId(queueId, stored);
  }

  flushPolls(): void {
    this.#polls.flush();
  }

  /**
   * In-process subscription to one user's events, delivered after each commit. Taken inside a
   * transaction, it starts once the transaction has ended (its own events come before it).
   */
  subscribe(
    userId: number,
    listener: (event: DeliveredEvent) => void,
    options: { eventTypes?: readonly string[]; afterEventId?: number; applyMarkdown?: boolean } = {},
  ): () => void {
    if (this.#ctx.store.db.inTransaction) {
      let stop: (() => void) | undefined;
      const cancel = whenOutsideTransaction(this.#ctx.store.db, () => (stop = this.subscribe(userId, listener, options)));
      return () => (stop ?? cancel)();
    }
    const types = options.eventTypes ? new Set(options.eventTypes) : null;
    const applyMarkdown = options.applyMarkdown ?? true;
    return this.#waiters.wait({
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

  /** Expires queues and prunes the events no live queue still needs (lib/events/queues.ts). */
  collectGarbage(): { queues: number; events: number } {
    this.flushPolls();
    return this.#ctx.tx(() => collectQueueGarbage(this.#ctx.store, this.#ctx.clock(), this.#polls.connectedQueues()));
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
    this.#waiters.close();
  }
}
