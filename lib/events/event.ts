// What an event is, as the domain appends it and as a client receives it, the options of the hub
// that delivers it, and what the hub uses of the context.
import type { Timers } from '../timers.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/db.js';

/** An event as the domain produces it: `type` plus Zulip's payload, without the id. */
export interface ChatEvent {
  type: string;
  [key: string]: unknown;
}

/** An event as a client receives it. */
export interface DeliveredEvent extends ChatEvent {
  id: number;
}

/** How the event hub and the event queues behave (ChatOptions.events). */
export interface EventOptions {
  /** Seconds a waiting GET /events holds before answering with a heartbeat (Zulip: 45 + 0..10). */
  heartbeatSeconds?: number;
  /**
   * Seconds without a poll after which a queue expires (Zulip: 600); also how long a queue's
   * oldest undelivered event may wait for its acknowledgement before the queue expires.
   */
  queueLifespanSeconds?: number;
  /** Event queues one user may hold; registering one more expires their least recently polled (default 50). */
  maxQueuesPerUser?: number;
  /** How often, in ms, waiting polls check for events committed by other processes. */
  crossProcessPollMs?: number;
  /** How often, in ms, expired queues are removed and acknowledged events pruned. */
  gcIntervalMs?: number;
}

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
