// `parley serve --orgs DIR` as a child process with two organizations, and the real zulip-js
// client (npm) of each reaching its own at http://<name>.localhost:PORT: each sees only its own
// users, channels, messages and events; a forged Host header reaches nothing of the other; an
// organization `parley init --orgs` adds is served without a restart.
import http from 'node:http';
import { rmSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import t from 'tap';
import { main } from '../lib/cli.js';
import { runParley } from './cli_process.js';
import { hostRequest, seedOrganizations } from './organization_helpers.js';
import { startServeWith, stop, type ServeChild } from './serve_process.js';

t.setTimeout(240_000);

type Zulip = Record<string, any>;
// zulip-js ships no types; a computed specifier keeps TypeScript from asking for them.
const { default: zulipInit } = (await import('zulip-js' as string)) as { default: (config: object) => Promise<Zulip> };

// *.localhost is this machine (RFC 6761), which the system resolver here does not know: zulip-js's
// requests (node-fetch on node:http's global agent) find it through this lookup.
const lookup: LookupFunction = (hostname, options, callback) => {
  const all = (options as { all?: boolean }).all === true;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  callback(Object.assign(new Error(`not resolved in this test: ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
};
const previousAgent = http.globalAgent;
http.globalAgent = new http.Agent({ lookup });

const { dir, organizations } = await seedOrganizations(['acme', 'globex']);
let served: ServeChild | undefined;
t.teardown(async () => {
  http.globalAgent = previousAgent;
  await stop(served, 'SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});
served = await startServeWith(['--orgs', dir], { PARLEY_RATE_LIMIT: '0' });
const port = Number(new URL(served.url).port);
const realm = (name: string) => `http://${name}.localhost:${port}`;

const clients: Record<string, { owner: Zulip; member: Zulip }> = {};
for (const [name, org] of Object.entries(organizations)) {
  clients[name] = {
    owner: await zulipInit({ realm: realm(name), username: org.owner.email, apiKey: org.owner.api_key }),
    member: await zulipInit({ realm: realm(name), username: org.members[0]!.email, apiKey: org.members[0]!.api_key }),
  };
}

t.test('each zulip-js client sees its own organization: URL, users, channels, messages and events', async (t) => {
  for (const [name, { owner, member }] of Object.entries(clients)) {
    const settings = await owner.server.settings();
    t.equal(settings.realm_url, realm(name), `${name}: realm_url is where it is reached`);
    t.equal(settings.realm_name, name.toUpperCase());
    const users = await owner.users.retrieve();
    t.same(users.members.map((u: { email: string }) => u.email).sort(), [`member0@${name}.test`, 'owner@example.com'], `${name}: its own users`);
    t.match(await owner.users.me.subscriptions.add({ subscriptions: [{ name: `${name}-news` }], principals: [organizations[name]!.owner.user_id, organizations[name]!.members[0]!.user_id] }), { result: 'success' });
    const queue = await member.queues.register({ event_types: ['message'] });
    const sent = await owner.messages.send({ type: 'stream', to: `${name}-news`, topic: 'hello', content: `only in ${name}` });
    t.match(sent, { result: 'success', id: Number });
    const events = await member.events.retrieve({ queue_id: queue.queue_id, last_event_id: queue.last_event_id });
    t.same(events.events.map((e: { message: { content: string } }) => e.message.content), [`only in ${name}`], `${name}: the member's queue gets its message`);
  }
  for (const [name, { owner }] of Object.entries(clients)) {
    const streams = await owner.streams.retrieve();
    t.same(streams.streams.map((s: { name: string }) => s.name).sort(), ['general', `${name}-news`, 'sandbox'].sort(), `${name}: its own channels, not the other's`);
    const messages = await owner.messages.retrieve({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [] });
    t.same(messages.messages.map((m: { content: string }) => m.content), [`<p>only in ${name}</p>`], `${name}: only its own message`);
  }
});

t.test("a client with acme's key and globex's address, or a forged Host header, reaches nothing of globex", async (t) => {
  const acme = organizations.acme!;
  const wrong = await zulipInit({ realm: realm('globex'), username: acme.owner.email, apiKey: acme.owner.api_key });
  t.same(await wrong.users.me.getProfile(), { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
  const forged = await hostRequest(served!.url, `globex.localhost:${port}`, 'GET', '/api/v1/messages', {
    as: acme.members[0],
    params: { anchor: 'newest', num_before: 10, num_after: 0 },
  });
  t.same(forged.json, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
  for (const host of [`nope.localhost:${port}`, `127.0.0.1:${port}`, `globex.localhost.acme.localhost:${port}`]) {
    const reply = await hostRequest(served!.url, host, 'GET', '/api/v1/users/me', { as: acme.owner });
    t.same([reply.status, reply.json], [404, { result: 'error', msg: 'Invalid subdomain', code: 'NONEXISTENT_SUBDOMAIN' }], host);
  }
});

t.test('an organization `parley init --orgs DIR --org NAME` adds is served at once', async (t) => {
  const init = await runParley(['init', '--orgs', dir, '--org', 'initech', '--email', 'boss@initech.test', '--password', 'initech-password', '--org-name', 'Initech']);
  t.equal(init.code, 0, init.stderr);
  t.match(init.stdout, /^Created the organization in .*initech\.db with owner boss@initech\.test\.$/m);
  const client = await zulipInit({ realm: realm('initech'), username: 'boss@initech.test', password: 'initech-password' });
  t.match(await client.users.me.getProfile(), { result: 'success', full_name: 'boss' });
  t.equal((await client.server.settings()).realm_url, realm('initech'));
  const again = await runParley(['init', '--orgs', dir, '--org', 'initech', '--email', 'x@initech.test', '--password', 'long-enough']);
  t.equal(again.code, 1, 'a second init of the same organization is refused');
});

t.test("--org-url by path: /org/NAME/ is organization NAME, at that URL; SIGTERM stops the server and closes every organization", async (t) => {
  const byPath = await startServeWith(['--orgs', dir, '--org-url', 'http://chat.test/org/{org}'], { PARLEY_RATE_LIMIT: '0' });
  t.teardown(() => stop(byPath, 'SIGKILL'));
  const acme = organizations.acme!;
  const settings = await hostRequest(byPath.url, 'anything.test', 'GET', '/org/acme/api/v1/server_settings');
  t.match(settings.json, { result: 'success', realm_url: 'http://chat.test/org/acme', realm_name: 'ACME' });
  const me = await hostRequest(byPath.url, 'anything.test', 'GET', '/org/acme/api/v1/users/me', { as: acme.owner });
  t.match(me.json, { result: 'success', user_id: acme.owner.user_id });
  const elsewhere = await hostRequest(byPath.url, 'anything.test', 'GET', '/org/globex/api/v1/users/me', { as: acme.members[0] });
  t.same([elsewhere.status, elsewhere.json], [401, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }], "acme's key under globex's path");
  const none = await hostRequest(byPath.url, `globex.localhost:${port}`, 'GET', '/api/v1/users/me', { as: acme.owner });
  t.same([none.status, none.json], [404, { result: 'error', msg: 'Invalid subdomain', code: 'NONEXISTENT_SUBDOMAIN' }], 'a subdomain is no address of this template');
  t.equal(await stop(byPath, 'SIGTERM'), 0, 'exit code 0');
  t.equal(byPath.stderr(), '', 'nothing on stderr');
});

t.test('--orgs refuses what it cannot serve, with exit code 2 (in this process, through main())', async (t) => {
  for (const [args, message] of [
    [['serve', '--orgs', `${dir}/missing`], `parley: --orgs ${dir}/missing is not a directory`],
    [['serve', '--orgs', dir, '--db', 'x.db'], 'parley: --db and --orgs are exclusive'],
    [['serve', '--orgs', dir, '--url', 'http://x.example.com'], 'parley: --url is for one organization; with --orgs, --org-url sets the template'],
    [['serve', '--orgs', dir, '--org-url', 'http://chat.example.com'], "parley: --org-url: The organization URL template must contain {org} once, not 'http://chat.example.com'"],
    [['serve', '--orgs', dir, '--org-url', 'http://x{org}.example.com'], "parley: --org-url: {org} must stand for a whole host name label or path segment of the template, not 'http://x{org}.example.com'"],
    [['serve', '--orgs', dir, '--max-open', '0'], 'parley: --max-open must be at least 1'],
    [['serve', '--orgs', dir, '--max-open', 'many'], "parley: --max-open must be a non-negative integer, not 'many'"],
    [['serve', '--orgs', dir, '--idle-seconds=-1'], "parley: --idle-seconds must be a non-negative integer, not '-1'"],
    [['init', '--orgs', dir, '--org', 'Bad_Name', '--email', 'e@x.test', '--password', 'long-enough'], "parley: --org 'Bad_Name': an organization name has 3 to 63 lowercase letters, digits and dashes, and neither starts nor ends with a dash"],
    [['init', '--orgs', dir, '--email', 'e@x.test', '--password', 'long-enough'], 'parley: --org is required with --orgs'],
    [['init', '--orgs', dir, '--org', 'acme', '--db', 'x.db', '--email', 'e@x.test', '--password', 'long-enough'], 'parley: --db and --orgs are exclusive'],
  ] as const) {
    const err: string[] = [];
    const io = { out: () => {}, err: (line: string) => void err.push(line), env: {} };
    t.equal(await main([...args], io), 2, args.join(' '));
    t.same(err.join('\n').split('\n'), [message, 'Run `parley --help` for usage.'], args.join(' '));
  }
});
