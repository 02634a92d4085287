// Opening a database (lib/store/open.ts): pragmas, re-opening, migrating an older schema forward
// with an injected plan, refusing a newer one, and :memory:. The database is the test driver's
// (test/libsql/store.test.ts runs this file on libsql). Each schema version's migration of real
// data: test/store_migrations.test.ts.
import t from 'tap';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { migrate, prepareDatabase, type SchemaPlan } from '../lib/store/open.js';
import { SCHEMA_VERSION } from '../lib/store/migrations.js';
import { open, openDriver, pragma, tempFile } from './store_helpers.js';

t.test('a file database gets WAL, foreign keys, a busy timeout and synchronous=NORMAL', async (t) => {
  const db = open(t, tempFile(t));
  const chat = createChatServer(db, { logger: silentLogger });
  t.teardown(() => chat.close());
  t.equal(pragma(db, 'journal_mode'), 'wal');
  t.equal(pragma(db, 'foreign_keys'), 1);
  t.ok((pragma(db, 'busy_timeout') as number) > 0, 'busy_timeout > 0');
  t.equal(pragma(db, 'synchronous'), 1, 'NORMAL');
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  const orphanBot = `INSERT INTO user (email, full_name, role, api_key, date_joined, bot_type, bot_owner_id) VALUES ('b@x.test', 'Bot', 400, 'k', 0, 1, 999)`;
  t.throws(() => db.exec(orphanBot), /FOREIGN KEY/, 'foreign keys are enforced');
});

t.test("synchronous: 'FULL' makes every commit survive power loss", async (t) => {
  const db = open(t, tempFile(t));
  const chat = createChatServer(db, { logger: silentLogger, synchronous: 'FULL' });
  t.teardown(() => chat.close());
  t.equal(pragma(db, 'synchronous'), 2, 'FULL');
  t.equal(pragma(db, 'journal_mode'), 'wal');
});

t.test('opening an existing database again keeps its data and is harmless', async (t) => {
  const file = tempFile(t);
  const first = openDriver(file);
  const chat = createChatServer(first, { logger: silentLogger, realm: { name: 'First' } });
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' });
  const uuid = first.prepare('SELECT uuid FROM realm').pluck().get();
  await chat.close();
  first.close();

  const db = open(t, file);
  const again = createChatServer(db, { logger: silentLogger, realm: { name: 'Ignored on an existing database' } });
  t.teardown(() => again.close());
  t.ok(again.admin.hasUsers());
  t.match(again.api.users.me(owner.user_id), { delivery_email: 'owner@example.com', role: 100 });
  t.equal(db.prepare('SELECT uuid FROM realm').pluck().get(), uuid, 'the same organization');
  t.equal(again.api.server.settings(null).realm_name, 'First');
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  const twice = createChatServer(db, { logger: silentLogger });
  t.teardown(() => twice.close());
  t.equal(twice.api.users.list(owner.user_id).members.length, 1, 'a second server on the same handle sees the same data');
  t.rejects(again.admin.initOrganization({ email: 'x@example.com' }), /already has an organization/);
});

const V1: SchemaPlan = {
  version: 1,
  migrations: [],
  schema: `CREATE TABLE IF NOT EXISTS thing (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;`,
};

const V2: SchemaPlan = {
  version: 2,
  migrations: [{ version: 2, up: (db) => db.exec(`ALTER TABLE thing ADD COLUMN color TEXT NOT NULL DEFAULT 'red'`) }],
  schema: `CREATE TABLE IF NOT EXISTS thing (id INTEGER PRIMARY KEY, name TEXT NOT NULL, color TEXT NOT NULL DEFAULT 'red') STRICT;
           CREATE INDEX IF NOT EXISTS thing_by_color ON thing (color);
           CREATE TABLE IF NOT EXISTS other (id INTEGER PRIMARY KEY) STRICT;`,
};

t.test('migrate() brings an older database forward, keeping its rows', async (t) => {
  const db = open(t, tempFile(t));
  migrate(db, V1);
  t.equal(pragma(db, 'user_version'), 1);
  db.prepare('INSERT INTO thing (name) VALUES (?), (?)').run('a', 'b');
  migrate(db, V2);
  t.equal(pragma(db, 'user_version'), 2);
  t.same(db.prepare('SELECT id, name, color FROM thing ORDER BY id').all(), [
    { id: 1, name: 'a', color: 'red' },
    { id: 2, name: 'b', color: 'red' },
  ]);
  t.ok(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'thing_by_color'").get(), 'new indexes are created');
  t.ok(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'other'").get(), 'new tables are created');
  migrate(db, V2);
  t.equal(pragma(db, 'user_version'), 2, 'migrating an up-to-date database does nothing');
});

t.test('only the migrations above the database version run; a new database gets the schema directly', async (t) => {
  const runs: number[] = [];
  const plan = (version: number): SchemaPlan => ({
    version,
    migrations: [2, 3].map((v) => ({ version: v, up: () => void runs.push(v) })),
    schema: V1.schema,
  });
  const db = open(t, tempFile(t));
  migrate(db, plan(2));
  t.same(runs, [], 'a new database (version 0) needs no migration');
  migrate(db, plan(3));
  t.same(runs, [3]);
  t.equal(pragma(db, 'user_version'), 3);
});

t.test('a failing migration leaves the database as it was', async (t) => {
  const db = open(t, tempFile(t));
  migrate(db, V1);
  db.prepare('INSERT INTO thing (name) VALUES (?)').run('kept');
  const broken: SchemaPlan = {
    ...V2,
    migrations: [{ version: 2, up: (d) => { d.exec(`ALTER TABLE thing ADD COLUMN color TEXT`); throw new Error('migration bug'); } }],
  };
  t.throws(() => migrate(db, broken), /migration bug/);
  t.equal(pragma(db, 'user_version'), 1);
  t.same(db.prepare('SELECT * FROM thing').all(), [{ id: 1, name: 'kept' }], 'the column was not added');
});

t.test('a database from a newer parley is refused with a clear error', async (t) => {
  const file = tempFile(t);
  const db = open(t, file);
  migrate(db, V2);
  t.throws(() => migrate(db, V1), { message: 'This database was written by a newer parley (schema version 2; this parley knows 1).' });
  t.equal(pragma(db, 'user_version'), 2, 'untouched');
  const future = open(t, tempFile(t, 'future.db'));
  future.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  t.throws(() => createChatServer(future, { logger: silentLogger }), /written by a newer parley/);
});

t.test(':memory: databases work (no WAL), and are ready at once', async (t) => {
  const db = open(t, ':memory:');
  const chat = createChatServer(db, { logger: silentLogger });
  t.teardown(() => chat.close());
  t.equal(pragma(db, 'journal_mode'), 'memory');
  t.equal(pragma(db, 'foreign_keys'), 1);
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' });
  t.equal(chat.api.users.me(owner.user_id).user_id, owner.user_id);
  const bare = open(t, ':memory:');
  prepareDatabase(bare);
  t.equal(pragma(bare, 'user_version'), SCHEMA_VERSION, 'prepareDatabase alone applies the schema');
});
