// The documentation follows the code: docs/endpoints.md is what `npm run docs` generates from the
// route table (so it lists every route, and only those), and every relative link of README.md and
// docs/ reaches an existing file and, with a #fragment, one of its headings.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { allRoutes } from '../lib/routes/index.js';
import { endpointKey, endpointsPage, ENDPOINTS_FILE } from '../scripts/docs.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

t.test('docs/endpoints.md is up to date with the route table (run `npm run docs`)', async (t) => {
  t.equal(readFileSync(ENDPOINTS_FILE, 'utf8'), endpointsPage(), 'regenerate it with npm run docs');
});

t.test('docs/endpoints.md has one row per route', async (t) => {
  const rows = [...endpointsPage().matchAll(/^\| (`[A-Z]+ [^`]+`)/gm)].map((m) => m[1]!);
  t.same(rows.sort(), allRoutes.map(endpointKey).sort());
});

t.test('path parameters are written Zulip-style', async (t) => {
  t.equal(endpointKey({ method: 'GET', path: '/users/:user_id', fields: [] } as never), '`GET /users/{user_id}`');
  const tail = { method: 'PATCH', path: '/navigation_views/*', fields: [{ name: 'fragment', wire: 'fragment', param: { in: 'path' } }] };
  t.equal(endpointKey(tail as never), '`PATCH /navigation_views/{fragment}`');
});

/** GitHub's anchor of a heading: lowercase, punctuation other than - and _ dropped, spaces to -. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replaceAll(' ', '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
}

const markdownFiles = ['README.md', 'bench/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

t.test('every relative link of README.md and docs/ reaches a file and a heading', async (t) => {
  const broken: string[] = [];
  for (const file of markdownFiles) {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, fragment] = target!.split('#') as [string, string | undefined];
      const resolved = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), path);
      if (!existsSync(resolved)) broken.push(`${file}: ${target} (no ${relative(ROOT, resolved)})`);
      else if (fragment !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment)) broken.push(`${file}: ${target} (no heading)`);
    }
  }
  t.same(broken, []);
});

t.test('docs/README.md links every page of docs/', async (t) => {
  const index = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
  const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  t.same(pages.filter((page) => !index.includes(`](${page}`)), [], 'pages missing from the index');
});
