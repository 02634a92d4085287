// The prepared-statement cache every store module goes through: each SQL text is prepared once
// per database, the first time it is used, and reused by every later request.
import type BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;

export class Store {
  readonly db: Database;
  readonly #statements = new Map<string, Statement>();

  constructor(db: Database) {
    this.db = db;
  }

  prepare(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
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
