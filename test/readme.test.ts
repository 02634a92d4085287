// The README's endpoint table lists every route of lib/routes/index.ts (and only those), as
// "`METHOD /path`" with path parameters written Zulip-style (`{user_id}`).
import { readFileSync } from 'node:fs';
import t from 'tap';
import { allRoutes } from '../lib/routes/index.js';
import { endpointKey } from './endpoint_table.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function section(marker: string): string {
  const start = readme.indexOf(`<!-- section: ${marker} -->`);
  const end = readme.indexOf('\n## ', start);
  return readme.slice(start, end < 0 ? undefined : end);
}

t.test('every route appears in the README endpoint table', async (t) => {
  const table = section('endpoints');
  const missing = allRoutes.map(endpointKey).filter((key) => !table.includes(`| ${key}`));
  t.same(missing, [], 'routes missing from the table (print it with test/endpoint_table.ts)');
});

t.test('every row of the README endpoint table is a route', async (t) => {
  const keys = new Set(allRoutes.map(endpointKey));
  const rows = [...section('endpoints').matchAll(/^\| (`[A-Z]+ [^`]+`)/gm)].map((m) => m[1]!);
  t.ok(rows.length > 0, 'the table has rows');
  t.same(rows.filter((row) => !keys.has(row)), [], 'rows without a route');
});

t.test('path parameters are written Zulip-style', async (t) => {
  t.equal(endpointKey({ method: 'GET', path: '/users/:user_id', params: {} } as never), '`GET /users/{user_id}`');
  const tail = { method: 'PATCH', path: '/navigation_views/*', params: { fragment: { in: 'path' } } };
  t.equal(endpointKey(tail as never), '`PATCH /navigation_views/{fragment}`');
});
