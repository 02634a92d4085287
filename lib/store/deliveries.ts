// SQL for the delivery table, the outbox of lib/deliveries/: writing rows in a domain transaction,
// claiming due rows for an attempt, and recording each attempt's outcome.
import type { Store } from './db.js';

export interface DeliveryRow {
  id: number;
  kind: string;
  key: string | null;
  payload: string;
  due_at: number;
  claim: number | null;
  attempts: number;
  last_error: string | null;
  created_at: number;
}

interface NewDelivery {
  kind: string;
  key: string | null;
  payload: string;
  dueAt: number;
  createdAt: number;
}

/** A new row; with a key already pending, nothing (the pending row stands). Returns whether it was written. */
export function insertDelivery(s: Store, d: NewDelivery): boolean {
  const result = s.run(
    `INSERT INTO delivery (kind, key, payload, due_at, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (kind, key) WHERE key IS NOT NULL DO NOTHING`,
    d.kind,
    d.key,
    d.payload,
    d.dueAt,
    d.createdAt,
  );
  return result.changes > 0;
}

/** A new row, or the pending row of the same key made new again (its attempt, if any, loses the row). */
export function upsertDelivery(s: Store, d: NewDelivery): void {
  s.run(
    `INSERT INTO delivery (kind, key, payload, due_at, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (kind, key) WHERE key IS NOT NULL DO UPDATE SET
       payload = excluded.payload, due_at = excluded.due_at, claim = NULL, attempts = 0, last_error = NULL, created_at = excluded.created_at`,
    d.kind,
    d.key,
    d.payload,
    d.dueAt,
    d.createdAt,
  );
}

/** Up to `limit` rows of these kinds due at `now`, the longest due first. */
export function selectDueDeliveries(s: Store, kinds: readonly string[], now: number, limit: number): DeliveryRow[] {
  return s.all<DeliveryRow>(
    'SELECT * FROM delivery WHERE due_at <= ? AND kind IN (SELECT value FROM json_each(?)) ORDER BY due_at LIMIT ?',
    now,
    JSON.stringify(kinds),
    limit,
  );
}

/** When the next row of these kinds comes due (a claimed one: when its lease ends), if any. */
export function selectNextDueAt(s: Store, kinds: readonly string[]): number | undefined {
  const next = s.prepare('SELECT min(due_at) FROM delivery WHERE kind IN (SELECT value FROM json_each(?))').pluck().get(JSON.stringify(kinds));
  return (next as number | null) ?? undefined;
}

/** Takes a due row for one attempt until `leaseEnd`; false when another process took it first. */
export function claimDelivery(s: Store, id: number, claim: number, now: number, leaseEnd: number): boolean {
  return s.run('UPDATE delivery SET claim = ?, due_at = ?, attempts = attempts + 1 WHERE id = ? AND due_at <= ?', claim, leaseEnd, id, now).changes > 0;
}

/** The attempt holding `claim` is over and the row is done with. */
export function deleteClaimedDelivery(s: Store, id: number, claim: number): boolean {
  return s.run('DELETE FROM delivery WHERE id = ? AND claim = ?', id, claim).changes > 0;
}

/**
 * The attempt holding `claim` is over and the row comes due again at `dueAt`, with a new payload
 * when one is given; `attempts` is set when given (0 starts the retry count again).
 */
export function rescheduleClaimedDelivery(
  s: Store,
  id: number,
  claim: number,
  r: { dueAt: number; payload: string | null; lastError: string | null; attempts: number | null },
): boolean {
  return (
    s.run(
      `UPDATE delivery SET claim = NULL, due_at = ?, payload = coalesce(?, payload), last_error = ?, attempts = coalesce(?, attempts)
       WHERE id = ? AND claim = ?`,
      r.dueAt,
      r.payload,
      r.lastError,
      r.attempts,
      id,
      claim,
    ).changes > 0
  );
}
