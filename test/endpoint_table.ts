// The README's endpoint table, generated from the route table. Run it to print the table:
//   TS_NODE_TRANSPILE_ONLY=1 node --import @tapjs/typescript/import test/endpoint_table.ts
// test/readme.test.ts checks that every route appears in the README under endpointKey(route).
import { routeGroups } from '../lib/routes/index.js';
import type { RouteDef } from '../lib/routes/route.js';

const ACCESS: Record<string, string> = {
  public: 'none',
  user: 'user or bot',
  human: 'user (no bots)',
  admin: 'administrator',
};

/** `GET /users/{user_id}`: find-my-way's `:param` (and a `*` tail) written Zulip-style. */
export function endpointKey(route: RouteDef): string {
  const tailParam = Object.entries(route.params).find(([name, param]) => param.in === 'path' && !route.path.includes(`:${name}`))?.[0] ?? 'path';
  const path = route.path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, `{${tailParam}}`);
  return `\`${route.method} ${path}\``;
}

export function endpointRows(): string[] {
  const rows = ['| endpoint | auth | summary | in-process |', '|---|---|---|---|'];
  for (const [group, routes] of Object.entries(routeGroups)) {
    for (const [name, route] of Object.entries(routes as Record<string, RouteDef>)) {
      const where = route.outsideApi ? ' (outside `/api/v1`)' : '';
      rows.push(`| ${endpointKey(route)}${where} | ${ACCESS[route.access] ?? route.access} | ${route.summary.replaceAll('|', '\\|')} | \`api.${group}.${name}\` |`);
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(endpointRows().join('\n'));
