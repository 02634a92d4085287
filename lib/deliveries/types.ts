// The kinds of delivery and their attempts: what a kind is (DeliveryKind), what one attempt gets
// (Delivery) and answers (DeliveryOutcome). Writing deliveries is outbox.ts; sending them runner.ts.
import type { Ctx } from '../context.js';

/** One attempt at a delivery, as the kind's `send` gets it. */
export interface Delivery<P> {
  id: number;
  payload: P;
  /** 1 for the first attempt; counts again from 1 after a `later` outcome. */
  attempt: number;
  /** Milliseconds, when the row was written. */
  createdAt: number;
  /** Aborted when the attempt's time (the kind's timeoutMs) is up or the server stops. */
  signal: AbortSignal;
}

/**
 * - sent: done; the row goes (the kind's `succeeded` gets `payload` instead when given: what the
 *   attempt learned, e.g. a reply to post).
 * - retry: a failure worth trying again (network error, 5xx, timeout): after the next of the
 *   kind's retry delays, with `payload` instead when given (what is left to send); when the delays
 *   have run out, the delivery fails. `code` is kept for the kind's `failed`.
 * - failed: refused for good (a 4xx, a recipient that no longer exists); the row goes (the kind's
 *   `failed` gets `payload` instead when given).
 * - later: this round is done, and the row is due again at `dueAt` (with `payload` when given),
 *   its attempts counted from 0 again (a batch that gathers more, a long send in pieces).
 * - busy: not attempted, because a limit of the kind's own was reached (attempts to one remote at
 *   once): due again at `dueAt`, this attempt not counted.
 */
export type DeliveryOutcome<P> =
  | { status: 'sent'; payload?: P }
  | { status: 'retry'; reason: string; code?: string; payload?: P }
  | { status: 'failed'; reason: string; code?: string; payload?: P }
  | { status: 'later'; dueAt: number; payload?: P }
  | { status: 'busy'; dueAt: number };

/** Why a delivery failed for good, as its kind's `failed` gets it. */
export interface DeliveryFailure {
  reason: string;
  code?: string | undefined;
  /** True when it failed because the retries ran out (the last attempt's outcome was `retry`). */
  exhausted: boolean;
}

/**
 * A kind of delivery: one per destination and purpose (registrations forwarded to the push
 * bouncer, push notifications, emails, ...), registered once in lib/domain/delivery_kinds.ts.
 * Payloads are JSON: what the row must hold to send after a restart, nothing more.
 */
export interface DeliveryKind<P> {
  /** Stored in delivery.kind; never renamed once released. */
  readonly name: string;
  /** Whether this server sends the kind (e.g. a bouncer is configured); rows of a disabled kind wait. */
  enabled(ctx: Ctx): boolean;
  /** The longest one attempt may take, in ms: its signal is aborted then, and its lease is a little longer. */
  timeoutMs(ctx: Ctx): number;
  /** The waits between attempts, in ms; once they have run out a `retry` outcome fails the delivery. */
  retryDelaysMs(ctx: Ctx): readonly number[];
  /** One attempt. Runs outside any transaction; may open its own (reads before, results after). */
  send(ctx: Ctx, delivery: Delivery<P>): Promise<DeliveryOutcome<P>>;
  /** In the transaction that removes a delivery that succeeded (to start what came in meanwhile). */
  succeeded?(ctx: Ctx, payload: P): void;
  /** In the transaction that removes a delivery that failed for good (refused, or out of retries). */
  failed?(ctx: Ctx, payload: P, failure: DeliveryFailure): void;
}

/**
 * What writing a delivery needs of its kind: its name. A module that the kind's sending depends on
 * (the reply of an outgoing webhook is a message) writes rows by it without importing the kind.
 */
export type DeliveryKindName<P> = Pick<DeliveryKind<P>, 'name'>;
