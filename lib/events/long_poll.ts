// GET /events' wait: a poll parked until its queue's user has an event the queue accepts, its
// heartbeat is due, or its client goes away. Its queue counts as connected meanwhile (never
// expired), and the poll is recorded again when it ends.
import type { DeliveredEvent } from './event.js';
import type { Timers } from '../timers.js';
import type { Polls } from './polls.js';
import type { Waiters } from './waiters.js';

export interface LongPoll {
  queueId: string;
  userId: number;
  /** Events after this id are what the poll waits for. */
  cursor: number;
  /** The id a heartbeat carries: the last event the client has. */
  lastEventId: number;
  accepts: (type: string) => boolean;
  heartbeatMs: number;
  /** Aborted when the client goes away: the poll ends with no events. */
  signal?: AbortSignal | undefined;
}

/** The events the poll ends with: the first batch, a heartbeat, or none once its client left. */
export function waitForEvents(waiters: Waiters, polls: Polls, timers: Timers, poll: LongPoll): Promise<DeliveredEvent[]> {
  const { signal } = poll;
  return new Promise((resolve) => {
    let settled = false;
    let stop = (): void => {};
    const disconnect = polls.connect(poll.queueId);
    const finish = (events: DeliveredEvent[]): void => {
      if (settled) return;
      settled = true;
      timer.cancel();
      signal?.removeEventListener('abort', onAbort);
      stop();
      disconnect();
      polls.record(poll.queueId);
      resolve(events);
    };
    const onAbort = (): void => finish([]);
    const timer = timers.after(poll.heartbeatMs, () => finish([{ type: 'heartbeat', id: poll.lastEventId }]));
    signal?.addEventListener('abort', onAbort, { once: true });
    stop = waiters.wait({
      userId: poll.userId,
      cursor: poll.cursor,
      accepts: poll.accepts,
      deliver: (events) => {
        finish(events);
        return false;
      },
    });
    if (settled) stop();
    if (signal?.aborted) finish([]);
  });
}
