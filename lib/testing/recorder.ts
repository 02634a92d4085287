// An event recorder (TestChat.recorder): one user's events as they arrive, and `next(pattern)`,
// which waits for the earliest one not yet taken that matches, failing after a timeout with a
// readable list of what did arrive.
import { inspect } from 'node:util';
import type { DeliveredEvent } from '../events/event.js';

/**
 * What next() looks for: an object whose every key must match the event's (nested objects the
 * same way, arrays element by element, a RegExp tests a string, a function tests the value), or a
 * function of the whole event.
 */
export type EventPattern = { readonly [key: string]: unknown } | ((event: RecordedEvent) => boolean);

/** An event as a recorder hands it to a test: typed loosely, so a test reads `event.message.content`. */
export interface RecordedEvent extends DeliveredEvent {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads any field of any event type
  readonly [key: string]: any;
}

export interface NextOptions {
  /** How long to wait, in real milliseconds (the test clock does not drive it); default 2000. */
  timeoutMs?: number;
}

export interface EventRecorder {
  /** The user whose events these are. */
  readonly userId: number;
  /** Every event received since the recorder started, in order. */
  readonly events: readonly RecordedEvent[];
  /**
   * The earliest event not yet returned by next() that matches `pattern` (any event when absent),
   * at once if it has arrived, else when it does. Rejects after `timeoutMs` with the events that
   * arrived, and when the recorder stops.
   */
  next(pattern?: EventPattern, options?: NextOptions): Promise<RecordedEvent>;
  /** Stops recording; waiting next() calls reject. */
  stop(): void;
}

export const DEFAULT_TIMEOUT_MS = 2000;
/** Events a failure message lists (the latest ones). */
const LISTED = 20;
const SHOWN_CHARACTERS = 160;

interface Waiter {
  readonly pattern: EventPattern | undefined;
  readonly resolve: (event: RecordedEvent) => void;
  readonly reject: (error: Error) => void;
}

/** What a restore takes a recorder back to (lib/testing/test_chat.ts). */
export interface RecorderMark {
  readonly length: number;
  readonly taken: ReadonlySet<number>;
}

/** A recorder fed by `receive`; the owner subscribes it and calls `end` when its subscription ends. */
export class Recorder implements EventRecorder {
  readonly userId: number;
  readonly #events: RecordedEvent[] = [];
  /** Indexes into #events that next() returned. */
  #taken = new Set<number>();
  readonly #waiters = new Set<Waiter>();
  readonly #unsubscribe: () => void;
  #ended: string | undefined;

  constructor(userId: number, subscribe: (receive: (event: DeliveredEvent) => void) => () => void) {
    this.userId = userId;
    this.#unsubscribe = subscribe((event) => this.#receive(event));
  }

  get events(): readonly RecordedEvent[] {
    return this.#events;
  }

  next(pattern?: EventPattern, options: NextOptions = {}): Promise<RecordedEvent> {
    const found = this.#take(pattern);
    if (found !== undefined) return Promise.resolve(found);
    if (this.#ended !== undefined) return Promise.reject(new Error(this.#ended));
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(this.#describeMiss(pattern, timeoutMs)));
      }, timeoutMs);
      const waiter: Waiter = {
        pattern,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.#waiters.add(waiter);
    });
  }

  stop(): void {
    this.end('the recorder was stopped');
  }

  /** Ends recording for `reason`; waiting and later next() calls that find nothing reject with it. */
  end(reason: string): void {
    if (this.#ended !== undefined) return;
    this.#ended = reason;
    this.#unsubscribe();
    for (const waiter of this.#waiters) waiter.reject(new Error(reason));
    this.#waiters.clear();
  }

  mark(): RecorderMark {
    return { length: this.#events.length, taken: new Set(this.#taken) };
  }

  /** Forgets what arrived after `mark`; waiting next() calls reject, since their test is over. */
  rewind(mark: RecorderMark): void {
    this.#events.length = Math.min(this.#events.length, mark.length);
    this.#taken = new Set(mark.taken);
    for (const waiter of this.#waiters) waiter.reject(new Error('the chat was restored while next() waited'));
    this.#waiters.clear();
  }

  #receive(event: DeliveredEvent): void {
    const index = this.#events.push(event) - 1;
    for (const waiter of this.#waiters) {
      if (!matchesPattern(event, waiter.pattern)) continue;
      this.#taken.add(index);
      this.#waiters.delete(waiter);
      waiter.resolve(event);
      return;
    }
  }

  #take(pattern: EventPattern | undefined): RecordedEvent | undefined {
    for (const [index, event] of this.#events.entries()) {
      if (this.#taken.has(index) || !matchesPattern(event, pattern)) continue;
      this.#taken.add(index);
      return event;
    }
    return undefined;
  }

  #describeMiss(pattern: EventPattern | undefined, timeoutMs: number): string {
    const wanted = pattern === undefined ? 'any event' : `an event matching ${inspect(pattern, { depth: 6, breakLength: Infinity })}`;
    const head = `Expected ${wanted} for user ${this.userId} within ${timeoutMs} ms`;
    if (this.#events.length === 0) return `${head}; no event arrived since the recorder started.`;
    const first = Math.max(0, this.#events.length - LISTED);
    const lines = this.#events.slice(first).map((event, offset) => {
      const taken = this.#taken.has(first + offset) ? ' (taken by an earlier next())' : '';
      return `  ${describeEvent(event)}${taken}`;
    });
    const earlier = first > 0 ? [`  ... and ${first} earlier`] : [];
    return [`${head}; these arrived since the recorder started (${this.#events.length}):`, ...earlier, ...lines].join('\n');
  }
}

/** `#12 message {"message":{"content":"<p>ping</p>",...}}`, cut to a line. */
function describeEvent(event: DeliveredEvent): string {
  const { id, type, ...rest } = event;
  const body = JSON.stringify(rest);
  const shown = body.length > SHOWN_CHARACTERS ? `${body.slice(0, SHOWN_CHARACTERS)}...` : body;
  return `#${id} ${type} ${shown}`;
}

export function matchesPattern(event: RecordedEvent, pattern: EventPattern | undefined): boolean {
  if (pattern === undefined) return true;
  if (typeof pattern === 'function') return pattern(event);
  return matches(event, pattern);
}

function matches(value: unknown, pattern: unknown): boolean {
  if (typeof pattern === 'function') return Boolean((pattern as (value: unknown) => unknown)(value));
  if (pattern instanceof RegExp) {
    pattern.lastIndex = 0;
    return typeof value === 'string' && pattern.test(value);
  }
  if (Array.isArray(pattern)) {
    return Array.isArray(value) && value.length === pattern.length && pattern.every((item, index) => matches(value[index], item));
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (value === null || typeof value !== 'object') return false;
    return Object.entries(pattern).every(([key, expected]) => matches((value as Record<string, unknown>)[key], expected));
  }
  return Object.is(value, pattern);
}
