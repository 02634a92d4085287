// What the route-table tests read of the routes: every route with its group and name, and the
// domain functions a handler's source calls (which of them are async functions).
import { readdirSync } from 'node:fs';
import { routeGroups } from '../lib/routes/index.js';
import type { RouteDef } from '../lib/routes/route.js';

// Every exported function of lib/domain, by name: what a route's handler calls.
const domainFunctions = new Map<string, unknown>();
for (const file of readdirSync(new URL('../lib/domain/', import.meta.url)).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))) {
  const module = (await import(`../lib/domain/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
  for (const [name, value] of Object.entries(module)) if (typeof value === 'function') domainFunctions.set(name, value);
}

/** The domain functions a handler's source calls, and which of them are async functions. */
export function calledDomainFunctions(route: RouteDef): { called: string[]; async: string[] } {
  const called = [...String(route.handler).matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)].map((m) => m[1]!).filter((name) => domainFunctions.has(name));
  return { called, async: called.filter((name) => (domainFunctions.get(name) as () => unknown).constructor.name === 'AsyncFunction') };
}

/** Every route of the table, with the group and name of its in-process function. */
export function allRouteEntries(): { group: string; name: string; route: RouteDef }[] {
  return Object.entries(routeGroups).flatMap(([group, members]) =>
    Object.entries(members as Record<string, RouteDef>).map(([name, route]) => ({ group, name, route })),
  );
}
