// What an event is, as the domain appends it and as a client receives it, the options of the hub
// that delivers it, and what the hub uses of the context.
import type { Logger } from '../logger.js';
import type { Store } from '../store/db.js';
import type { Timers } from '../timers.js';

/** An event as the domain produces it: `type` plus Zulip's payload, without the id. */
export interface ChatEvent {
  type: string;
  [key: string]: unknown;
}

/** An event as a client receives it. */
export interface DeliveredEvent extends ChatEvent {
  id: number;
}

/**
 * The client_capabilities object of POST /register, kept with its queue: the flags that change the
 * state and events a client gets; others are kept as sent.
 */
export interface ClientCapabilities {
  readonly linkifier_url_template?: unknown;
  readonly bulk_message_deletion?: unknown;
  readonly [capability: string]: unknown;
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
