// Waiting for the connection to be outside any transaction: what was written in a transaction the
// host application opened is read (by event waiters, by the delivery runner) only once it ended.
import type { Database } from './db.js';

/** How often a transaction the host holds across an await is looked at again, in ms. */
const HELD_TRANSACTION_POLL_MS = 5;

/**
 * Runs fn on the next tick at which the connection is outside any transaction (and still open).
 * Returns the function that cancels it.
 */
export function whenOutsideTransaction(db: Database, fn: () => void): () => void {
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  const check = (): void => {
    if (cancelled || !db.open) return;
    if (!db.inTransaction) {
      fn();
      return;
    }
    timer = setTimeout(check, HELD_TRANSACTION_POLL_MS);
    timer.unref();
  };
  setImmediate(check);
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}
