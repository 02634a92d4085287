// lib/store/libsql.ts: a libsql Database behaves like better-sqlite3 where parley relies on it
// (rows without libsql's `_metadata`, BLOBs as Buffers, pluck on get, lone null/Buffer parameters, nested
// transactions as savepoints, PRAGMA simple), and a parley server runs on it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import BetterSqlite3 from 'better-sqlite3';
import { createChatServer } from '../../lib/index.js';
import { silentLogger } from '../../lib/logger.js';
import type { Database } from '../../lib/store/db.js';
import { compatibleDatabase, isLibsql } from '../../lib/store/libsql.js';
import { startServer } from '../helpers.js';
import { contextOf } from '../../lib/context.js';

const Libsql = createRequire(import.meta.url)('libsql') as new (path: string) => Database;

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-libsql-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'chat.db');
}

function adapted(): Database {
  const db = compatibleDatabase(new Libsql(':memory:'));
  db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, data BLOB) STRICT');
  t.teardown(() => db.close());
  return db;
}

t.test('a better-sqlite3 Database is used as it is; a libsql one is adapted', async (t) => {
  const better = new BetterSqlite3(':memory:');
  t.teardown(() => better.close());
  t.equal(compatibleDatabase(better), better);
  t.notOk(isLibsql(better));
  const libsql = new Libsql(':memory:');
  t.teardown(() => libsql.close());
  t.ok(isLibsql(libsql));
  t.not(compatibleDatabase(libsql), libsql);
});

t.test('rows come without libsql\'s _metadata; pluck() and raw() apply to get() and all()', async (t) => {
  const db = adapted();
  db.prepare('INSERT INTO item (name) VALUES (?)').run('a');
  db.prepare('INSERT INTO item (name) VALUES (?)').run('b');
  t.same(db.prepare('SELECT id, name FROM item WHERE id = ?').get(1), { id: 1, name: 'a' });
  t.same(Object.keys(db.prepare('SELECT id, name FROM item WHERE id = ?').get(1) as object), ['id', 'name']);
  t.equal(db.prepare('SELECT count(*) FROM item').pluck().get(), 2);
  t.equal(db.prepare('SELECT name FROM item WHERE id = ?').pluck().get(99), undefined);
  t.same(db.prepare('SELECT name FROM item ORDER BY id').pluck().all(), ['a', 'b']);
  t.same(db.prepare('SELECT id, name FROM item ORDER BY id').raw().all(), [[1, 'a'], [2, 'b']]);
  t.same(db.prepare('SELECT id, name FROM item WHERE id = 2').raw().get(), [2, 'b']);
  t.same(db.prepare('SELECT id FROM item WHERE name = @name').get({ name: 'b' }), { id: 2 });
});

t.test('a lone null or Buffer parameter binds positionally (libsql would take it for named parameters)', async (t) => {
  const db = adapted();
  const insert = db.prepare('INSERT INTO item (name) VALUES (?)');
  t.same(insert.run(null), { changes: 1, lastInsertRowid: 1 });
  t.equal(db.prepare('SELECT length(?)').pluck().get(Buffer.from([1, 2, 3])), 3);
  db.prepare('UPDATE item SET data = ? WHERE id = 1').run(Buffer.from('xy'));
  t.same(db.prepare('SELECT data FROM item WHERE data = ?').pluck().get(Buffer.from('xy')), Buffer.from('xy'));
  t.equal(db.prepare('SELECT count(*) FROM item WHERE name IS ?').pluck().get(null), 1);
});

t.test('a BLOB comes back as a Buffer from get(), all() and iterate(), in every row shape', async (t) => {
  const db = adapted();
  db.prepare('INSERT INTO item (name, data) VALUES (?, ?)').run('a', Buffer.from([1, 2, 3]));
  const data = Buffer.from([1, 2, 3]);
  const select = 'SELECT name, data FROM item';
  t.same(db.prepare(select).get(), { name: 'a', data });
  t.same(db.prepare(select).all(), [{ name: 'a', data }]);
  t.same([...db.prepare(select).iterate()], [{ name: 'a', data }]);
  t.same(db.prepare(select).raw().all(), [['a', data]]);
  t.same(db.prepare('SELECT data FROM item').pluck().all(), [data]);
  t.ok(Buffer.isBuffer((db.prepare(select).all()[0] as { data: unknown }).data));
  t.ok(Buffer.isBuffer(db.prepare('SELECT data FROM item').pluck().all()[0]));
});

t.test('nested transactions are savepoints: an inner failure rolls back only the inner part', async (t) => {
  const db = adapted();
  const insert = db.prepare('INSERT INTO item (name) VALUES (?)');
  const names = () => db.prepare('SELECT name FROM item ORDER BY id').pluck().all();
  db.transaction(() => {
    insert.run('outer');
    t.throws(() =>
      db.transaction(() => {
        insert.run('inner');
        throw new Error('inner fails');
      })(),
    );
    db.transaction(() => insert.run('inner kept'))();
  }).immediate();
  t.same(names(), ['outer', 'inner kept']);
  t.notOk(db.inTransaction);
  t.throws(() =>
    db.transaction(() => {
      insert.run('gone');
      db.transaction(() => insert.run('gone too'))();
      throw new Error('outer fails');
    }).immediate(),
  );
  t.same(names(), ['outer', 'inner kept'], 'the outer failure rolled everything back');
  t.notOk(db.inTransaction);
});

t.test('pragma: simple gives the value, otherwise the rows', async (t) => {
  const db = adapted();
  t.equal(db.pragma('user_version', { simple: true }), 0);
  db.pragma('user_version = 7');
  t.same(db.pragma('user_version'), [{ user_version: 7 }]);
});

t.test('createChatServer on a libsql file: WAL, the schema, and the API', async (t) => {
  const file = tempFile();
  const chat = createChatServer(new Libsql(file), { logger: silentLogger });
  t.teardown(async () => {
    await chat.close();
    contextOf(chat).db.close();
  });
  t.equal(contextOf(chat).db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(contextOf(chat).db.pragma('foreign_keys', { simple: true }), 1);
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com' });
  t.equal(chat.api.users.me(owner.user_id).delivery_email, 'owner@example.com');
  // A better-sqlite3 connection (another process, say) reads the same file.
  const other = new BetterSqlite3(file);
  t.teardown(() => other.close());
  t.equal(other.prepare('SELECT email FROM user WHERE id = ?').pluck().get(owner.user_id), 'owner@example.com');
});

t.test('startServer honours PARLEY_TEST_DRIVER=libsql', async (t) => {
  const saved = process.env.PARLEY_TEST_DRIVER;
  process.env.PARLEY_TEST_DRIVER = 'libsql';
  t.teardown(() => {
    if (saved === undefined) delete process.env.PARLEY_TEST_DRIVER;
    else process.env.PARLEY_TEST_DRIVER = saved;
  });
  const s = await startServer();
  t.teardown(() => s.close());
  t.ok('libsql' in s.db, 'the server database is the libsql adapter');
  const reply = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(reply.status, 200);
});
