// Cross-organization access is impossible by construction: a request reaches only the database
// its Host names, so every route called with one organization's credentials at another's host
// name is refused (an account with the same email in both included), and nothing changes there.
import { rmSync } from 'node:fs';
import t from 'tap';
import Database from 'better-sqlite3';
import { createChatHost } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { hostRequest, seedOrganizations } from './organization_helpers.js';
import { dumpDatabase } from './raw_http.js';
import { allRouteEntries } from './route_inspection.js';

const { dir, directory, organizations } = await seedOrganizations(['acme', 'globex']);
const acme = organizations.acme!;
const globex = organizations.globex!;
const host = createChatHost({ url: 'http://{org}.chat.test', open: directory.open, options: { logger: silentLogger } });
t.teardown(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});
const { port } = await host.listen(0, '127.0.0.1');
const base = `http://127.0.0.1:${port}`;
const at = (org: string) => `${org}.chat.test:${port}`;

// Some of acme's own things, which globex's ids would collide with.
const chat = (await host.organization('acme'))!;
chat.api.streams.subscribe(acme.owner.user_id, { subscriptions: [{ name: 'secret plans' }], principals: [acme.owner.user_id, acme.members[0]!.user_id] });
chat.api.messages.send(acme.owner.user_id, { type: 'stream', to: 'secret plans', topic: 'q3', content: 'acme only' });
const globexChat = (await host.organization('globex'))!;
globexChat.api.messages.send(globex.owner.user_id, { type: 'direct', to: [globex.members[0]!.user_id], content: 'globex only' });

/** A route's path with each parameter filled (ids of acme's things are 1 in globex too). */
const pathOf = (path: string): string => '/api/v1' + path.replace(/:[a-z_]+/g, '1').replace(/\*/g, 'x');

t.test("every route with acme's credentials at globex's host name is refused, and globex is unchanged", async (t) => {
  const globexFile = new Database(directory.path('globex'), { readonly: true });
  t.teardown(() => globexFile.close());
  const before = dumpDatabase(globexFile, ['event_queue.last_poll']);
  for (const { route } of allRouteEntries()) {
    const label = `${route.method} ${route.path}`;
    for (const user of [acme.owner, acme.members[0]!]) {
      const reply = await hostRequest(base, at('globex'), route.method, pathOf(route.path), { as: user });
      const text = JSON.stringify(reply.json ?? reply.text);
      t.notMatch(text, /acme/i, `${label} as ${user.email}: nothing of acme's`);
      if (route.access === 'public') {
        t.not(reply.json?.result === 'success' && JSON.stringify(reply.json).includes(user.api_key), true, `${label}: public, never acme's key`);
        continue;
      }
      t.equal(reply.status, 401, `${label} as ${user.email}: 401`);
      t.equal(reply.json?.code, 'UNAUTHORIZED', `${label}: UNAUTHORIZED`);
    }
  }
  t.equal(dumpDatabase(globexFile, ['event_queue.last_poll']), before, "nothing of globex's changed");
});

t.test("acme's owner's own password and key log in nowhere else, though globex has an owner of the same email", async (t) => {
  const login = await hostRequest(base, at('globex'), 'POST', '/api/v1/fetch_api_key', { params: { username: 'owner@example.com', password: 'not-globex-password' } });
  t.equal(login.status, 401);
  t.same((await hostRequest(base, at('globex'), 'GET', '/api/v1/users/me', { as: acme.owner })).json, {
    result: 'error',
    msg: 'Invalid API key',
    code: 'UNAUTHORIZED',
  });
  t.equal((await hostRequest(base, at('acme'), 'GET', '/api/v1/users/me', { as: acme.owner })).status, 200, 'at its own host it works');
});

t.test('each organization reads its own messages', async (t) => {
  const own = await hostRequest(base, at('acme'), 'GET', '/api/v1/messages', {
    as: acme.owner,
    params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [] },
  });
  t.same((own.json!.messages as { content: string }[]).map((m) => m.content), ['<p>acme only</p>']);
  const theirs = await hostRequest(base, at('globex'), 'GET', '/api/v1/messages', {
    as: globex.owner,
    params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [] },
  });
  t.same((theirs.json!.messages as { content: string }[]).map((m) => m.content), ['<p>globex only</p>']);
});
