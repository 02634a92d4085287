// The one delivery mechanism: claims due rows of the outbox (after a commit, when one comes due,
// on start), runs each attempt through its kind with a deadline, records the outcome.
import type { Ctx } from '../context.js';
import type { TimerHandle } from '../timers.js';
import { whenOutsideTransaction } from '../store/outside_transaction.js';
import {
  claimDelivery,
  deleteClaimedDelivery,
  rescheduleClaimedDelivery,
  selectDueDeliveries,
  selectNextDueAt,
  type DeliveryRow,
} from '../store/deliveries.js';
import type { DeliveryFailure, DeliveryKind, DeliveryOutcome } from './types.js';

/** Attempts under way at once in one server: enough to overlap slow remotes, few enough to stay polite. */
const MAX_IN_FLIGHT = 16;
/** A claim outlives its attempt's deadline by this much, so that only a crashed sender's rows come due again. */
const LEASE_MARGIN_MS = 1000;
/** How often an idle runner looks for rows it was not woken for (another process's, a crashed one's). */
const POLL_MS = 5000;

type AnyKind = DeliveryKind<unknown>;
type Outcome = DeliveryOutcome<unknown> | { status: 'cancelled' };

/**
 * One per server. Up to MAX_IN_FLIGHT attempts at once; an outcome is deleted, retried after the
 * kind's next delay, failed, or due again later. A row is claimed with a lease (its due_at moves
 * to the attempt's deadline and a margin), so a crashed server's rows come due again. Every wait
 * goes through ctx.timers and every time through ctx.clock, so tests can move time.
 */
export class DeliveryRunner {
  readonly #ctx: Ctx;
  readonly #kinds = new Map<string, AnyKind>();
  readonly #inFlight = new Map<number, Promise<void>>();
  readonly #abort = new AbortController();
  #timer: TimerHandle | undefined;
  #wakeScheduled = false;
  #waitingForHost = false;
  #stopped = false;

  constructor(ctx: Ctx, kinds: readonly AnyKind[]) {
    this.#ctx = ctx;
    for (const kind of kinds) this.add(kind);
  }

  /** Registers a kind (lib/domain/delivery_kinds.ts lists parley's; tests add their own). */
  add(kind: AnyKind): void {
    if (this.#kinds.has(kind.name)) throw new Error(`delivery kind ${kind.name} registered twice`);
    this.#kinds.set(kind.name, kind);
  }

  /** Looks for due rows on the next tick (after the transaction that wrote one has committed). */
  wake(): void {
    if (this.#stopped || this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      this.#pump();
    });
  }

