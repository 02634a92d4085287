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
import { CheckpointThread } from './checkpoint_thread.js';
import type { Database } from './db.js';

export { CheckpointThread } from './checkpoint_thread.js';

/** Commits of this server before the worker starts. */
export const START_AFTER = 256;
/** The worker is nudged once per this many commits. */
const NUDGE_EVERY = 32;
/** SQLite's default wal_autocheckpoint, in pages: the request connection's when no worker runs. */
export const INLINE_PAGES = 1000;
/** The request connection's automatic checkpoint while the worker runs. */
export const BACKSTOP_PAGES = 10_000;

export interface Checkpoints {
  /** Called after every commit of this server. */
  committed(): void;
  /** Whether the worker thread checkpoints this server's database (tests). */
  readonly running: boolean;
  /** The id of that thread, while it does (tests: a host's organizations share one). */
  readonly threadId: number | undefined;
  /** Detaches from the worker (ending a thread of its own) and gives the connection SQLite's default back; resolves when done. */
  close(): Promise<void>;
}

export interface CheckpointOptions {
  /** False for a database that is not better-sqlite3's (the libsql adapter): checkpoints stay inline. */
  enabled: boolean;
  onError: (error: Error) => void;
  /** A thread shared with other servers (a host's); by default the server starts one of its own. */
  thread?: CheckpointThread | undefined;
}

function walFile(db: Database): string | undefined {
  if (db.memory || db.readonly || db.name === '' || db.name === ':memory:') return undefined;
  return db.pragma('journal_mode', { simple: true }) === 'wal' ? db.name : undefined;
}

export function backgroundCheckpoints(db: Database, options: CheckpointOptions): Checkpoints {
  let commits = 0;
  let attached: ReturnType<CheckpointThread['attach']> | undefined;
  // Set once the worker cannot run here (not a WAL file, or it failed): checkpoints stay inline.
  let inline = !options.enabled;

  const stop = (): void => {
    attached = undefined;
    if (db.open) db.pragma(`wal_autocheckpoint = ${INLINE_PAGES}`);
  };

  const start = (): void => {
    const file = walFile(db);
    if (file === undefined) {
      inline = true;
      return;
    }
    const thread = options.thread ?? new CheckpointThread({ endWhenUnused: true });
    const mine = thread.attach(file, (error) => {
      inline = true;
      if (attached === mine) stop();
      options.onError(error);
    });
    attached = mine;
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  };

  return {
    committed() {
      if (inline || ++commits % NUDGE_EVERY !== 0) return;
      if (attached === undefined) {
        if (commits >= START_AFTER) start();
        return;
      }
      attached.nudge();
    },
    get running() {
      return attached !== undefined;
    },
    get threadId() {
      return attached?.threadId;
    },
    close() {
      const running = attached;
      inline = true;
      if (running === undefined) return Promise.resolve();
      stop();
      return running.detach();
    },
  };
}
