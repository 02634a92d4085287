// Cross-organization access is impossible by construction: a request reaches only the database
// its address names, so every route of the route table called with one organization's API key at
// another's address (by host name or by path) gets Zulip's answer to an unknown key, an account
// with the same email in both included, its web session cookie the answer to no credentials, and
// nothing changes there.
import { rmSync } from 'node:fs';
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { createChatHost, createChatServer, type ChatHost } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { hostRequest, seedOrganizations } from './organization_helpers.js';
import { dumpDatabase } from './raw_http.js';
import { allRouteEntries } from './route_inspection.js';

const { dir, directory, organizations } = await seedOrganizations(['acme', 'globex']);
const acme = organizations.acme!;
const globex = organizations.globex!;
const ACME_PASSWORD = 'acme owner password';

/** Where an organization is reached on a host: its Host header and the prefix of its paths. */
interface Reach {
  base: string;
  host(org: string): string;
  prefix(org: string): string;
  /** The web client's session cookie of acme's owner, signed in at acme on this host. */
  acmeSession: string;
}

async function started(url: string): Promise<{ host: ChatHost; reach: Reach }> {
  const host = createChatHost({ url, open: directory.open, options: { logger: silentLogger } });
  t.teardown(() => host.close());
  const { port } = await host.listen(0, '127.0.0.1');
  const byPath = url.includes('/org/{org}');
  const reach: Reach = {
    base: `http://127.0.0.1:${port}`,
    host: (org) => (byPath ? `chat.test:${port}` : `${org}.chat.test:${port}`),
    prefix: (org) => (byPath ? `/org/${org}` : ''),
    acmeSession: '',
  };
  const signedIn = await hostRequest(reach.base, reach.host('acme'), 'POST', `${reach.prefix('acme')}/api/v1/sessions`, {
    params: { username: acme.owner.email, password: ACME_PASSWORD },
    headers: { 'sec-fetch-site': 'same-origin' },
  });
  if (signedIn.status !== 200) throw new Error(`acme's owner could not sign in: ${signedIn.text}`);
  reach.acmeSession = String(signedIn.headers['set-cookie']).split(';')[0]!;
  return { host, reach };
}

// Set once, before either host signs in (setting a password ends the sessions).
const acmeDatabase = directory.open('acme')!;
const acmeServer = createChatServer(acmeDatabase, { logger: silentLogger });
await acmeServer.admin.setPassword(acme.owner.user_id, ACME_PASSWORD);
await acmeServer.close();
acmeDatabase.close();

const byHostName = await started('http://{org}.chat.test');
const byPath = await started('http://chat.test/org/{org}');
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

// Some of acme's own things, which globex's ids collide with: ids are 1, 2... in both.
const chat = (await byHostName.host.organization('acme'))!;
chat.api.streams.subscribe(acme.owner.user_id, { subscriptions: [{ name: 'secret plans' }], principals: [acme.owner.user_id, acme.members[0]!.user_id] });
chat.api.messages.send(acme.owner.user_id, { type: 'stream', to: 'secret plans', topic: 'q3', content: 'acme only' });
const acmeFile = (await chat.api.uploads.upload(acme.owner.user_id, { files: [{ field: 'f', filename: 'plans.txt', mimetype: 'text/plain', data: Buffer.from('acme plans') }] })).url;
const globexChat = (await byHostName.host.organization('globex'))!;
globexChat.api.messages.send(globex.owner.user_id, { type: 'direct', to: [globex.members[0]!.user_id], content: 'globex only' });

/** A route's path from the server root, each parameter filled (ids of acme's things are 1 in globex too). */
const pathOf = (route: { path: string; outsideApi?: boolean }): string => (route.outsideApi === true ? '' : '/api/v1') + route.path.replace(/:[a-z_]+/g, '1').replace(/\*/g, 'x');

/** Zulip's answer to an API key it does not know (zerver/decorator.py validate_api_key: InvalidAPIKeyError). */
const INVALID_KEY = [401, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }];

