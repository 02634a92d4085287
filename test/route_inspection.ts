// What the route-table tests read of the routes: every route with its group and name, and the
// domain functions a handler's source calls (which of them are async functions).
import { readdirSync, readFileSync } from 'node:fs';
import { routeGroups } from '../lib/routes/index.js';
import type { RouteDef } from '../lib/routes/route.js';

// Every exported function of the modules the route files import from the layers below them
// (lib/domain and the capability folders such as lib/accounts; not lib/http), by name: what a
// route's handler calls.
const routesDir = new URL('../lib/routes/', import.meta.url);
const below = new Set<string>();
for (const file of readdirSync(routesDir).filter((name) => name.endsWith('.ts'))) {
  for (const [, module] of readFileSync(new URL(file, routesDir), 'utf8').matchAll(/from '\.\.\/([a-z_]+\/[a-z_/]+)\.js'/g)) {
    if (!module!.startsWith('http/') && !module!.startsWith('routes/')) below.add(module!);
  }
}
const domainFunctions = new Map<string, unknown>();
for (const module of [...below].sort()) {
  const exported = (await import(`../lib/${module}.js`)) as Record<string, unknown>;
  for (const [name, value] of Object.entries(exported)) if (typeof value === 'function') domainFunctions.set(name, value);
}
// The rest of lib/domain too: a handler may call a function its route file imports under another name.
for (const file of readdirSync(new URL('../lib/domain/', import.meta.url)).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))) {
  const exported = (await import(`../lib/domain/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
  for (const [name, value] of Object.entries(exported)) if (typeof value === 'function' && !domainFunctions.has(name)) domainFunctions.set(name, value);
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
