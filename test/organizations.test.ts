// A host of many organizations (createChatHost): each request reaches the organization its host
// name (or path) names, one SQLite database each; they open on first use, migrated, at the URL
// they are reached by, close when idle or to make room, and open again for a delivery due.
import net, { type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { createChatHost, createChatServer, type ChatHost, type ChatHostOptions } from '../lib/index.js';
import { organizationAddresses } from '../lib/host/addresses.js';
import { silentLogger } from '../lib/logger.js';
import { SCHEMA_VERSION } from '../lib/store/migrations.js';
import { START_AFTER } from '../lib/store/checkpoints.js';
import { contextOf } from '../lib/context.js';
import { manualTime } from './manual_time.js';
import { hostRequest, seedOrganizations } from './organization_helpers.js';
import { withAuth } from './helpers.js';

const { dir, directory, organizations } = await seedOrganizations(['acme', 'globex', 'initech']);
const acme = organizations.acme!;
const globex = organizations.globex!;
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

async function startHost(t: Test, extra: Partial<ChatHostOptions> = {}): Promise<{ host: ChatHost; base: string; port: number }> {
  const host = createChatHost({ url: 'http://{org}.localhost', open: directory.open, options: { logger: silentLogger }, ...extra });
  t.teardown(() => host.close());
  const { port } = await host.listen(0, '127.0.0.1');
  return { host, base: `http://127.0.0.1:${port}`, port };
}

t.test('each organization is reached at its own host name, at its own URL, with its own users', async (t) => {
  const { base, port } = await startHost(t);
  for (const org of [acme, globex]) {
    const at = `${org.name}.localhost:${port}`;
    const settings = await hostRequest(base, at, 'GET', '/api/v1/server_settings');
    t.match(settings.json, { result: 'success', realm_url: `http://${org.name}.localhost`, realm_name: org.name.toUpperCase() }, `${org.name}'s settings`);
    const me = await hostRequest(base, at, 'GET', '/api/v1/users/me', { as: org.owner });
    t.match(me.json, { result: 'success', user_id: org.owner.user_id, full_name: `${org.name} owner` });
    const users = await hostRequest(base, at, 'GET', '/api/v1/users', { as: org.owner });
    t.same(
      (users.json!.members as { email: string }[]).map((u) => u.email).sort(),
      ['member0@' + org.name + '.test', 'owner@example.com'],
      `${org.name} has only its own users`,
    );
  }
});

t.test('an address of no organization is a JSON 404 NONEXISTENT_SUBDOMAIN, "Invalid subdomain"', async (t) => {
  const { base, port } = await startHost(t);
  const hosts = [
    `nope.localhost:${port}`,
    `localhost:${port}`,
    `127.0.0.1:${port}`,
    `acme.localhost.evil.test:${port}`,
    `www.acme.localhost:${port}`,
    `ab.localhost:${port}`,
    `-acme.localhost:${port}`,
    `acme-.localhost:${port}`,
    `acme..localhost:${port}`,
    '',
  ];
  for (const host of hosts) {
    const reply = await hostRequest(base, host, 'GET', '/api/v1/users/me', { as: acme.owner });
    t.equal(reply.status, 404, `Host: '${host}'`);
    t.same(reply.json, { result: 'error', msg: 'Invalid subdomain', code: 'NONEXISTENT_SUBDOMAIN' });
  }
  for (const host of [`ACME.localhost:${port}`, 'acme.localhost', `acme.localhost.:${port}`]) {
    t.equal((await hostRequest(base, host, 'GET', '/api/v1/users/me', { as: acme.owner })).status, 200, `Host: '${host}' is acme's`);
  }
});

t.test("a request target in absolute form naming another organization reaches neither", async (t) => {
  const { port } = await startHost(t);
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end(`GET http://globex.localhost/api/v1/users/me HTTP/1.1\r\nHost: acme.localhost\r\nAuthorization: ${acme.owner.auth}\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  t.match(reply, /^HTTP\/1\.1 404 /);
  t.match(reply, /"code":"NONEXISTENT_SUBDOMAIN"/);
});

t.test('organizations open on first use; the least recently used idle one closes to make room; one in use stays open; idle ones close', async (t) => {
  const time = manualTime(Date.now());
  const { host, base, port } = await startHost(t, { maxOpen: 2, idleMs: 60_000, options: { logger: silentLogger, clock: time.clock, timers: time.timers } });
  const get = (org: string) => hostRequest(base, `${org}.localhost:${port}`, 'GET', '/api/v1/users/me', { as: organizations[org]!.owner });
  t.same(host.openOrganizations(), [], 'nothing is open before a request');
  await get('acme');
  t.same(host.openOrganizations(), ['acme']);
  await get('globex');
  t.same(host.openOrganizations(), ['acme', 'globex']);
  // A long-poll waiting in acme: acme is in use.
  const queue = (await hostRequest(base, `acme.localhost:${port}`, 'POST', '/api/v1/register', { as: acme.owner, params: { event_types: ['message'] } })).json!;
  const poll = hostRequest(base, `acme.localhost:${port}`, 'GET', '/api/v1/events', { as: acme.owner, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id } });
  await get('globex');
  t.same(host.openOrganizations(), ['acme', 'globex'], 'acme is now the least recently used');
  await new Promise((resolve) => setTimeout(resolve, 50));
  await get('initech');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.same(host.openOrganizations(), ['acme', 'initech'], 'globex made room: acme has a waiting long-poll');
  (await host.organization('acme'))!.api.messages.send(acme.owner.user_id, { type: 'direct', to: [acme.members[0]!.user_id], content: 'wakes the poll' });
  t.equal((await poll).status, 200, 'the long-poll ends');
  time.advance(59_000);
  t.same(host.openOrganizations(), ['initech', 'acme'], 'not idle long enough yet (acme used last, in-process)');
  time.advance(60_000);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.same(host.openOrganizations(), [], 'idle organizations are closed');
  t.equal((await get('globex')).status, 200, 'and open again on the next request');
});

t.test("a database is prepared as it opens: schema made or migrated to the current version, the host's URL", async (t) => {
  const moved = directory.path('umbrella');
  const old = new Database(moved);
  const chat = createChatServer(old, { logger: silentLogger, realm: { url: 'http://old.example.com' } });
  const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com' }));
  await chat.close();
  // Back to schema 17 (before the delivery outbox), with a device a version-17 server was still
  // registering with the bouncer: migration 19 makes it a delivery (test/store_migrations.test.ts).
  old.exec(`DROP TABLE delivery;
    INSERT INTO device (id, user_id, push_key_id, pending_push_token_id, push_token_kind, bouncer_public_key, encrypted_push_registration, date_created)
      VALUES (7, ${owner.user_id}, 1, 'AAAAAAAAAAE=', 'fcm', 'pk', 'sealed', 0);
    CREATE INDEX device_forwarding ON device (id) WHERE encrypted_push_registration IS NOT NULL;
    PRAGMA user_version = 17;`);
  old.close();
  new Database(directory.path('hooli')).close();
  const { base, port } = await startHost(t);
  const settings = await hostRequest(base, `umbrella.localhost:${port}`, 'GET', '/api/v1/server_settings');
  t.equal(settings.json!.realm_url, 'http://umbrella.localhost', 'its URL is the one it is reached at');
  t.equal((await hostRequest(base, `umbrella.localhost:${port}`, 'GET', '/api/v1/users/me', { as: owner })).status, 200, 'its owner signs in');
  const migrated = new Database(moved, { readonly: true });
  t.equal(migrated.pragma('user_version', { simple: true }), SCHEMA_VERSION, 'a version-17 database is migrated as it opens');
  t.same(migrated.prepare('SELECT kind, key FROM delivery').all(), [{ kind: 'push_registration', key: '7' }], "its migration's rows are there");
  migrated.close();
  const empty = await hostRequest(base, `hooli.localhost:${port}`, 'GET', '/api/v1/server_settings');
  t.equal(empty.json!.realm_url, 'http://hooli.localhost', 'an empty database file is an organization without users');
  const made = new Database(directory.path('hooli'));
  t.equal(made.pragma('user_version', { simple: true }), SCHEMA_VERSION, 'with the current schema');
  made.close();
  for (const name of ['umbrella', 'hooli']) rmSync(directory.path(name));
});

t.test('a closed organization opens again when one of its deliveries comes due', async (t) => {
  const time = manualTime(Date.now());
  let failing = true;
  const notified: string[] = [];
  const warnings: unknown[] = [];
  const logger = { ...silentLogger, warn: (message: string, fields?: object) => void warnings.push({ message, ...fields }) };
  const { host } = await startHost(t, {
    options: { logger, clock: time.clock, timers: time.timers },
    organizationOptions: (name) => ({
      notify: (notification) => {
        if (failing) throw new Error('not yet');
        notified.push(`${name}: ${notification.message.content}`);
      },
    }),
  });
  (await host.organization('acme'))!.api.messages.send(acme.owner.user_id, { type: 'direct', to: [acme.members[0]!.user_id], content: 'due later' });
  // The first attempt fails: the delivery is due again after the hook's first retry delay.
  await new Promise((resolve) => setTimeout(resolve, 100));
  await host.visit(['acme']);
  t.same(host.openOrganizations(), [], 'acme closed with its delivery pending');
  t.match(warnings, [{ message: 'notification hook failed', organization: 'acme' }], "the organization's log entries name it");
  failing = false;
  time.advance(999);
  t.same(host.openOrganizations(), [], 'not before it is due');
  time.advance(1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.same(host.openOrganizations(), ['acme'], 'acme opened again for it');
  t.same(notified, ['acme: due later'], 'and the notification went out');
});

t.test('by path: /org/<name>/... is that organization, at the URL with its path', async (t) => {
  const { base } = await startHost(t, { url: 'http://chat.example.com/org/{org}' });
  const settings = await hostRequest(base, 'anything.example', 'GET', '/org/acme/api/v1/server_settings');
  t.equal(settings.json!.realm_url, 'http://chat.example.com/org/acme');
  t.equal((await hostRequest(base, 'x', 'GET', '/org/acme/api/v1/users/me', { as: acme.owner })).status, 200);
  t.match((await hostRequest(base, 'x', 'GET', '/org/globex/api/v1/users/me', { as: acme.owner })).json, { code: 'UNAUTHORIZED' }, "acme's key in globex");
  const bare = await hostRequest(base, 'x', 'GET', '/org/acme?x=1');
  t.equal(bare.status, 308, "the organization's address without its final slash is redirected");
  for (const path of ['/api/v1/users/me', '/org/ab/api/v1/users/me', '/org/nope/api/v1/users/me', '/org/', '/other/acme/api/v1/users/me']) {
    t.match(await hostRequest(base, 'x', 'GET', path, { as: acme.owner }), { status: 404, json: { code: 'NONEXISTENT_SUBDOMAIN' } }, path);
  }
});

t.test("host.organization(name): the application's own calls, in its transactions", async (t) => {
  const { host } = await startHost(t);
  t.equal(await host.organization('nope'), undefined, 'no such organization');
  t.equal(await host.organization('../acme'), undefined, 'not a name');
  const chat = (await host.organization('globex'))!;
  const id = chat.transaction(() => chat.api.messages.send(globex.owner.user_id, { type: 'direct', to: [globex.members[0]!.user_id], content: 'in-process' }).id);
  t.ok(id > 0);
  t.equal(host.url('globex'), 'http://globex.localhost');
});

t.test('a template must hold {org} once, as a whole host label or path segment', async (t) => {
  for (const bad of ['http://chat.example.com', 'http://{org}.{org}.example.com', 'http://x{org}.example.com', 'http://chat.example.com/o-{org}', 'ftp://{org}.example.com', '{org}', 'http://{org}.example.com/path', 'http://chat.example.com/{org}?q=1']) {
    t.throws(() => organizationAddresses(bad), bad);
  }
  t.equal(organizationAddresses('https://{org}.chat.example.com/').url('acme'), 'https://acme.chat.example.com');
  t.equal(organizationAddresses('https://chat.example.com/org/{org}/').url('acme'), 'https://chat.example.com/org/acme');
});

t.test("the organizations' WAL checkpoints run in one thread, ended with the host", async (t) => {
  const { host } = await startHost(t);
  const busy = [];
  for (const name of ['globex', 'initech']) {
    const chat = (await host.organization(name))!;
    const owner = organizations[name]!.owner.user_id;
    for (let i = 0; i < START_AFTER + 40; i++) chat.api.userStatus.updateOwn(owner, { statusText: `Writing ${i}` });
    busy.push(contextOf(chat).checkpoints);
  }
  t.same(busy.map((checkpoints) => checkpoints.running), [true, true], 'both have their checkpoints in the thread');
  t.ok(busy[0]!.threadId !== undefined && busy[0]!.threadId === busy[1]!.threadId, 'the same thread');
  await host.close();
  t.same(busy.map((checkpoints) => checkpoints.running), [false, false]);
});

t.test("the web client is served at each organization's address, and nowhere else", async (t) => {
  const files = mkdtempSync(join(tmpdir(), 'parley-web-'));
  t.teardown(() => rmSync(files, { recursive: true, force: true }));
  writeFileSync(join(files, 'index.html'), '<!doctype html><title>parley</title>');
  const { base, port } = await startHost(t, { webClient: { dir: files } });
  const page = await hostRequest(base, `acme.localhost:${port}`, 'GET', '/');
  t.equal(page.status, 200);
  t.match(page.contentType, 'text/html');
  t.match(await hostRequest(base, `nope.localhost:${port}`, 'GET', '/'), { status: 404, json: { code: 'NONEXISTENT_SUBDOMAIN' } });
  const byPath = await startHost(t, { url: 'http://chat.example.com/org/{org}', webClient: { dir: files } });
  t.equal((await hostRequest(byPath.base, 'x', 'GET', '/org/acme/')).text, '<!doctype html><title>parley</title>', "at the organization's path");
});

t.test('mounted as Express middleware: addresses of no organization go on to the next handler', async (t) => {
  const { host } = await startHost(t);
  const app = express();
  app.use(host.handler);
  app.get('/', (_req, res) => void res.send('the rest of the app'));
  const server = app.listen(0, '127.0.0.1');
  t.teardown(() => void server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.equal((await hostRequest(base, 'www.example.com', 'GET', '/')).text, 'the rest of the app');
  t.equal((await hostRequest(base, 'acme.localhost', 'GET', '/api/v1/users/me', { as: acme.owner })).status, 200);
});

t.test('over maxOpen with every open organization in use, the one just opened is served and stays open', async (t) => {
  const { host, base, port } = await startHost(t, { maxOpen: 1 });
  const queue = (await hostRequest(base, `acme.localhost:${port}`, 'POST', '/api/v1/register', { as: acme.owner, params: { event_types: ['message'] } })).json!;
  const poll = hostRequest(base, `acme.localhost:${port}`, 'GET', '/api/v1/events', { as: acme.owner, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id } });
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal((await hostRequest(base, `globex.localhost:${port}`, 'GET', '/api/v1/users/me', { as: globex.owner })).status, 200);
  t.same(host.openOrganizations(), ['acme', 'globex'], 'one over maxOpen while acme has a waiting long-poll');
  (await host.organization('acme'))!.api.messages.send(acme.owner.user_id, { type: 'direct', to: [acme.members[0]!.user_id], content: 'done' });
  t.equal((await poll).status, 200);
});

t.test('an organization whose file is no database answers a JSON 500, logged with its name; the others go on', async (t) => {
  const errors: object[] = [];
  writeFileSync(directory.path('broken'), 'not a database, a text file of the same name'.repeat(100));
  t.teardown(() => rmSync(directory.path('broken'), { force: true }));
  const { host, base, port } = await startHost(t, { options: { logger: { ...silentLogger, error: (message, fields) => void errors.push({ message, ...fields }) } } });
  const reply = await hostRequest(base, `broken.localhost:${port}`, 'GET', '/api/v1/users/me', { as: acme.owner });
  t.same([reply.status, reply.json], [500, { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' }]);
  t.match(errors, [{ message: 'organization could not be opened', organization: 'broken', error: /not a database/ }]);
  t.same(host.openOrganizations(), [], 'it is not kept open');
  t.equal((await hostRequest(base, `acme.localhost:${port}`, 'GET', '/api/v1/users/me', { as: acme.owner })).status, 200, 'acme is served');
  await host.visit(['broken', 'globex']);
  t.equal(errors.length, 2, 'visiting it logs the same');
});
