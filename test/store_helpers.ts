// Shared by the store suites (test/store.test.ts, test/store_migrations.test.ts): database files
// of the test driver, removed after the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import type Database from 'better-sqlite3';
import { compatibleDatabase } from '../lib/store/libsql.js';
import { openTestDatabase } from './helpers.js';

export function tempFile(t: Test, name = 'chat.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, name);
}

/** A database of the test driver, through the adapter parley uses (better-sqlite3 as it is). */
export const openDriver = (file: string): Database.Database => compatibleDatabase(openTestDatabase(file));

/** The test driver's database on `file`, closed after the test. */
export function open(t: Test, file: string): Database.Database {
  const db = openDriver(file);
  t.teardown(() => {
    if (db.open) db.close();
  });
  return db;
}

export const pragma = (db: Database.Database, name: string): unknown => db.pragma(name, { simple: true });
