// `parley serve` as a child process for the crash and multi-process tests (started by
// test/cli_process.ts: from dist/ under npm test): a database with users made in this process,
// children started on it, and requests whose failure (a killed server) is an outcome.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { spawnParley } from './cli_process.js';
import { jsonBody, withAuth, type TestUser } from './helpers.js';

// The children get the defaults of `parley serve` unless a test sets them.
const UNSET = { PARLEY_RATE_LIMIT: undefined, PARLEY_OWNER_EMAIL: undefined, PARLEY_PUSH_BOUNCER_URL: undefined };

export interface ServeChild {
  child: ChildProcess;
  url: string;
  /** Resolves with the exit code, or the signal that ended the process. */
  exit: Promise<number | string | null>;
  stderr(): string;
}

/** A temporary database with an owner and `count` members; removed when `cleanup` runs. */
export async function seedDatabase(count: number): Promise<{ file: string; owner: TestUser; users: TestUser[]; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-proc-'));
  const file = join(dir, 'chat.db');
  const db = new Database(file);
  const chat = createChatServer(db, { logger: silentLogger });
  const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' }));
  const users: TestUser[] = [];
  for (let i = 0; i < count; i += 1) users.push(withAuth(await chat.admin.addUser({ email: `writer${i}@example.com`, fullName: `Writer ${i}` })));
  await chat.close();
  db.close();
  return { file, owner, users, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts `parley serve --port 0` on `file`; resolves once it listens. */
export function startServe(file: string, args: string[] = [], env: Record<string, string> = {}): Promise<ServeChild> {
  return startServeWith(['--db', file, ...args], env);
}

/** Starts `parley serve --port 0 <args>`; resolves once it listens. */
export function startServeWith(args: string[], env: Record<string, string> = {}): Promise<ServeChild> {
  const child = spawnParley(['serve', '--port', '0', ...args], { env: { ...UNSET, ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | string | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /^parley listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(stdout);
      if (match) resolve({ child, url: match[1]!, exit, stderr: () => stderr });
    });
    void exit.then((code) => reject(new Error(`parley serve exited with ${code} before listening: ${stderr}`)));
  });
}

/** Kills the child if it still runs. */
export function stop(serve: ServeChild | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<unknown> {
  if (!serve) return Promise.resolve();
  if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill(signal);
  return serve.exit;
}

/** A request whose failure (connection reset by a killed server) is an outcome, not an exception. */
export type Attempt = { status: number; body: Record<string, any> } | { status: 'failed'; body: undefined; error: string };

export async function attempt(
  url: string,
  user: TestUser,
  method: string,
  path: string,
  params: Record<string, string>,
  signal: AbortSignal = AbortSignal.timeout(30_000),
): Promise<Attempt> {
  try {
    const response = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: user.auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: method === 'GET' ? null : new URLSearchParams(params).toString(),
      signal,
    });
    return { status: response.status, body: await jsonBody(response) };
  } catch (error) {
    return { status: 'failed', body: undefined, error: String(error) };
  }
}

/** Waits until `done` holds, checking every 20 ms; throws naming `what` after `ms`. */
export async function until(what: string, done: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
