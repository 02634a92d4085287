// The delivery outbox: enqueueDelivery, which a domain function calls inside its transaction to
// have something sent after the commit (types.ts says what a kind of delivery is; runner.ts sends).
import type { Ctx } from '../context.js';
import { insertDelivery, upsertDelivery } from '../store/deliveries.js';
import { wakeDeliveries } from './runner.js';
import type { DeliveryKindName } from './types.js';

export type { Delivery, DeliveryFailure, DeliveryKind, DeliveryKindName, DeliveryOutcome } from './types.js';

interface EnqueueOptions {
  /** Due this many ms after now (default 0: right after the commit). */
  delayMs?: number | undefined;
  /**
   * At most one pending delivery of the kind per key. With `join` (the default) a pending row
   * stands and this one is dropped (later decisions join the pending batch); with `replace` this
   * one replaces it, and an attempt under way on the old one loses it.
   */
  key?: string | undefined;
  onPending?: 'join' | 'replace' | undefined;
}

/**
 * Writes a delivery in the caller's transaction (call inside ctx.tx): it is sent after the commit,
 * by this server or the next one on the database; a rollback drops it with everything else.
 * Returns false when it joined a pending delivery of the same key.
 */
export function enqueueDelivery<P>(ctx: Ctx, kind: DeliveryKindName<P>, payload: P, options: EnqueueOptions = {}): boolean {
  if (!ctx.db.inTransaction) throw new Error('enqueueDelivery must run inside a transaction');
  const now = ctx.clock();
  const row = { kind: kind.name, key: options.key ?? null, payload: JSON.stringify(payload), dueAt: now + (options.delayMs ?? 0), createdAt: now };
  let written = true;
  if (row.key !== null && options.onPending === 'replace') upsertDelivery(ctx.store, row);
  else written = insertDelivery(ctx.store, row);
  if (written) wakeDeliveries(ctx);
  return written;
}
