// The README's example of a bot test (the TypeScript block after `<!-- example: bot-test -->`)
// runs as written, with node:test, against parley's sources, and passes.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from './cli_process.js';

t.setTimeout(120_000);

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const example = /<!-- example: bot-test -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1];

t.test('the README has the example', async (t) => {
  t.ok(example, 'a ```ts block after the marker');
  t.match(example, /from 'parley'/, 'it imports parley as a user would');
});

t.test('the example passes', async (t) => {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'tmp', 'readme-example-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'bot.test.ts');
  // Under npm test (which builds first) the compiled dist/, else the sources.
  const parley = process.env.PARLEY_CLI_JS ? join(ROOT, 'dist', 'index.js') : join(ROOT, 'lib', 'index.js');
  writeFileSync(file, example!.replace("from 'parley'", `from '${parley}'`));
  // Without tap's hooks (NODE_OPTIONS, _TAPJS_*): node:test reports on its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NODE_OPTIONS|NODE_V8_COVERAGE|_TAPJS_|TAP)/.test(key)));
  const child = spawn(process.execPath, ['--import', '@tapjs/typescript/import', file], { cwd: ROOT, env: { ...env, TS_NODE_TRANSPILE_ONLY: '1' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.equal(code, 0, output);
  t.match(output, /^# pass 1$/m);
  t.match(output, /^# fail 0$/m);
});
