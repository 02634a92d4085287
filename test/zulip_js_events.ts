// zulip-js's callOnEachEvent(callback, eventTypes) never returns and has no way to stop: it runs
// in a worker thread that the test terminates. The worker reports when zulip-js's own POST
// /register has been answered (so later changes reach the queue) and every event it is handed.
import { Worker } from 'node:worker_threads';

export interface CallOnEachEvent {
  /** Resolves once the loop's queue exists. */
  registered: Promise<void>;
  /** The next `count` events the callback receives. */
  next(count: number): Promise<Record<string, any>[]>;
  stop(): Promise<void>;
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const requireHere = require('node:module').createRequire(workerData.base);
const helper = requireHere('zulip-js/lib/helper.js');
const fetch = helper.fetch;
helper.fetch = async (url, options) => {
  const response = await fetch(url, options);
  if (new URL(url).pathname.endsWith('/register') && response.ok) setImmediate(() => parentPort.postMessage({ registered: true }));
  return response;
};
requireHere('zulip-js')(workerData.config).then((client) =>
  client.callOnEachEvent((event) => parentPort.postMessage({ event }), workerData.eventTypes),
);
`;

export async function callOnEachEvent(config: { username: string; apiKey: string; realm: string }, eventTypes: string[]): Promise<CallOnEachEvent> {
  const worker = new Worker(WORKER, { eval: true, workerData: { base: import.meta.url, config, eventTypes } });
  const received: Record<string, any>[] = [];
  let wake: (() => void) | undefined;
  let onRegistered: () => void = () => {};
  const registered = new Promise<void>((resolve) => (onRegistered = resolve));
  worker.on('message', (message: { registered?: boolean; event?: Record<string, any> }) => {
    if (message.registered) onRegistered();
    if (message.event && message.event.type !== 'heartbeat') {
      received.push(message.event);
      wake?.();
    }
  });
  return {
    registered,
    async next(count) {
      while (received.length < count) await new Promise<void>((resolve) => (wake = resolve));
      return received.splice(0, count);
    },
    async stop() {
      await worker.terminate();
    },
  };
}
