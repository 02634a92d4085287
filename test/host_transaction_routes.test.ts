// Every route of the table inside the host's transaction (chat.transaction): a route that waits
// for I/O says so (RouteDef.asynchronous) and is refused before it writes anything; every other one
// answers at once, a value or an ApiError, and is rolled back with the host's transaction.
import t from 'tap';
import { ApiError } from '../lib/errors.js';
import { startServer } from './helpers.js';
import { databaseSnapshots } from './raw_http.js';
import { allRouteEntries, calledDomainFunctions } from './route_inspection.js';

const routes = allRouteEntries();
const s = await startServer({ defaultChannels: true });
t.teardown(() => s.close());
const snapshot = databaseSnapshots(s.db);
type InProcess = (actor: number | null, input: object) => unknown;
const fn = (group: string, name: string) => (s.chat.api as unknown as Record<string, Record<string, InProcess>>)[group]![name]!;

t.test('a route is marked asynchronous exactly when its handler waits: it is an async function or calls one of the domain', async (t) => {
  for (const { route } of routes) {
    const label = `${route.method} ${route.path}`;
    const waits = route.handler.constructor.name === 'AsyncFunction' || calledDomainFunctions(route).async.length > 0;
    t.equal(route.asynchronous === true, waits, `${label} ${waits ? 'is' : 'is not'} marked asynchronous`);
  }
  t.ok(routes.filter(({ route }) => route.asynchronous === true).length >= 9, 'uploads, account creation, long-polls and the rest');
});

t.test('inside a transaction, a route that waits is refused before it starts: nothing is written', async (t) => {
  for (const { group, name, route } of routes.filter((entry) => entry.route.asynchronous === true)) {
    const before = snapshot();
    t.throws(() => s.chat.transaction(() => fn(group, name)(route.access === 'public' ? null : s.owner.user_id, {})), {
      name: 'TypeError',
      message: `chat.api.${group}.${name} waits for I/O and cannot run inside a transaction; call it before or after`,
    });
    t.equal(snapshot(), before, `${route.method} ${route.path}: nothing changed`);
  }
});

t.test('inside a transaction, every other route answers at once, a value or an ApiError, and a rollback takes back what it wrote', async (t) => {
  const rollback = new Error('host rolls back');
  for (const { group, name, route } of routes.filter((entry) => entry.route.asynchronous !== true)) {
    const label = `${route.method} ${route.path}`;
    const before = snapshot();
    let outcome: unknown;
    t.throws(() =>
      s.chat.transaction(() => {
        try {
          outcome = fn(group, name)(route.access === 'public' ? null : s.owner.user_id, {});
        } catch (error) {
          outcome = error;
        }
        throw rollback;
      }),
    rollback);
    t.notOk(outcome instanceof Promise, `${label} answers synchronously`);
    if (outcome instanceof Error) t.ok(outcome instanceof ApiError, `${label}: ${outcome.message}`);
    t.equal(snapshot(), before, `${label}: the rollback took back everything`);
  }
  t.equal(s.db.inTransaction, false, 'no transaction is left open');
});
