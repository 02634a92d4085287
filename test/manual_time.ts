// A clock and timers that move only when a test says so (ChatOptions.clock and .timers): waits of
// background work (delivery back-off, email batching) pass in an instant, and a test can show that
// nothing happens before a wait has passed.
import type { Timers } from '../lib/timers.js';

export interface ManualTime {
  clock: () => number;
  timers: Timers;
  /** Moves the clock on by `ms`, firing every timer that comes due, in order. */
  advance(ms: number): void;
  /** Timers waiting. */
  pending(): number;
}

export function manualTime(start = 1_800_000_000_000): ManualTime {
  let now = start;
  let order = 0;
  const waiting = new Map<number, { at: number; fn: () => void }>();
  const after = (ms: number, fn: () => void) => {
    const id = order++;
    waiting.set(id, { at: now + Math.max(0, ms), fn });
    return { cancel: () => void waiting.delete(id) };
  };
  const timers: Timers = {
    after,
    every(ms, fn) {
      let handle = { cancel: () => {} };
      const tick = () => {
        handle = after(ms, tick);
        fn();
      };
      handle = after(ms, tick);
      return { cancel: () => handle.cancel() };
    },
  };
  return {
    clock: () => now,
    timers,
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...waiting.entries()].filter(([, t]) => t.at <= end).sort(([a, x], [b, y]) => x.at - y.at || a - b)[0];
        if (!due) break;
        waiting.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].fn();
      }
      now = end;
    },
    pending: () => waiting.size,
  };
}
