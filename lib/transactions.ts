// Transactions on a server's connection: parley's own (ctx.tx), the host application's
// (chat.transaction, or its own db.transaction() that parley's calls join), and what runs once
// each has committed: waking event waiters and the WAL checkpoints (deliveries wake themselves,
// lib/deliveries/runner.ts). Nothing is released before the outermost commit, and a rollback
// leaves nothing to release: waiters and deliveries only ever read committed rows.
import type { Database } from './store/db.js';
import { whenOutsideTransaction } from './store/outside_transaction.js';
import { databaseBusy } from './errors.js';

export class Transactions {
  readonly #db: Database;
  readonly #committed: () => void;
  /** One wrapper for every call (better-sqlite3 builds one per db.transaction()). */
  readonly #wrapper: ((fn: () => unknown) => unknown) & { immediate: (fn: () => unknown) => unknown };
  /** ctx.tx frames under way: inside one, ctx.tx joins it. */
  #depth = 0;
  #releasePending = false;

  /** `committed` runs after every commit that parley's writes were part of. */
  constructor(db: Database, committed: () => void) {
    this.#db = db;
    this.#committed = committed;
    this.#wrapper = db.transaction((fn: () => unknown) => fn());
  }

  /**
   * ctx.tx: one IMMEDIATE transaction, or, inside parley's own, fn joins it (a request is all or
   * nothing). Inside a transaction the host opened, fn is a savepoint of it (each call all or
   * nothing, whatever the host does with its error), released once the host's transaction ends.
   */
  run<T>(fn: () => T): T {
    if (this.#depth > 0) return fn();
    const hosted = this.#db.inTransaction;
    this.#depth += 1;
    let result: T;
    try {
      result = (hosted ? this.#wrapper(fn) : this.#wrapper.immediate(fn)) as T;
    } catch (error) {
      throw databaseBusy(error) ?? error;
    } finally {
      this.#depth -= 1;
    }
    if (hosted) this.#releaseAfterHostTransaction();
    else this.#committed();
    return result;
  }

  /**
   * chat.transaction: fn, with the host's own writes and any chat.api / chat.admin calls in it, as
   * one IMMEDIATE transaction (a savepoint inside a transaction already open). fn must be
   * synchronous: better-sqlite3 refuses a promise, and rolls back.
   */
  host<T>(fn: () => T): T {
    if (this.#depth > 0) throw new Error('chat.transaction cannot be called while a chat call runs');
    const nested = this.#db.inTransaction;
    let result: T;
    try {
      result = (nested ? this.#wrapper(fn) : this.#wrapper.immediate(fn)) as T;
    } catch (error) {
      throw databaseBusy(error) ?? error;
    }
    if (nested) this.#releaseAfterHostTransaction();
    else this.#committed();
    return result;
  }

  /**
   * After a write inside the host's transaction: once the connection is outside any transaction
   * (the next tick for better-sqlite3's synchronous db.transaction(); later for one the host holds
   * across an await), what it committed is released; after a rollback there is nothing new to see.
   */
  #releaseAfterHostTransaction(): void {
    if (this.#releasePending) return;
    this.#releasePending = true;
    whenOutsideTransaction(this.#db, () => {
      this.#releasePending = false;
      this.#committed();
    });
  }
}
