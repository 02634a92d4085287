// Uploads spooled to disk while their request runs: one temporary directory per request, named
// for the process that made it, removed once the request is answered; and the sweep at start-up of
// the directories a process killed before it could remove them (SIGKILL, a power cut) left behind.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger.js';

/** parley-upload-<pid>-<random>; before the pid was part of it, parley-upload-<random>. */
const SPOOL_PREFIX = 'parley-upload-';
const SPOOL_NAME = /^parley-upload-(?:(\d+)-)?[A-Za-z0-9]{6}$/;

/** How old a directory without a process id must be to be swept: far longer than any request lives. */
const UNNAMED_STALE_MS = 60 * 60_000;

/**
 * Spooled files: each part streams to a file of one temporary directory per request, so a large
 * upload holds no more than the streams' buffers in memory.
 */
export class Spool {
  #dir: string | undefined;
  #count = 0;
  #removed = false;
  readonly #writing: Promise<boolean>[] = [];

  constructor(private readonly parent: string) {}

  write(stream: NodeJS.ReadableStream, file: { spooled?: { path: string; size: number } }): void {
    if (this.#removed) {
      stream.resume();
      return;
    }
    this.#dir ??= mkdtempSync(join(this.parent, `${SPOOL_PREFIX}${process.pid}-`));
    const path = join(this.#dir, String(this.#count++));
    const spooled = { path, size: 0 };
    file.spooled = spooled;
    const out = createWriteStream(path);
    stream.on('data', (chunk: Buffer) => {
      spooled.size += chunk.length;
    });
    stream.pipe(out);
    this.#writing.push(
      new Promise((resolve) => {
        out.on('close', () => resolve(true));
        out.on('error', () => resolve(false));
      }),
    );
  }

  /** Whether every file reached the disk (resolves once they all did or failed). */
  async written(): Promise<boolean> {
    return (await Promise.all(this.#writing)).every(Boolean);
  }

  remove(): void {
    this.#removed = true;
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  }
}

/** Whether a process with this id runs (EPERM: it does, as another user). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the spool directories in `dir` no running request can own: those of processes that no
 * longer run, this process's id's from before it started (a container restarts with the same id),
 * and unnamed ones over an hour old. Those of other running processes (another `parley serve` on
 * the same machine) stay. Resolves with the directories removed; failures are logged, not thrown.
 */
export async function sweepStaleSpools(dir: string, logger: Logger, nowMs = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  const startedMs = nowMs - process.uptime() * 1000;
  for (const name of names) {
    const match = SPOOL_NAME.exec(name);
    if (!match) continue;
    const path = join(dir, name);
    try {
      const pid = match[1] === undefined ? undefined : Number(match[1]);
      const { mtimeMs } = await stat(path);
      const stale = pid === undefined ? nowMs - mtimeMs > UNNAMED_STALE_MS : pid === process.pid ? mtimeMs < startedMs : !processRuns(pid);
      if (!stale) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(name);
    } catch (error) {
      logger.warn('could not remove a stale upload spool directory', { path, error: (error as Error).message });
    }
  }
  if (removed.length > 0) logger.info('removed stale upload spool directories', { dir, count: removed.length });
  return removed;
}