async function everyRoute(t: Test, { host, reach }: { host: ChatHost; reach: Reach }): Promise<void> {
  // Opened first: as it opens, the host sets globex's organization URL to its own address.
  await host.organization('globex');
  const globexFile = new Database(directory.path('globex'), { readonly: true });
  t.teardown(() => globexFile.close());
  const before = dumpDatabase(globexFile, ['event_queue.last_poll']);
  const routes = allRouteEntries();
  t.ok(routes.length > 80, `the whole route table (${routes.length} routes)`);
  for (const { group, name, route } of routes) {
    const label = `${route.method} ${route.path} (${group}.${name})`;
    for (const user of [acme.owner, acme.members[0]!]) {
      const reply = await hostRequest(reach.base, reach.host('globex'), route.method, reach.prefix('globex') + pathOf(route), { as: user });
      t.notMatch(reply.text, /acme/i, `${label} as ${user.email}: nothing of acme's`);
      if (route.access === 'public') {
        t.notMatch(reply.text, user.api_key, `${label}: public, and never acme's key`);
        continue;
      }
      t.same([reply.status, reply.json], INVALID_KEY, `${label} as ${user.email}`);
    }
    // A browser signed in at acme: its session cookie is unknown at globex, as good as none.
    const request = (headers: Record<string, string>) => hostRequest(reach.base, reach.host('globex'), route.method, reach.prefix('globex') + pathOf(route), { headers });
    const withSession = await request({ cookie: reach.acmeSession, 'sec-fetch-site': 'same-origin' });
    t.notMatch(withSession.text, /acme/i, `${label} with acme's session: nothing of acme's`);
    if (route.access === 'public') continue;
    const bare = await request({ 'sec-fetch-site': 'same-origin' });
    if (route.waysIn?.[0] === 'webhookKey') {
      // Zulip's webhook_view: a missing `api_key` is a missing argument; acme's key in it is unknown here.
      t.same([bare.status, bare.json?.code], [400, 'REQUEST_VARIABLE_MISSING'], `${label} without credentials: Missing 'api_key' argument`);
      for (const user of [acme.owner, acme.members[0]!]) {
        const path = `${reach.prefix('globex')}${pathOf(route)}?api_key=${user.api_key}`;
        const keyed = await hostRequest(reach.base, reach.host('globex'), route.method, path, {});
        t.same([keyed.status, keyed.json], [401, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' }], `${label} with ${user.email}'s api_key`);
      }
    } else {
      t.equal(bare.status, 401, `${label} without credentials: 401`);
    }
    t.same([withSession.status, withSession.json], [bare.status, bare.json], `${label} with acme's session: as without credentials`);
  }
  t.equal(dumpDatabase(globexFile, ['event_queue.last_poll']), before, "nothing of globex's changed");
}

t.test("by host name: every route with acme's API key at globex's host name gets Zulip's unknown-key error", (t) => everyRoute(t, byHostName));
t.test("by path: every route with acme's API key under globex's path gets Zulip's unknown-key error", (t) => everyRoute(t, byPath));

for (const [how, { reach }] of Object.entries({ 'by host name': byHostName, 'by path': byPath })) {
  const at = (org: string, method: string, path: string, options: Parameters<typeof hostRequest>[4]) =>
    hostRequest(reach.base, reach.host(org), method, reach.prefix(org) + path, options);
  t.test(`${how}: acme's owner's own password, key and session sign in nowhere else, though globex has an owner of the same email`, async (t) => {
    const login = await at('globex', 'POST', '/api/v1/fetch_api_key', { params: { username: 'owner@example.com', password: ACME_PASSWORD } });
    t.same([login.status, login.json?.code], [401, 'AUTHENTICATION_FAILED'], "acme's password at globex");
    const browser = await at('globex', 'POST', '/api/v1/sessions', { params: { username: 'owner@example.com', password: ACME_PASSWORD }, headers: { 'sec-fetch-site': 'same-origin' } });
    t.same([browser.status, browser.json?.code, browser.headers['set-cookie']], [401, 'AUTHENTICATION_FAILED', undefined], "the web client's sign-in with it at globex");
    const me = await at('globex', 'GET', '/api/v1/users/me', { as: acme.owner });
    t.same([me.status, me.json], INVALID_KEY);
    t.equal((await at('acme', 'GET', '/api/v1/users/me', { as: acme.owner })).status, 200, 'at its own address it works');
    t.match((await at('acme', 'GET', '/api/v1/users/me', { headers: { cookie: reach.acmeSession } })).json, { result: 'success', user_id: acme.owner.user_id }, "and so does acme's session");
  });

  t.test(`${how}: each organization reads its own messages, and an upload of one is no file of the other`, async (t) => {
    const recent = { anchor: 'newest', num_before: 10, num_after: 0, narrow: [] };
    const own = await at('acme', 'GET', '/api/v1/messages', { as: acme.owner, params: recent });
    t.same((own.json!.messages as { content: string }[]).map((m) => m.content), ['<p>acme only</p>']);
    const theirs = await at('globex', 'GET', '/api/v1/messages', { as: globex.owner, params: recent });
    t.same((theirs.json!.messages as { content: string }[]).map((m) => m.content), ['<p>globex only</p>']);

    t.equal((await at('acme', 'GET', acmeFile, { as: acme.owner })).text, 'acme plans', "acme's file at acme");
    const file = await at('globex', 'GET', acmeFile, { as: globex.owner });
    t.same([file.status, file.json?.code], [404, 'NOT_FOUND'], "acme's file path at globex, as globex's owner: no such file");
    const temporary = (await at('acme', 'GET', `/api/v1${acmeFile}`, { as: acme.owner })).json!.url as string;
    const elsewhere = await at('globex', 'GET', temporary, {});
    // Signed with acme's own key, which globex has not (Zulip: serve_file_unauthed_from_token).
    t.same([elsewhere.status, elsewhere.json], [400, { result: 'error', msg: 'Invalid token', code: 'BAD_REQUEST' }], "acme's temporary file URL at globex: an invalid token");
    t.equal((await at('acme', 'GET', temporary, {})).text, 'acme plans', 'and at acme it serves the file');
  });
}
