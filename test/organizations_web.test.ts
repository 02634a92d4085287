// A browser at a host of many organizations: the web client and its account pages at each
// organization's address, a session cookie kept to the organization's own path (by path) or host
// name, one organization's session that signs nothing in at another, and the application's own
// sign-in hook (options.authenticate) given organization by organization.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createChatHost, type ChatHost, type ChatHostOptions } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { hostRequest, seedOrganizations } from './organization_helpers.js';

const { dir, directory, organizations } = await seedOrganizations(['acme', 'globex']);
const files = mkdtempSync(join(tmpdir(), 'parley-web-'));
writeFileSync(join(files, 'index.html'), '<!doctype html><html><head><title>parley</title></head><body></body></html>');
t.teardown(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});
const PASSWORD = 'a long enough password';

interface Reach {
  host: ChatHost;
  base: string;
  /** The Host header and the path prefix of an organization. */
  at(org: string): { host: string; prefix: string };
}

async function start(t: Test, url: string, extra: Partial<ChatHostOptions> = {}): Promise<Reach> {
  const host = createChatHost({ url, open: directory.open, options: { logger: silentLogger, rateLimit: { requestsPerMinute: 0 } }, webClient: { dir: files }, ...extra });
  t.teardown(() => host.close());
  const { port } = await host.listen(0, '127.0.0.1');
  for (const name of ['acme', 'globex']) await (await host.organization(name))!.admin.setPassword(organizations[name]!.owner.user_id, PASSWORD);
  const byPath = url.includes('/org/{org}');
  return {
    host,
    base: `http://127.0.0.1:${port}`,
    at: (org) => ({ host: byPath ? 'chat.test' : `${org}.chat.test`, prefix: byPath ? `/org/${org}` : '' }),
  };
}

const request = (reach: Reach, org: string, method: string, path: string, options: Parameters<typeof hostRequest>[4] = {}) =>
  hostRequest(reach.base, reach.at(org).host, method, reach.at(org).prefix + path, options);

/** Signs the owner of `org` in as the web client does; the cookie to send back and the Set-Cookie answered. */
async function signIn(t: Test, reach: Reach, org: string): Promise<{ cookie: string; setCookie: string }> {
  const reply = await request(reach, org, 'POST', '/api/v1/sessions', { params: { username: 'owner@example.com', password: PASSWORD }, headers: { 'sec-fetch-site': 'same-origin' } });
  t.equal(reply.status, 200, `${org}: signed in`);
  const setCookie = String(reply.headers['set-cookie'] ?? '');
  return { cookie: setCookie.split(';')[0]!, setCookie };
}

const NOT_SIGNED_IN = [401, { result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' }];

for (const [how, url] of Object.entries({ 'by host name': 'http://{org}.chat.test', 'by path': 'http://chat.test/org/{org}' })) {
  t.test(`${how}: the web client and its account pages are served at each organization's address`, async (t) => {
    const reach = await start(t, url);
    for (const path of ['/', '/accounts/password/reset', '/register']) {
      const page = await request(reach, 'acme', 'GET', path);
      t.equal(page.status, 200, path);
      t.match(page.contentType, 'text/html');
      const base = /<base href="([^"]*)">/.exec(page.text)?.[1] ?? './';
      const address = new URL(reach.at('acme').prefix + path, 'http://chat.test');
      t.equal(new URL(base, address).pathname, `${reach.at('acme').prefix}/`, `${path}: its relative links lead to the organization's address`);
    }
  });

  t.test(`${how}: a session is acme's alone; its cookie signs nothing in at globex`, async (t) => {
    const reach = await start(t, url);
    const acme = await signIn(t, reach, 'acme');
    t.match(acme.setCookie, new RegExp(`; Path=${reach.at('acme').prefix || '/'};`), "the cookie is kept to acme's own address");
    const me = await request(reach, 'acme', 'GET', '/api/v1/users/me', { headers: { cookie: acme.cookie } });
    t.match(me.json, { result: 'success', full_name: 'acme owner' }, 'at acme, the cookie signs the owner in');
    const elsewhere = await request(reach, 'globex', 'GET', '/api/v1/users/me', { headers: { cookie: acme.cookie } });
    t.same([elsewhere.status, elsewhere.json], NOT_SIGNED_IN, 'at globex, as good as no cookie');
    const globex = await signIn(t, reach, 'globex');
    t.not(globex.cookie, acme.cookie);
    t.match((await request(reach, 'globex', 'GET', '/api/v1/users/me', { headers: { cookie: globex.cookie } })).json, { full_name: 'globex owner' });
    t.match((await request(reach, 'acme', 'GET', '/api/v1/users/me', { headers: { cookie: acme.cookie } })).json, { full_name: 'acme owner' }, "signing in at globex leaves acme's session");
  });
}

t.test("options.authenticate is refused for all organizations at once; given per organization, it names that organization's users", async (t) => {
  t.throws(() => createChatHost({ url: 'http://{org}.chat.test', open: directory.open, options: { authenticate: () => 1 } }), {
    name: 'TypeError',
    message: 'options.authenticate names a user of one organization: give it per organization, in organizationOptions(name)',
  });
  const reach = await start(t, 'http://{org}.chat.test', {
    organizationOptions: (name) => ({ authenticate: (req) => (req.headers['x-app-user'] === 'boss' ? organizations[name]!.owner.user_id : undefined) }),
  });
  for (const name of ['acme', 'globex']) {
    const me = await request(reach, name, 'GET', '/api/v1/users/me', { headers: { 'x-app-user': 'boss' } });
    t.match(me.json, { result: 'success', user_id: organizations[name]!.owner.user_id, full_name: `${name} owner` }, `${name}: its own owner`);
  }
  t.same((await request(reach, 'acme', 'GET', '/api/v1/users/me')).status, 401, 'a request the hook does not know is refused');
});
