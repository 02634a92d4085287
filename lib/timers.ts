// The timers parley's background work waits on (retries, batching, heartbeats, garbage
// collection): Node's own by default, never keeping the process alive; a test kit passes timers
// that follow its controllable clock (`ChatOptions.timers`).

export interface TimerHandle {
  /** Cancels the timer; harmless after it fired. */
  cancel(): void;
}

export interface Timers {
  /** Calls fn once after `ms` milliseconds of the clock these timers follow. */
  after(ms: number, fn: () => void): TimerHandle;
  /** Calls fn every `ms` milliseconds until cancelled. */
  every(ms: number, fn: () => void): TimerHandle;
}

/** Node's timers, unref'ed: a server's background work never keeps its process alive. */
export const nodeTimers: Timers = {
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  },
};
