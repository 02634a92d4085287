// A `libsql` Database (libSQL's better-sqlite3-style API) made to behave like better-sqlite3 where
// parley relies on it; a better-sqlite3 Database is returned unchanged (no cost on the usual path).
import type { Database } from './db.js';

/** A row as libsql returns it: its columns by name (and libsql's own `_metadata`). */
type Row = Record<string, unknown>;

/** The parts of libsql's Database and Statement that this adapter calls. */
interface LibsqlStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggle?: boolean): LibsqlStatement;
  raw(toggle?: boolean): LibsqlStatement;
  columns(): unknown[];
}

/** What parley needs of a `libsql` Database (createChatServer accepts one). */
export interface LibsqlDatabase {
  memory: boolean;
  open: boolean;
  readonly inTransaction: boolean;
  prepare(sql: string): LibsqlStatement;
  exec(sql: string): void;
  close(): void;
  sync(): unknown;
}

/** libsql's Database has embedded-replica methods better-sqlite3 lacks. */
export function isLibsql(db: unknown): boolean {
  const candidate = db as { syncUntil?: unknown; prepare?: unknown } | null;
  return typeof candidate?.syncUntil === 'function' && typeof candidate.prepare === 'function';
}

const isNamed = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value);

/**
 * libsql takes any single object argument as named parameters: a lone null or Buffer fails
 * (a Buffer aborts the process), so positional parameters always go as one array.
 */
function bind(params: unknown[]): unknown[] {
  return params.length === 1 && isNamed(params[0]) ? params : [params.flat()];
}

/** libsql's all() and iterate() give a BLOB as an ArrayBuffer (get() gives a Buffer, as better-sqlite3 always does). */
function withBuffers(row: unknown): unknown {
  if (row instanceof ArrayBuffer) return Buffer.from(row);
  if (row === null || typeof row !== 'object' || Buffer.isBuffer(row)) return row;
  if (Array.isArray(row)) return row.some((v) => v instanceof ArrayBuffer) ? row.map(withBuffers) : row;
  const entries = Object.entries(row);
  if (!entries.some(([, v]) => v instanceof ArrayBuffer)) return row;
  return Object.fromEntries(entries.map(([k, v]) => [k, withBuffers(v)]));
}

/** libsql's get() adds a `_metadata` key to each row and ignores pluck(). */
class CompatStatement {
  #plucked = false;
  #raw = false;
  readonly #inner: LibsqlStatement;

  constructor(inner: LibsqlStatement) {
    this.#inner = inner;
  }

  pluck(toggle = true): this {
    this.#plucked = toggle;
    if (toggle) this.raw(false);
    this.#inner.pluck(toggle);
    return this;
  }

  raw(toggle = true): this {
    this.#raw = toggle;
    if (toggle) this.#plucked = false;
    this.#inner.pluck(this.#plucked);
    this.#inner.raw(toggle);
    return this;
  }

  get(...params: unknown[]): unknown {
    const row = this.#inner.get(...bind(params)) as Row | unknown[] | undefined;
    if (row === undefined || this.#raw) return row;
    if (this.#plucked) return Object.values(row)[0];
    const { _metadata: _, ...columns } = row as Row;
    return columns;
  }

  all(...params: unknown[]): unknown[] {
    return this.#inner.all(...bind(params)).map(withBuffers);
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    for (const row of this.#inner.iterate(...bind(params))) yield withBuffers(row);
  }

  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    const { changes, lastInsertRowid } = this.#inner.run(...bind(params));
    return { changes, lastInsertRowid };
  }

  columns(): unknown[] {
    return this.#inner.columns();
  }
}

type TransactionMode = '' | 'DEFERRED' | 'IMMEDIATE' | 'EXCLUSIVE';

/** libsql's transaction() always runs BEGIN; better-sqlite3 nests as savepoints, which ctx.tx relies on. */
class CompatDatabase {
  readonly #inner: LibsqlDatabase;
  #savepoints = 0;

  constructor(inner: LibsqlDatabase) {
    this.#inner = inner;
  }

  get memory(): boolean {
    return this.#inner.memory;
  }

  /** libsql does not expose the file name; not '' (which better-sqlite3 uses for a temporary database). */
  get name(): string {
    return this.#inner.memory ? ':memory:' : 'libsql';
  }

  get open(): boolean {
    return this.#inner.open;
  }

  get inTransaction(): boolean {
    return this.#inner.inTransaction;
  }

  /** The libsql Database behind this adapter (for sync() of an embedded replica). */
  get libsql(): LibsqlDatabase {
    return this.#inner;
  }

  prepare(sql: string): CompatStatement {
    return new CompatStatement(this.#inner.prepare(sql));
  }

  exec(sql: string): this {
    this.#inner.exec(sql);
    return this;
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`);
    return options.simple ? statement.pluck().get() : statement.all();
  }

  close(): this {
    this.#inner.close();
    return this;
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R) {
    const inMode = (mode: TransactionMode) => (...args: A): R => {
      if (this.#inner.inTransaction) return this.#savepoint(() => fn(...args));
      this.#inner.exec(`BEGIN ${mode}`);
      try {
        const result = fn(...args);
        this.#inner.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#inner.inTransaction) this.#inner.exec('ROLLBACK');
        throw error;
      }
    };
    return Object.assign(inMode(''), {
      default: inMode(''),
      deferred: inMode('DEFERRED'),
      immediate: inMode('IMMEDIATE'),
      exclusive: inMode('EXCLUSIVE'),
    });
  }

  #savepoint<R>(fn: () => R): R {
    const name = `parley_${++this.#savepoints}`;
    this.#inner.exec(`SAVEPOINT ${name}`);
    try {
      const result = fn();
      this.#inner.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      if (this.#inner.inTransaction) this.#inner.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    } finally {
      this.#savepoints--;
    }
  }
}

/** The Database parley works with: better-sqlite3 as is, libsql through the adapter. */
export function compatibleDatabase(db: Database | LibsqlDatabase): Database {
  if (!isLibsql(db)) return db as Database;
  return new CompatDatabase(db as unknown as LibsqlDatabase) as unknown as Database;
}