  /** Stops: attempts under way are cancelled and their rows released for the next server. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timer?.cancel();
    this.#abort.abort();
    await Promise.allSettled([...this.#inFlight.values()]);
  }

  /** Resolves once no attempt is under way and no row of an enabled kind is due now (for tests). */
  async settled(): Promise<void> {
    for (;;) {
      await Promise.allSettled([...this.#inFlight.values()]);
      if (this.#stopped) return;
      const next = selectNextDueAt(this.#ctx.store, this.#enabledKinds());
      if (this.#inFlight.size === 0 && (next === undefined || next > this.#ctx.clock())) return;
      this.#pump();
      if (this.#inFlight.size === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Whether an attempt is under way (a host keeps the organization open meanwhile). */
  get busy(): boolean {
    return this.#inFlight.size > 0;
  }

  /** When the next row of an enabled kind comes due (ms), if any: when a host must open the organization again. */
  nextDueAt(): number | undefined {
    return this.#stopped ? undefined : selectNextDueAt(this.#ctx.store, this.#enabledKinds());
  }

  #enabledKinds(): string[] {
    const names: string[] = [];
    for (const kind of this.#kinds.values()) if (kind.enabled(this.#ctx)) names.push(kind.name);
    return names;
  }

  #pump(): void {
    const ctx = this.#ctx;
    if (this.#stopped || !ctx.db.open) return;
    if (ctx.db.inTransaction) {
      // A transaction the host holds open: its rows are not committed (and may never be) yet.
      if (!this.#waitingForHost) {
        this.#waitingForHost = true;
        whenOutsideTransaction(ctx.db, () => {
          this.#waitingForHost = false;
          this.wake();
        });
      }
      return;
    }
    try {
      const kinds = this.#enabledKinds();
      if (kinds.length === 0) return;
      const room = MAX_IN_FLIGHT - this.#inFlight.size;
      // A read first: taking the write lock only when there is something to claim.
      if (room > 0 && selectDueDeliveries(ctx.store, kinds, ctx.clock(), 1).length > 0) {
        for (const { row, claim } of this.#claim(kinds, room)) this.#attempt(this.#kinds.get(row.kind)!, row, claim);
      }
      this.#scheduleNext(kinds);
    } catch (error) {
      // The database was busy or closing: look again later.
      ctx.logger.warn('deliveries: could not read the outbox', { error: String(error) });
      this.#setTimer(POLL_MS);
    }
  }

  #claim(kinds: readonly string[], room: number): { row: DeliveryRow; claim: number }[] {
    const ctx = this.#ctx;
    return ctx.tx(() => {
      const now = ctx.clock();
      const claimed: { row: DeliveryRow; claim: number }[] = [];
      for (const row of selectDueDeliveries(ctx.store, kinds, now, room)) {
        if (this.#inFlight.has(row.id)) continue;
        const claim = ctx.random(6).readUIntBE(0, 6);
        const leaseEnd = now + this.#kinds.get(row.kind)!.timeoutMs(ctx) + LEASE_MARGIN_MS;
        if (claimDelivery(ctx.store, row.id, claim, now, leaseEnd)) claimed.push({ row, claim });
      }
      return claimed;
    });
  }

  #scheduleNext(kinds: readonly string[]): void {
    if (this.#inFlight.size >= MAX_IN_FLIGHT) return; // a finishing attempt pumps again
    const now = this.#ctx.clock();
    const next = selectNextDueAt(this.#ctx.store, kinds);
    const wait = Math.max(0, Math.min(next ?? Infinity, now + POLL_MS) - now);
    // A row still due after a pump claimed what it could is one of this runner's own attempts past
    // its lease (its end pumps again): waiting 0 ms for it would spin.
    this.#setTimer(wait === 0 ? POLL_MS : wait);
  }

  #setTimer(ms: number): void {
    this.#timer?.cancel();
    if (this.#stopped) return;
    this.#timer = this.#ctx.timers.after(ms, () => {
      this.#timer = undefined;
      this.#pump();
    });
  }

  #attempt(kind: AnyKind, row: DeliveryRow, claim: number): void {
    const ctx = this.#ctx;
    const deadline = new AbortController();
    const signal = AbortSignal.any([this.#abort.signal, deadline.signal]);
    const timer = ctx.timers.after(kind.timeoutMs(ctx), () => deadline.abort());
    const run = async (): Promise<void> => {
      let outcome: Outcome;
      let payload: unknown;
      try {
        payload = JSON.parse(row.payload) as unknown;
        const ended = new Promise<Outcome>((resolve) => {
          const end = () => resolve(this.#stopped ? { status: 'cancelled' } : { status: 'retry', reason: 'timeout' });
          if (signal.aborted) end();
          else signal.addEventListener('abort', end, { once: true });
        });
        const sending = kind.send(ctx, { id: row.id, payload, attempt: row.attempts + 1, createdAt: row.created_at, signal });
        outcome = await Promise.race([sending, ended]);
      } catch (error) {
        if (this.#stopped) outcome = { status: 'cancelled' };
        else {
          ctx.logger.error('delivery attempt crashed', { delivery_id: row.id, kind: kind.name, error: String(error) });
          outcome = payload === undefined ? { status: 'failed', reason: 'unreadable payload' } : { status: 'retry', reason: 'crashed' };
        }
      } finally {
        timer.cancel();
      }
      this.#record(kind, row, claim, payload, outcome);
    };
    const attempt = run().finally(() => {
      this.#inFlight.delete(row.id);
      this.#pump();
    });
    this.#inFlight.set(row.id, attempt);
  }

  /** Writes what the attempt came to, unless its claim was lost (its lease ended, or a newer row replaced it). */
  #record(kind: AnyKind, row: DeliveryRow, claim: number, payload: unknown, outcome: Outcome): void {
    const ctx = this.#ctx;
    if (!ctx.db.open) return;
    const fields = { delivery_id: row.id, kind: kind.name, attempt: row.attempts + 1 };
    const fail = (failure: DeliveryFailure, finalPayload: unknown): void => {
      if (deleteClaimedDelivery(ctx.store, row.id, claim) && finalPayload !== undefined) kind.failed?.(ctx, finalPayload, failure);
    };
    try {
      ctx.tx(() => {
        const now = ctx.clock();
        const again = (dueAt: number, next: unknown, lastError: string | null, attempts: number | null) =>
          rescheduleClaimedDelivery(ctx.store, row.id, claim, { dueAt, payload: next === undefined ? null : JSON.stringify(next), lastError, attempts });
        switch (outcome.status) {
          case 'sent':
            if (deleteClaimedDelivery(ctx.store, row.id, claim)) kind.succeeded?.(ctx, outcome.payload ?? payload);
            return;
          case 'cancelled':
            // The server stopped: the next one starts this attempt over, uncounted.
            again(now, undefined, row.last_error, row.attempts);
            return;
          case 'busy':
            again(outcome.dueAt, undefined, row.last_error, row.attempts);
            return;
          case 'later':
            again(outcome.dueAt, outcome.payload, null, 0);
            return;
          case 'failed':
            ctx.logger.error('delivery failed', { ...fields, reason: outcome.reason, code: outcome.code });
            fail({ reason: outcome.reason, code: outcome.code, exhausted: false }, outcome.payload ?? payload);
            return;
          case 'retry': {
            const delays = kind.retryDelaysMs(ctx);
            const delay = delays[row.attempts];
            if (delay !== undefined) {
              ctx.logger.warn('delivery failed; will retry', { ...fields, reason: outcome.reason, code: outcome.code, retry_in_ms: delay });
              again(now + delay, outcome.payload, outcome.code ?? outcome.reason, null);
              return;
            }
            ctx.logger.error('delivery failed; no retries left', { ...fields, reason: outcome.reason, code: outcome.code });
            fail({ reason: outcome.reason, code: outcome.code, exhausted: true }, outcome.payload ?? payload);
          }
        }
      });
    } catch (error) {
      // The claim stays until its lease ends; the row is attempted again then.
      ctx.logger.error('delivery outcome not recorded', { ...fields, error: String(error) });
    }
  }
}

const runners = new WeakMap<Ctx, DeliveryRunner>();

/** Starts the server's runner with its kinds and resumes the rows its database holds. */
export function startDeliveries(ctx: Ctx, kinds: readonly AnyKind[]): DeliveryRunner {
  const runner = new DeliveryRunner(ctx, kinds);
  runners.set(ctx, runner);
  runner.wake();
  return runner;
}

/** createChatServer's close: cancels attempts under way (their rows wait for the next server). */
export function stopDeliveries(ctx: Ctx): Promise<void> {
  return runners.get(ctx)?.stop() ?? Promise.resolve();
}

/** Called when a delivery was written (outbox.ts) or a kind became enabled. */
export function wakeDeliveries(ctx: Ctx): void {
  runners.get(ctx)?.wake();
}

/** The server's runner (tests add kinds and wait for it to settle). */
export function deliveryRunner(ctx: Ctx): DeliveryRunner | undefined {
  return runners.get(ctx);
}
