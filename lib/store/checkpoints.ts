// WAL checkpoints off the request thread.
//
// SQLite's automatic checkpoint runs inside the commit that takes the WAL past
// `wal_autocheckpoint` pages (1,000 by default): it fsyncs the WAL, copies the frames into the
// database file and fsyncs that (https://www.sqlite.org/wal.html#ckpt). In a Node server every
// request waits while that commit does. A write request of parley adds 2-6 pages to the WAL, so
// this came every 200-500 requests and was 30-40% of the wall time of a star or a status request
// (bench/README.md, "write path").
//
// As SQLite's documentation suggests for this case ("Application-Initiated Checkpoints"), a worker
// thread with its own connection runs PASSIVE checkpoints instead, which never take the write lock.
// The request connection keeps an automatic checkpoint, ten times further out, because the WAL
// only starts again from its beginning after a checkpoint that no commit overtook: under a steady
// stream of writes that is the request thread's own, and it finds most frames already copied.
//
// The worker starts after START_AFTER commits of this server, so a short-lived server (a bot's
// test) never starts a thread. Only for a better-sqlite3 database in a file in WAL mode; if the
// worker cannot start or fails, the request connection goes back to SQLite's default.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from './db.js';

/** Commits of this server before the worker starts. */
export const START_AFTER = 256;
/** The worker is nudged once per this many commits. */
const NUDGE_EVERY = 32;
/** SQLite's default wal_autocheckpoint, in pages: the request connection's when no worker runs. */
export const INLINE_PAGES = 1000;
/** The request connection's automatic checkpoint while the worker runs. */
export const BACKSTOP_PAGES = 10_000;
/** How long the worker gathers frames after a nudge before it checkpoints them. */
const DELAY_MS = 50;

export interface Checkpoints {
  /** Called after every commit of this server. */
  committed(): void;
  /** Whether the worker thread runs (tests). */
  readonly running: boolean;
  /** Ends the worker and gives the connection SQLite's default back; resolves when the thread is gone. */
  close(): Promise<void>;
}

export interface CheckpointOptions {
  /** False for a database that is not better-sqlite3's (the libsql adapter): checkpoints stay inline. */
  enabled: boolean;
  onError: (error: Error) => void;
}

interface WorkerData {
  /** better-sqlite3's entry point, as this module resolves it. */
  driver: string;
  file: string;
  /** How long after the first nudge a checkpoint runs: the frames of that time go in one pass. */
  delayMs: number;
}

/** Messages to the worker: nudge after commits, or close the connection and end. */
type WorkerMessage = 'checkpoint' | 'close';

// The worker: its own connection to the file, running a PASSIVE checkpoint (which copies committed
// WAL frames into the database file without taking the write lock) at most once per delayMs while
// nudges come. Plain JavaScript run without the parent's flags (execArgv: []): a server started
// under a TypeScript loader would otherwise load it again in the thread (about 130 MB more; the
// thread costs about 18 MB without). Busy (another connection checkpointing) is an answer, not an
// error: the next nudge retries.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
let pending;
parentPort.on('message', (message) => {
  if (message === 'close') {
    clearTimeout(pending);
    db.close();
    parentPort.close();
    return;
  }
  pending ??= setTimeout(() => {
    pending = undefined;
    db.pragma('wal_checkpoint(PASSIVE)');
  }, workerData.delayMs);
});
`;

function walFile(db: Database): string | undefined {
  if (db.memory || db.readonly || db.name === '' || db.name === ':memory:') return undefined;
  return db.pragma('journal_mode', { simple: true }) === 'wal' ? db.name : undefined;
}

export function backgroundCheckpoints(db: Database, options: CheckpointOptions): Checkpoints {
  let commits = 0;
  let worker: Worker | undefined;
  // Set once the worker cannot run here (not a WAL file, or it failed): checkpoints stay inline.
  let inline = !options.enabled;
  let exited: Promise<void> = Promise.resolve();

  const stop = (): void => {
    worker = undefined;
    if (db.open) db.pragma(`wal_autocheckpoint = ${INLINE_PAGES}`);
  };

  const start = (): void => {
    const file = walFile(db);
    if (file === undefined) {
      inline = true;
      return;
    }
    const data: WorkerData = { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, delayMs: DELAY_MS };
    const started = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: data });
    // A host that never calls close() can still exit.
    started.unref();
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    started.once('error', (error) => {
      inline = true;
      if (worker === started) stop();
      options.onError(error);
    });
    started.once('exit', () => {
      if (worker === started) stop();
    });
    worker = started;
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  };

  return {
    committed() {
      if (inline || ++commits % NUDGE_EVERY !== 0) return;
      if (worker === undefined) {
        if (commits >= START_AFTER) start();
        return;
      }
      worker.postMessage('checkpoint' satisfies WorkerMessage);
    },
    get running() {
      return worker !== undefined;
    },
    close() {
      const running = worker;
      inline = true;
      if (running === undefined) return exited;
      stop();
      // Held until it has closed its connection, though unreferenced until now.
      running.ref();
      running.postMessage('close' satisfies WorkerMessage);
      return exited;
    },
  };
}
