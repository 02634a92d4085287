// What GET /events records of its queues: each poll (and the event id it acknowledged), written
// in one batched transaction on the next tick, so a thousand polls cost one commit; and which
// queues have a poll waiting in this process (never expired while connected).
import type { Store } from '../store/db.js';
import { touchQueue, updateQueueAck } from '../store/events.js';
import type { HubContext } from './event.js';

export class Polls {
  readonly #ctx: HubContext;
  readonly #pending = new Map<string, { acked: number | undefined; at: number }>();
  #flushScheduled = false;
  readonly #connected = new Map<string, number>();

  constructor(ctx: HubContext) {
    this.#ctx = ctx;
  }

  /** Records that a queue was polled, and what it acknowledged. */
  record(queueId: string, ackedEventId?: number): void {
    const pending = this.#pending.get(queueId);
    const acked = Math.max(ackedEventId ?? -1, pending?.acked ?? -1);
    this.#pending.set(queueId, { acked: acked >= 0 ? acked : undefined, at: this.#ctx.clock() });
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** A queue's acknowledged event id, counting a poll not yet written. */
  ackedEventId(queueId: string, stored: number): number {
    return Math.max(stored, this.#pending.get(queueId)?.acked ?? stored);
  }

  flush(): void {
    this.#flushScheduled = false;
    if (this.#pending.size === 0) return;
    const pending = [...this.#pending];
    this.#pending.clear();
    const store: Store = this.#ctx.store;
    try {
      this.#ctx.tx(() => {
        for (const [queueId, poll] of pending) {
          if (poll.acked === undefined) touchQueue(store, queueId, poll.at);
          else updateQueueAck(store, queueId, poll.acked, poll.at);
        }
      });
    } catch (error) {
      this.#ctx.logger.warn('could not record polls', { error: String(error) });
    }
  }

  /** A poll of the queue waits in this process until the returned function is called. */
  connect(queueId: string): () => void {
    this.#connected.set(queueId, (this.#connected.get(queueId) ?? 0) + 1);
    return () => {
      const count = (this.#connected.get(queueId) ?? 0) - 1;
      if (count > 0) this.#connected.set(queueId, count);
      else this.#connected.delete(queueId);
    };
  }

  /** The queues with a poll waiting in this process. */
  connectedQueues(): string[] {
    return [...this.#connected.keys()];
  }
}
