// Builds the web client into dist/web (run by `npm run build`): the application's JavaScript and
// CSS bundles and the small boot script (src/boot.ts, a classic script run first), with content
// hashes in their names, index.html naming them (no inline script), and the Web Push service
// worker (src/sw.ts) as sw.js, a name that stays: browsers check that address for updates.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'web');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const common = {
  bundle: true,
  minify: true,
  target: ['chrome111', 'firefox115', 'safari16'],
  outdir: out,
  assetNames: '[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
};
const outputsOf = (result) => Object.keys(result.metafile.outputs).map((file) => relative(out, file));
const app = outputsOf(await esbuild.build({ ...common, entryPoints: [join(here, 'src', 'main.tsx')], format: 'esm', entryNames: 'app-[hash]' }));
const [boot] = outputsOf(await esbuild.build({ ...common, entryPoints: [join(here, 'src', 'boot.ts')], format: 'iife', entryNames: 'boot-[hash]' }));
await esbuild.build({ ...common, entryPoints: [join(here, 'src', 'sw.ts')], format: 'iife', entryNames: 'sw' });
const js = app.find((f) => f.endsWith('.js'));
const css = app.find((f) => f.endsWith('.css'));
writeFileSync(join(out, 'index.html'), `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>parley</title>
<link rel="icon" href="data:,">
<script src="web/${boot}"></script>
<link rel="stylesheet" href="web/${css}">
<script type="module" src="web/${js}"></script>
</head>
<body>
<noscript>The parley web client needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`);

const sizes = readdirSync(out).map((f) => `${f} ${gzipSync(readFileSync(join(out, f))).length} B gzipped`);
console.log(`web client built in dist/web: ${sizes.join(', ')}`);
