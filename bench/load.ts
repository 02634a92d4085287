// Load generation for the HTTP benchmarks: servers in child processes (bench/servers.ts),
// autocannon in this one, so server and load generator each get their own core.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export interface BenchServer<I = Record<string, any>> {
  url: string;
  info: I;
  child: ChildProcess;
  memory(): Promise<NodeJS.MemoryUsage>;
  waiters(): Promise<number>;
  /** Server side: ms from the last PATCH request's arrival to the last GET /events response written. */
  fanout(): Promise<number>;
  /** Another IPC command of the server's kind (bench/servers.ts), answered under its own name. */
  ask<T>(cmd: string): Promise<T>;
  stop(): void;
}

export async function startBenchServer<I = Record<string, any>>(kind: string, env: Record<string, string> = {}): Promise<BenchServer<I>> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  const child = fork(join(import.meta.dirname, 'servers.ts'), [kind, dir], {
    // BENCH_PROFILE_DIR: each server writes a V8 CPU profile there when it stops.
    execArgv: [
      '--import',
      '@tapjs/typescript/import',
      '--expose-gc',
      ...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
    ],
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server ${kind} exited with ${code}`)));
  });
  const { port, ...info } = JSON.parse(line) as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    info: info as I,
    child,
    memory: () =>
      new Promise((resolve) => {
        child.once('message', (m: { memory: NodeJS.MemoryUsage }) => resolve(m.memory));
        child.send({ cmd: 'memory' });
      }),
    waiters: () =>
      new Promise((resolve) => {
        child.once('message', (m: { waiters: number }) => resolve(m.waiters));
        child.send({ cmd: 'waiters' });
      }),
    fanout: () =>
      new Promise((resolve) => {
        child.once('message', (m: { fanout: number }) => resolve(m.fanout));
        child.send({ cmd: 'fanout' });
      }),
    ask: <T>(cmd: string) =>
      new Promise<T>((resolve) => {
        child.once('message', (m: Record<string, T>) => resolve(m[cmd]!));
        child.send({ cmd });
      }),
    // The database directory goes with the server (a full run leaves gigabytes otherwise).
    stop: () => {
      child.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      child.kill('SIGTERM');
    },
  };
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
  /** Changes each request before it is sent (e.g. a new path each time); `context` is the connection's. */
  setupRequest?: (request: { method?: string; path?: string; body?: string }, context: Record<string, unknown>) => { method?: string; path?: string; body?: string };
  /** Sees each answer, with the context its setupRequest saw. */
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  /**
   * Non-2xx answers accepted (and counted as requests): for requests that depend on what the
   * ones before did, when a round's end cuts requests off whose effect the next round meets.
   */
  tolerateNon2xx?: number;
}

/** Mean requests per second over the run; throws if any request failed or was not 2xx. */
export async function load(options: LoadOptions): Promise<number> {
  // autocannon's options take no explicit undefined: absent headers are its default {}.
  const request = {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
  };
  const result = await autocannon({
    url: options.url,
    ...request,
    connections: options.connections ?? 50,
    duration: options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5),
    // autocannon applies a setupRequest given with the request it changes.
    ...(options.setupRequest
      ? { requests: [{ ...request, setupRequest: options.setupRequest, ...(options.onResponse ? { onResponse: options.onResponse } : {}) }] }
      : {}),
  });
  if (result.errors > 0 || result.non2xx > (options.tolerateNon2xx ?? 0)) {
    throw new Error(`load on ${options.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  }
  return result.requests.average;
}

/**
 * Loads several servers in alternating rounds (seconds each) and returns each one's median req/s:
 * on a shared VM the machine's speed drifts within a run, and alternating makes the drift hit
 * every side alike (compare only within one run). One warm-up round first.
 */
export async function interleavedLoads(targets: readonly LoadOptions[], rounds = Number(process.env.BENCH_ROUNDS ?? 9), seconds = 1): Promise<number[]> {
  const results: number[][] = targets.map(() => []);
  for (let round = -1; round < rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const rps = await load({ ...target, seconds: round < 0 ? 1 : seconds });
      if (round >= 0) results[i]!.push(rps);
      if (process.env.BENCH_VERBOSE) console.log(`    round ${round} ${target.url}: ${Math.round(rps)} req/s`);
    }
  }
  return results.map((values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
}

export function basicAuth(email: string, apiKey: string): string {
  return 'Basic ' + Buffer.from(`${email}:${apiKey}`).toString('base64');
}
