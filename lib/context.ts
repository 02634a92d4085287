// The context every domain function receives: the store, the injected clock, random source and
// logger, the resolved options, the event hub, and `tx`, the one way to run a write transaction.
import { randomBytes } from 'node:crypto';
import type { Database } from './store/db.js';
import { Store } from './store/db.js';
import type { EventHub } from './events/hub.js';

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Writes one JSON line per entry to stderr. Never given secrets: callers log ids, not keys. */
export const jsonLogger: Logger = {
  info: (message, fields) => writeLog('info', message, fields),
  warn: (message, fields) => writeLog('warn', message, fields),
  error: (message, fields) => writeLog('error', message, fields),
};

function writeLog(level: string, message: string, fields?: Record<string, unknown>): void {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\n');
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export interface EventOptions {
  /** Seconds a waiting GET /events holds before answering with a heartbeat (Zulip: 45 + 0..10). */
  heartbeatSeconds?: number;
  /** Seconds without a poll after which a queue expires (Zulip: 600). */
  queueLifespanSeconds?: number;
  /** How often, in ms, waiting polls check for events committed by other processes. */
  crossProcessPollMs?: number;
  /** How often, in ms, expired queues are removed and acknowledged events pruned. */
  gcIntervalMs?: number;
}

export interface PushOptions {
  /** Base URL of the push bouncer, e.g. https://push.zulipchat.com. Push is off without it. */
  bouncerUrl?: string;
  serverId?: string;
  serverKey?: string;
  /** The fetch used to reach the bouncer (node-fetch by default). */
  fetch?: typeof import('node-fetch').default;
  /** Per-request timeout in ms (Zulip: 15 s). */
  timeoutMs?: number;
  /** Delays in ms between retries of a device registration (network errors and 5xx). */
  retryDelaysMs?: number[];
}

export interface RateLimitOptions {
  /** Requests per minute per user; 0 or undefined turns limiting off. */
  requestsPerMinute?: number;
  /** Failed authentications and /fetch_api_key attempts per minute per address. */
  authAttemptsPerMinute?: number;
}

export interface LimitOptions {
  /** Largest accepted request body other than uploads, in bytes. */
  bodyBytes?: number;
  /** Largest accepted multipart upload, in bytes. */
  uploadBytes?: number;
  /** How long a request body may take to arrive, in ms (then 408 REQUEST_TIMEOUT). */
  bodyTimeoutMs?: number;
  /** Largest accepted custom emoji image, in bytes (Zulip: MAX_EMOJI_FILE_SIZE_MIB, 5 MiB). */
  emojiBytes?: number;
}

export interface ChatOptions {
  /** Current time in milliseconds since the epoch. */
  clock?: () => number;
  /** Cryptographically strong random bytes. */
  random?: (size: number) => Buffer;
  logger?: Logger;
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * Used when the database has no organization yet and one is created on first start.
   * emailAddressVisibility: who sees new users' real emails (Zulip's values, 1 everyone ...
   * 5 moderators); default 3, administrators only.
   */
  realm?: { name?: string; url?: string; emailAddressVisibility?: 1 | 2 | 3 | 4 | 5 };
  events?: EventOptions;
  push?: PushOptions;
  rateLimit?: RateLimitOptions;
  limits?: LimitOptions;
}

export interface Ctx {
  readonly db: Database;
  readonly store: Store;
  readonly clock: () => number;
  readonly random: (size: number) => Buffer;
  readonly logger: Logger;
  readonly options: ChatOptions;
  readonly events: EventHub;
  /** Runs fn in one IMMEDIATE transaction (a savepoint when nested); wakes event waiters on commit. */
  tx<T>(fn: () => T): T;
  /** Seconds since the epoch, from the injected clock. */
  now(): number;
}

export function createContext(db: Database, options: ChatOptions, makeHub: (ctx: Ctx) => EventHub): Ctx {
  const store = new Store(db);
  // One transaction wrapper for every call (better-sqlite3 builds a wrapper per db.transaction()).
  const runInTransaction = db.transaction((fn: () => unknown) => fn());
  const clock = options.clock ?? Date.now;
  const ctx: Ctx = {
    db,
    store,
    clock,
    random: options.random ?? ((size) => randomBytes(size)),
    logger: options.logger ?? jsonLogger,
    options,
    events: undefined as unknown as EventHub,
    tx<T>(fn: () => T): T {
      if (db.inTransaction) return runInTransaction(fn) as T;
      const result = runInTransaction.immediate(fn) as T;
      ctx.events.committed();
      return result;
    },
    now: () => Math.floor(clock() / 1000),
  };
  (ctx as { events: EventHub }).events = makeHub(ctx);
  return ctx;
}
