// The prepared-statement cache every store module goes through: each fixed SQL text is prepared
// once per database, the first time it is used, and reused by every later request; SQL shaped by
// a request (a narrow's) is kept in a small cache of the most recently used texts instead.
import type BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;

/**
 * Statements built from a request's shape kept prepared. Each holds about 17 KB of SQLite's memory
 * (3,000 narrow shapes held 50-120 MiB when every text was kept); re-preparing one that fell out
 * costs tens of microseconds.
 */
export const MAX_BUILT_STATEMENTS = 100;

export class Store {
  readonly db: Database;
  readonly #statements = new Map<string, Statement>();
  /** In least recently used order: the first one is dropped when a new one comes past the limit. */
  readonly #built = new Map<string, Statement>();

  constructor(db: Database) {
    this.db = db;
  }

  /** A statement whose text is fixed in the code: kept for the life of the store. */
  prepare(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * A statement whose text a request shaped (its narrow's terms): of those, only the
   * MAX_BUILT_STATEMENTS most recently used stay prepared, so that no number of shapes grows memory.
   */
  prepareBuilt(sql: string): Statement {
    let statement = this.#built.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.#built.size >= MAX_BUILT_STATEMENTS) this.#built.delete(this.#built.keys().next().value!);
    } else this.#built.delete(sql);
    this.#built.set(sql, statement);
    return statement;
  }

  /** How many statements are kept prepared: the fixed ones and the built ones. */
  get preparedCount(): { fixed: number; built: number } {
    return { fixed: this.#statements.size, built: this.#built.size };
  }

  get<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.prepare(sql).get(...params) as T | undefined;
  }

  all<T>(sql: string, ...params: unknown[]): T[] {
    return this.prepare(sql).all(...params) as T[];
  }

  run(sql: string, ...params: unknown[]): BetterSqlite3.RunResult {
    return this.prepare(sql).run(...params);
  }
}

/** SQLite stores booleans as 0/1. */
export const bit = (value: boolean): number => (value ? 1 : 0);
