// Starting the `parley` command as a child process in tests. `npm test` builds first and sets
// PARLEY_CLI_JS=dist/cli.js, so children start from compiled JavaScript in a fraction of a
// second; a test file run alone (npx tap test/x.test.ts) falls back to the TypeScript sources.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

// Without tap's process-info and coverage hooks (NODE_OPTIONS, _TAPJS_*): they would cost each
// child several times its own start-up.
const CHILD_ENV = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(NODE_OPTIONS|NODE_V8_COVERAGE|_TAPJS_|TAP)/.test(key)),
);

/** The node arguments that run `parley <args>`. */
export function parleyArgv(args: readonly string[]): string[] {
  const compiled = process.env.PARLEY_CLI_JS;
  // The loader by its resolved URL: a child may run in another working directory.
  return compiled ? [join(ROOT, compiled), ...args] : ['--import', import.meta.resolve('@tapjs/typescript/import'), join(ROOT, 'lib/cli.ts'), ...args];
}

export function spawnParley(args: readonly string[], options: SpawnOptions & { env?: Record<string, string | undefined> } = {}): ChildProcess {
  return spawn(process.execPath, parleyArgv(args), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
    env: { ...CHILD_ENV, TS_NODE_TRANSPILE_ONLY: '1', ...options.env },
  });
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `parley <args>` to completion. */
export function runParley(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnParley(args, { env });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
