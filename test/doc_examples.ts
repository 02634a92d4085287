// Running the TypeScript examples of the documentation as written: the block after a
// `<!-- example: NAME -->` marker, with its imports of parley pointed at this checkout, run by
// node:test in a child process.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli_process.js';

/** The ```ts (or other language) block after `<!-- example: name -->` in a file of the repository. */
export function exampleBlock(file: string, name: string, language = 'ts'): string | undefined {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return new RegExp(`<!-- example: ${name} -->\\s*\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1];
}

export interface ExampleRun {
  code: number | null;
  output: string;
}

/**
 * Runs `source` (a node:test file) with `parley` and `parley/testing` taken from this checkout
 * (dist/ under npm test, which builds first; the sources otherwise), and `extraFiles` beside it.
 */
export async function runExample(source: string, extraFiles: Record<string, string> = {}): Promise<ExampleRun> {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'tmp', 'doc-example-'));
  try {
    const built = join(ROOT, process.env.PARLEY_CLI_JS ? 'dist' : 'lib');
    const file = join(dir, 'example.test.ts');
    const pointed = source
      .replace("from 'parley/testing'", `from '${join(built, 'testing', 'index.js')}'`)
      .replace("from 'parley'", `from '${join(built, 'index.js')}'`);
    writeFileSync(file, pointed);
    for (const [name, text] of Object.entries(extraFiles)) writeFileSync(join(dir, name), text);
    // Without tap's hooks (NODE_OPTIONS, _TAPJS_*): node:test reports on its own.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(NODE_OPTIONS|NODE_V8_COVERAGE|_TAPJS_|TAP)/.test(key)));
    const child = spawn(process.execPath, ['--import', '@tapjs/typescript/import', file], { cwd: ROOT, env: { ...env, TS_NODE_TRANSPILE_ONLY: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
