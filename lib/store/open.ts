// Opening a database for parley: pragmas, then schema.sql applied to a new database or an older
// parley database migrated forward (PRAGMA user_version). Opening an up-to-date one reads no file.
import { readFileSync } from 'node:fs';
import type { Database } from './db.js';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations.js';

export type Synchronous = 'NORMAL' | 'FULL';

export interface OpenOptions {
  /** NORMAL (default): an acknowledged write survives a crash of the process; FULL: also power loss. */
  synchronous?: Synchronous | undefined;
  /** How long a writer waits for another process's lock before failing, in milliseconds. */
  busyTimeoutMs?: number | undefined;
}

const SCHEMA_URL = new URL('../../schema.sql', import.meta.url);
let schemaText: string | undefined;

/** schema.sql, read once per process (bot authors create a server per test). */
function readSchema(): string {
  schemaText ??= readFileSync(SCHEMA_URL, 'utf8');
  return schemaText;
}

function isMemoryDatabase(db: Database): boolean {
  return db.memory || db.name === '' || db.name === ':memory:';
}

export function prepareDatabase(db: Database, options: OpenOptions = {}): void {
  if (!isMemoryDatabase(db)) db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  db.pragma(`synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
  migrate(db);
}

function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export interface SchemaPlan {
  version: number;
  migrations: readonly Migration[];
  /** The schema text; read from schema.sql when not given. */
  schema?: string | undefined;
}

/** Brings the database to `plan.version` (parley's current schema unless a test passes another plan). */
export function migrate(db: Database, plan: SchemaPlan = { version: SCHEMA_VERSION, migrations: MIGRATIONS }): void {
  const target = plan.version;
  if (schemaVersion(db) === target) return;
  const schema = plan.schema ?? readSchema();
  db.transaction(() => {
    // Read again under the write lock: another process may have migrated meanwhile.
    const version = schemaVersion(db);
    if (version === target) return;
    if (version > target) {
      throw new Error(`This database was written by a newer parley (schema version ${version}; this parley knows ${target}).`);
    }
    const pending = version > 0 ? plan.migrations.filter((m) => m.version > version && m.version <= target) : [];
    for (const migration of pending) migration.up(db);
    db.exec(schema);
    for (const migration of pending) migration.afterSchema?.(db);
    db.pragma(`user_version = ${target}`);
  }).immediate();
}
