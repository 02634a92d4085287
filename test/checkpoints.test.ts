// WAL checkpoints in a worker thread (lib/store/checkpoints.ts): started only after START_AFTER
// commits of a server on a WAL file, copying committed pages into the database file while the
// request thread goes on, the WAL kept bounded by the request connection's backstop, and the
// connection given SQLite's default back when the server closes or the worker fails.
import { renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { contextOf } from '../lib/context.js';
import { BACKSTOP_PAGES, INLINE_PAGES, START_AFTER } from '../lib/store/checkpoints.js';
import { startServer, testDriver, type TestServer } from './helpers.js';

const libsql = testDriver() === 'libsql';

/** `count` commits: the owner's status text, changed each time. */
async function commit(server: TestServer, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await server.chat.api.userStatus.updateOwn(server.owner.user_id, { statusText: `Writing ${i}` });
}

const autocheckpoint = (server: TestServer): number => server.db.pragma('wal_autocheckpoint', { simple: true }) as number;

/** Resolves when `done()` holds, checking every 20 ms; fails the test after `seconds`. */
async function eventually(done: () => boolean, seconds = 20): Promise<boolean> {
  for (let waited = 0; waited < seconds * 1000; waited += 20) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done();
}

t.test('a short-lived server never starts the worker', { skip: libsql && 'libsql keeps its own checkpoints' }, async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  await commit(server, START_AFTER - 40);
  t.equal(contextOf(server.chat).checkpoints.running, false);
  t.equal(autocheckpoint(server), INLINE_PAGES, "SQLite's default automatic checkpoint");
});

t.test('an in-memory database never starts the worker', async (t) => {
  const server = await startServer({ file: false });
  t.teardown(() => server.close());
  await commit(server, START_AFTER + 40);
  t.equal(contextOf(server.chat).checkpoints.running, false);
});

t.test('after enough commits, checkpoints run in the worker and the WAL stays bounded', { skip: libsql && 'libsql keeps its own checkpoints' }, async (t) => {
  const server = await startServer();
  const file = join(server.dir, 'chat.db');
  t.teardown(() => server.close());
  await commit(server, START_AFTER + 40);
  const checkpoints = contextOf(server.chat).checkpoints;
  t.equal(checkpoints.running, true, 'the worker runs');
  t.equal(autocheckpoint(server), BACKSTOP_PAGES, 'the request connection checkpoints only as a backstop');

  // New rows make new pages, which reach the database file only through a checkpoint: the request
  // connection's backstop is far away, so the file grows by the worker's.
  const before = statSync(file).size;
  await commit(server, 200);
  t.ok(
    await eventually(() => statSync(file).size > before),
    'the database file grows without a checkpoint of the request connection',
  );

  // A steady stream of writes: about 2 pages each, 3 times the backstop in all (30,000 pages in a
  // WAL that never starts again). Past the backstop, a commit that finds the worker in the middle
  // of a checkpoint cannot take its own (SQLite answers busy and the commit goes on), so how far
  // the WAL overshoots depends on the threads' scheduling (thousands of pages on a loaded
  // machine): the bound is two thirds of the stream, which only a WAL that starts again keeps.
  const pageSize = server.db.pragma('page_size', { simple: true }) as number;
  await commit(server, 1.5 * BACKSTOP_PAGES);
  t.ok(statSync(`${file}-wal`).size <= 2 * BACKSTOP_PAGES * (pageSize + 24), 'the WAL starts again, well within the stream');
  t.equal(server.db.pragma('integrity_check', { simple: true }), 'ok');

  await server.chat.close();
  t.equal(checkpoints.running, false, 'closing the server ends the worker');
  t.equal(autocheckpoint(server), INLINE_PAGES, "the connection has SQLite's default back");
});

t.test('a worker that cannot open the database leaves checkpoints in the commits', { skip: libsql && 'libsql keeps its own checkpoints' }, async (t) => {
  const warnings: string[] = [];
  const server = await startServer({ logger: { info() {}, error() {}, warn: (message) => warnings.push(message) } });
  t.teardown(() => server.close());
  // The request connection keeps its open file; the worker looks for it by name.
  const file = join(server.dir, 'chat.db');
  renameSync(file, join(server.dir, 'moved.db'));
  await commit(server, START_AFTER + 40);
  t.ok(await eventually(() => warnings.length > 0), 'the failure is logged');
  t.same(warnings, ['checkpoint worker failed; checkpoints run in commits again']);
  t.equal(contextOf(server.chat).checkpoints.running, false);
  t.equal(autocheckpoint(server), INLINE_PAGES);
  // Writes go on, and no second worker starts.
  await commit(server, START_AFTER + 40);
  t.equal(contextOf(server.chat).checkpoints.running, false);
  renameSync(join(server.dir, 'moved.db'), file);
});
