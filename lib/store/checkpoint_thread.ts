// The worker thread that runs WAL checkpoints (lib/store/checkpoints.ts says when and why): one
// thread, with a connection of its own to each database file attached to it. A server alone gets
// a thread of its own, ended when the server closes; a host of many organizations shares one
// among all of them (each thread costs about 8 MB, bench/README.md "organizations").
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How long the worker gathers frames after a nudge before it checkpoints them. */
const DELAY_MS = 50;

/** Messages to the worker: nudge after commits, release a file's connection, or end. */
type ToWorker = { op: 'nudge' | 'release'; file: string } | { op: 'end' };
/** Messages from it: a file's connection was closed, or its checkpoints failed (it was closed too). */
type FromWorker = { released: string } | { failed: string; message: string };

interface WorkerData {
  /** better-sqlite3's entry point, as this module resolves it. */
  driver: string;
  delayMs: number;
}

// For each file, a PASSIVE checkpoint (which copies committed WAL frames into the database file
// without taking the write lock) at most once per delayMs while nudges come. Plain JavaScript run
// without the parent's flags (execArgv: []): a server started under a TypeScript loader would
// otherwise load it again in the thread (about 130 MB more; the thread costs about 8-18 MB
// without). Busy (another connection checkpointing) is an answer, not an error: the next nudge
// retries. A file whose connection fails is reported and dropped; the others go on.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
const drop = (file) => {
  const entry = files.get(file);
  if (entry === undefined) return;
  clearTimeout(entry.pending);
  files.delete(file);
  try { entry.db.close(); } catch {}
};
parentPort.on('message', (message) => {
  if (message.op === 'end') {
    for (const file of [...files.keys()]) drop(file);
    parentPort.close();
    return;
  }
  const { file } = message;
  if (message.op === 'release') {
    drop(file);
    parentPort.postMessage({ released: file });
    return;
  }
  let entry = files.get(file);
  try {
    if (entry === undefined) {
      entry = { db: new Database(file, { fileMustExist: true }), pending: undefined };
      files.set(file, entry);
    }
  } catch (error) {
    parentPort.postMessage({ failed: file, message: String(error && error.message || error) });
    return;
  }
  entry.pending ??= setTimeout(() => {
    entry.pending = undefined;
    try {
      entry.db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      drop(file);
      parentPort.postMessage({ failed: file, message: String(error && error.message || error) });
    }
  }, workerData.delayMs);
});
`;

export interface AttachedFile {
  /** A commit or a few: a checkpoint of the file soon. */
  nudge(): void;
  /** The id of the thread that checkpoints the file, while it runs. */
  readonly threadId: number | undefined;
  /** Closes the thread's connection to the file; resolves once it is closed. */
  detach(): Promise<void>;
}

export class CheckpointThread {
  /** End the thread when its last file is detached (a server's own thread). */
  readonly #endWhenUnused: boolean;
  #worker: Worker | undefined;
  #exited: Promise<void> = Promise.resolve();
  /** Detaches waiting for their answer: the thread is referenced (keeps the process) meanwhile. */
  #detaching = 0;
  readonly #files = new Map<string, { failed: (error: Error) => void; released?: () => void }>();

  constructor(options: { endWhenUnused: boolean }) {
    this.#endWhenUnused = options.endWhenUnused;
  }

  /** The running thread's id (tests: servers sharing a thread see the same). */
  get threadId(): number | undefined {
    return this.#worker?.threadId;
  }

  /** Attaches a database file; `failed` is called (once) if the thread cannot checkpoint it. */
  attach(file: string, failed: (error: Error) => void): AttachedFile {
    if (this.#files.has(file)) throw new Error(`${file} is attached to the checkpoint thread twice`);
    this.#files.set(file, { failed });
    const worker = this.#start();
    const thread = this;
    return {
      nudge: () => {
        if (this.#files.has(file)) worker.postMessage({ op: 'nudge', file } satisfies ToWorker);
      },
      detach: () => this.#detach(file),
      get threadId() {
        return thread.threadId;
      },
    };
  }

  /** Ends the thread; resolves when it is gone. */
  end(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker !== undefined) {
      // Held until it has closed its connections, though unreferenced until now.
      worker.ref();
      worker.postMessage({ op: 'end' } satisfies ToWorker);
    }
    return this.#exited;
  }

  #start(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const data: WorkerData = { driver: createRequire(import.meta.url).resolve('better-sqlite3'), delayMs: DELAY_MS };
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: data });
    // A host that never calls close() can still exit.
    worker.unref();
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: FromWorker) => {
      if ('released' in message) {
        const entry = this.#files.get(message.released);
        this.#files.delete(message.released);
        entry?.released?.();
        return;
      }
      const entry = this.#files.get(message.failed);
      this.#files.delete(message.failed);
      entry?.failed(new Error(message.message));
      entry?.released?.();
      this.#endIfUnused();
    });
    // The thread itself failed: every file goes back to its own checkpoints.
    const lost = (error: Error): void => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      const files = [...this.#files.values()];
      this.#files.clear();
      for (const entry of files) {
        entry.failed(error);
        entry.released?.();
      }
    };
    worker.once('error', lost);
    worker.once('exit', () => lost(new Error('the checkpoint thread ended')));
    this.#worker = worker;
    return worker;
  }

  #detach(file: string): Promise<void> {
    const entry = this.#files.get(file);
    const worker = this.#worker;
    if (entry === undefined || worker === undefined) return Promise.resolve();
    if (this.#detaching++ === 0) worker.ref();
    return new Promise<void>((resolve) => {
      entry.released = resolve;
      worker.postMessage({ op: 'release', file } satisfies ToWorker);
    }).then(async () => {
      if (--this.#detaching === 0 && this.#worker === worker) worker.unref();
      if (this.#endWhenUnused && this.#files.size === 0) await this.end();
    });
  }

  #endIfUnused(): void {
    if (this.#endWhenUnused && this.#files.size === 0) void this.end();
  }
}
