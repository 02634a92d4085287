// The test kit's clock: time that moves only when a test moves it (`advance`), and timers that
// follow it, so that what parley waits for (heartbeats, queue expiry, retries, batching) happens
// at once and in order. A server gets both, as ChatOptions.clock and ChatOptions.timers.
import type { TimerHandle, Timers } from '../timers.js';

/** 2025-01-01T00:00:00Z: a fixed start, so a test's timestamps are the same on every run. */
export const DEFAULT_START_MS = Date.UTC(2025, 0, 1);

export interface TestClock {
  /** The current time in milliseconds since the epoch (ChatOptions.clock). */
  readonly now: () => number;
  /**
   * Moves the time forward by `ms`. Each timer that falls due on the way fires in order (by due
   * time, then by creation), with `now()` at its due time, and the event loop turns once after it
   * so that the promises it settled run before the next one fires. Calls made before the previous
   * one finished run after it. Rejects, once the time has moved, with what a timer threw.
   */
  readonly advance: (ms: number) => Promise<void>;
  /** The timers that follow this clock (ChatOptions.timers). */
  readonly timers: Timers;
  /** How many timers are waiting. */
  readonly pending: () => number;
  /** When the next timer falls due (ms since the epoch), or undefined when none waits. */
  readonly nextDue: () => number | undefined;
}

/** The time and timers of a clock at a point: what TestChat.restore() takes it back to. */
export interface ClockMark {
  readonly time: number;
  /** The due time of each timer that waited at the mark. */
  readonly dues: ReadonlyMap<number, number>;
}

interface Timer {
  readonly sequence: number;
  due: number;
  /** Set for `every`. */
  readonly interval: number | undefined;
  readonly fn: () => void;
}

interface ClockState {
  now: number;
  sequence: number;
  /** Waiting timers by sequence number. A test has a handful: a linear scan finds the next. */
  readonly waiting: Map<number, Timer>;
}

const states = new WeakMap<TestClock, ClockState>();

export function createTestClock(startMs: number = DEFAULT_START_MS): TestClock {
  if (!Number.isFinite(startMs)) throw new RangeError(`The start of a test clock must be a finite time, not ${startMs}`);
  const state: ClockState = { now: startMs, sequence: 0, waiting: new Map() };
  let previous: Promise<unknown> = Promise.resolve();

  const schedule = (ms: number, fn: () => void, interval: number | undefined): TimerHandle => {
    state.sequence += 1;
    const timer: Timer = { sequence: state.sequence, due: state.now + ms, interval, fn };
    state.waiting.set(timer.sequence, timer);
    return { cancel: () => void state.waiting.delete(timer.sequence) };
  };

  const timers: Timers = {
    after(ms, fn) {
      return schedule(checkedDelay(ms, 0), fn, undefined);
    },
    every(ms, fn) {
      const interval = checkedDelay(ms, 1);
      return schedule(interval, fn, interval);
    },
  };

  const run = async (ms: number): Promise<void> => {
    const target = state.now + ms;
    const errors: unknown[] = [];
    for (let timer = earliest(state, target); timer !== undefined; timer = earliest(state, target)) {
      state.now = Math.max(state.now, timer.due);
      if (timer.interval === undefined) state.waiting.delete(timer.sequence);
      else timer.due += timer.interval;
      try {
        timer.fn();
      } catch (error) {
        errors.push(error);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    state.now = Math.max(state.now, target);
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} timers threw`);
  };

  const clock: TestClock = {
    now: () => state.now,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new RangeError(`advance() takes a finite, non-negative number of ms, not ${ms}`));
      const result = previous.then(() => run(ms));
      previous = result.catch(() => undefined);
      return result;
    },
    timers,
    pending: () => state.waiting.size,
    nextDue: () => earliest(state, Infinity)?.due,
  };
  states.set(clock, state);
  return clock;
}

function checkedDelay(ms: number, least: number): number {
  if (!Number.isFinite(ms)) throw new RangeError(`A timer's delay must be a finite number of ms, not ${ms}`);
  if (least > 0 && ms < least) throw new RangeError(`every() needs an interval of at least ${least} ms, not ${ms}`);
  return Math.max(0, ms);
}

function earliest(state: ClockState, until: number): Timer | undefined {
  let first: Timer | undefined;
  for (const timer of state.waiting.values()) {
    if (timer.due > until) continue;
    if (first === undefined || timer.due < first.due || (timer.due === first.due && timer.sequence < first.sequence)) first = timer;
  }
  return first;
}

function stateOf(clock: TestClock): ClockState {
  const state = states.get(clock);
  if (state === undefined) throw new TypeError('not a clock made by createTestClock()');
  return state;
}

export function markClock(clock: TestClock): ClockMark {
  const state = stateOf(clock);
  return { time: state.now, dues: new Map([...state.waiting].map(([sequence, timer]) => [sequence, timer.due])) };
}

/**
 * Takes the clock back to `mark`: its time, and the due times of the timers that waited then.
 * Timers created since are cancelled; those cancelled since stay cancelled.
 */
export function rewindClock(clock: TestClock, mark: ClockMark): void {
  const state = stateOf(clock);
  state.now = mark.time;
  for (const [sequence, timer] of state.waiting) {
    const due = mark.dues.get(sequence);
    if (due === undefined) state.waiting.delete(sequence);
    else timer.due = due;
  }
}
