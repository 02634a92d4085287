// The worker thread of lib/store/checkpoints.ts: its own connection to the database file, running
// PASSIVE checkpoints when the request thread says commits have been made. A PASSIVE checkpoint
// copies committed WAL frames into the database file without taking the write lock, so the
// request thread keeps committing meanwhile; its fsyncs wait here, not there.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface CheckpointWorkerData {
  file: string;
  /** How long after the first nudge a checkpoint runs: the frames of that time go in one pass. */
  delayMs: number;
}

/** Messages to the worker: nudge after commits, or close the connection and end. */
export type CheckpointWorkerMessage = 'checkpoint' | 'close';

const port = parentPort!;
const { file, delayMs } = workerData as CheckpointWorkerData;
const db = new Database(file, { fileMustExist: true });
let pending: NodeJS.Timeout | undefined;

port.on('message', (message: CheckpointWorkerMessage) => {
  if (message === 'close') {
    clearTimeout(pending);
    db.close();
    port.close();
    return;
  }
  pending ??= setTimeout(() => {
    pending = undefined;
    // Busy (another connection checkpointing) is an answer, not an error: the next nudge retries.
    db.pragma('wal_checkpoint(PASSIVE)');
  }, delayMs);
});
