// Column changes to existing tables, by the schema version that introduced them. New tables and
// indexes need no entry: schema.sql is re-applied (IF NOT EXISTS) after these run.
import type { Database } from './db.js';

export interface Migration {
  /** The schema version this migration brings a database up to. */
  version: number;
  up(db: Database): void;
}

export const MIGRATIONS: readonly Migration[] = [];

/** The version schema.sql describes; stored in PRAGMA user_version. */
export const SCHEMA_VERSION = 1;
