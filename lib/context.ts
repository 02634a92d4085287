// The context every domain function receives: the store, the injected clock, random source and
// logger, the resolved options, the event hub, and `tx`, the one way to run a write transaction.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Database } from './store/db.js';
import { Store } from './store/db.js';
import { selectCacheVersion, type CacheName } from './store/cache_version.js';
import type { EventHub } from './events/hub.js';
import type { EventOptions } from './events/event.js';
import { jsonLogger, type Logger } from './logger.js';
import type { TrustProxy } from './http/client_address.js';
import type { Checkpoints } from './store/checkpoints.js';
import { nodeTimers, type Timers } from './timers.js';
import type { EmailOptions } from './mail/mailer.js';
import type { AccountOptions } from './accounts/options.js';
import type { ChatNotification } from './notifications/notification.js';
import { Transactions } from './transactions.js';

export interface PushOptions {
  /** Base URL of the push bouncer, e.g. https://push.zulipchat.com. Push is off without it. */
  bouncerUrl?: string | undefined;
  serverId?: string | undefined;
  serverKey?: string | undefined;
  /** The fetch used to reach the bouncer (node-fetch by default). */
  fetch?: typeof import('node-fetch').default;
  /** Per-request timeout in ms (Zulip: 15 s). */
  timeoutMs?: number;
  /** Delays in ms between attempts at a bouncer request (a device registration, a notification). */
  retryDelaysMs?: number[];
  /** Zulip's PUSH_NOTIFICATION_REDACT_CONTENT: notifications say "New message" instead of the content. */
  redactContent?: boolean;
}

export interface RateLimitOptions {
  /** Requests per minute per user; 0 or undefined turns limiting off. */
  requestsPerMinute?: number;
  /** Failed authentications (API keys; separately, passwords) per minute per address. */
  authAttemptsPerMinute?: number;
  /** Failed password logins per account per 30 minutes (Zulip's authenticate_by_username: 5); 0 turns it off. */
  loginFailuresPerAccount?: number;
}

// The domain reads the upload limit's default from here: it does not import lib/http.
export { DEFAULT_UPLOAD_BYTES } from './http/body.js';

export interface LimitOptions {
  /** Largest accepted request body other than uploads, in bytes. */
  bodyBytes?: number;
  /** Largest accepted multipart upload, in bytes (default DEFAULT_UPLOAD_BYTES). */
  uploadBytes?: number;
  /** How long a request body may take to arrive, in ms (then 408 REQUEST_TIMEOUT). */
  bodyTimeoutMs?: number;
  /** Largest accepted custom emoji upload, in bytes (default 1 MiB; Zulip: MAX_EMOJI_FILE_SIZE_MIB, 5 MiB). */
  emojiBytes?: number;
  /** Active bots a user who is not an administrator may own (default 10; Zulip has no such limit). */
  botsPerUser?: number;
  /** Characters of keys and values one user's /bot_storage may hold (Zulip: USER_STATE_SIZE_LIMIT, 10,000,000). */
  botStorageCharacters?: number;
  /** Where POST /user_uploads spools a file while it arrives (default: the OS's temporary directory). */
  spoolDir?: string;
}

export interface ImageProxyOptions {
  /** The key that signs proxy URLs (Zulip's CAMO_KEY); by default made once and kept in the database. */
  key?: string | Buffer;
  /** The fetch used to reach image hosts (node-fetch by default). */
  fetch?: typeof import('node-fetch').default;
  /** How long fetching one image may take, headers and body, in ms. */
  timeoutMs?: number;
  /** Largest image passed on, in bytes. */
  maxBytes?: number;
  /** Lets the proxy reach loopback, private and link-local addresses (tests, intranets). Off by default. */
  allowPrivateAddresses?: boolean;
  /** Images fetched at once, overall (default 32); one more is answered 503 IMAGE_PROXY_BUSY. */
  maxConcurrentFetches?: number;
  /** Images fetched at once for one client address (default 8); one more is answered 429. */
  maxConcurrentFetchesPerAddress?: number;
}

/** Web Push: notifications to browsers whose parley tab is closed (lib/notifications/web_push.ts). */
export interface WebPushOptions {
  /**
   * The VAPID subject push services may contact about this server (an https: URL or a mailto:
   * address). Default: the organization's URL when it is https:, else mailto: the first owner.
   */
  subject?: string;
  /** The fetch used to reach push services (node-fetch by default). */
  fetch?: typeof import('node-fetch').default;
  /** How long one request to a push service may take, in ms (default 10,000). */
  timeoutMs?: number;
  /** The waits between attempts at a notification a push service did not take (default 1 s, 5 s, 30 s, 2 min, 10 min). */
  retryDelaysMs?: number[];
  /** How long a push service keeps a notification for a browser that is offline, in seconds (default one day). */
  ttlSeconds?: number;
  /** Lets subscriptions name loopback, private and link-local push services (tests, intranets). Off by default. */
  allowPrivateAddresses?: boolean;
}

/** Outgoing webhook bots' requests (lib/integrations/outgoing_delivery.ts). */
export interface OutgoingWebhookOptions {
  /** Lets outgoing webhooks reach loopback, private and link-local addresses (tests, intranets). Off by default. */
  allowPrivateAddresses?: boolean;
  /** How long one request may take, the response's body included, in ms (Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS: 10 s). */
  timeoutMs?: number;
  /** Waits in ms before each retry after a timeout, a connection error or a 5xx (Zulip's MAX_REQUEST_RETRIES: 3 retries). */
  retryDelaysMs?: number[];
  /** Largest response body read, in bytes; a longer one fails the request (default 1 MiB). */
  maxResponseBytes?: number;
  /** Requests to one bot under way at once in this server (default 4); more wait their turn. */
  maxConcurrentPerBot?: number;
  /** The fetch used to reach bots' servers (node-fetch by default). */
  fetch?: typeof import('node-fetch').default;
}
/**
 * Who the embedding application's `authenticate` hook says a request comes from: a user id, `{
 * userId, bot: true }` for a bot (a bot's id alone is refused), or nothing.
 */
export type HostSignIn = number | { userId: number; bot?: boolean | undefined } | null | undefined;

export interface ChatOptions {
  /** Current time in milliseconds since the epoch. */
  clock?: () => number;
  /**
   * The timers background work waits on (lib/timers.ts): Node's by default. A test kit passes
   * timers that follow its own `clock`, so that moving the clock fires them.
   */
  timers?: Timers;
  /** Cryptographically strong random bytes. */
  random?: (size: number) => Buffer;
  logger?: Logger;
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * How long, in ms, a write waits for another connection's write lock before the request is
   * answered 503 DATABASE_BUSY (SQLite's busy_timeout; default 5000).
   */
  busyTimeoutMs?: number;
  /**
   * Used when the database has no organization yet and one is created on first start.
   * emailAddressVisibility: who sees new users' real emails (Zulip's values, 1 everyone ...
   * 5 moderators); default 3, administrators only.
   */
  realm?: { name?: string; url?: string; emailAddressVisibility?: 1 | 2 | 3 | 4 | 5 };
  /**
   * Who may create bots (Zulip's bot_creation_policy): 1 members and above (default), 2 only
   * administrators create generic bots, 3 only administrators create bots.
   */
  botCreationPolicy?: 1 | 2 | 3;
  events?: EventOptions;
  push?: PushOptions | undefined;
  /** How emails leave (lib/mail/mailer.ts); without a transport or send function email is off. */
  email?: EmailOptions | undefined;
  /**
   * Receives every notification parley decides on, after its message's transaction commits
   * (docs/notifications.md); a throw or rejection is retried with back-off.
   */
  notify?: ((notification: ChatNotification) => void | Promise<void>) | undefined;
  rateLimit?: RateLimitOptions;
  /**
   * Reverse proxies whose X-Forwarded-For is believed (Express's "trust proxy"): a number of hops,
   * or the proxies' addresses and subnets. Unset: the socket's peer is the client address.
   */
  trustProxy?: TrustProxy;
  limits?: LimitOptions;
  /**
   * Images from other hosts in messages and channel descriptions load through parley's image
   * proxy (GET /external_content/...). On by default; false renders them as links instead.
   */
  imageProxy?: ImageProxyOptions | false;
  /** How messages reach outgoing webhook bots' servers (docs/integrations.md#outgoing-webhooks). */
  outgoingWebhooks?: OutgoingWebhookOptions;
  /**
   * Channels with at least this many subscribers store a message without a row per subscriber:
   * the subscribers have it by their subscription periods, so a message costs the same in a
   * channel of 100,000 as in one of 1,000 (docs/operations.md, "Large organizations"). A smaller
   * channel's message gets one user_message row per recipient. Default 250.
   */
  largeChannelSubscribers?: number;
  /**
   * Serves parley's web client at `/` (its files under `/web/`): off by default, on in `parley
   * serve`. `{ dir }` serves a build from another directory. See docs/web-client.md.
   */
  webClient?: boolean | { dir: string };
  /**
   * Web Push to the browsers whose users turned it on (docs/notifications.md): on by default;
   * false turns it off (GET /web_push/key answers PUSH_SERVICE_NOT_CONFIGURED).
   */
  webPush?: WebPushOptions | false;
  /**
   * The embedding application's own sign-in (docs/accounts.md): maps a request (its session
   * cookie, a header) to a parley user, or to nothing. Every route accepts a request it names an
   * active user for, exactly as it would that user's API key (rate limits, deactivation and roles
   * apply), and parley's web client opens signed in. It is asked only for a request without an
   * Authorization header or a parley session; nothing named falls back to HTTP Basic (a 401).
   * May answer a promise (a session store): only requests that reach it wait.
   */
  authenticate?: (request: IncomingMessage) => HostSignIn | Promise<HostSignIn>;
  /** Who may join and who may bring others in (lib/accounts/options.ts, docs/accounts.md). */
  accounts?: AccountOptions | undefined;
}

export interface Ctx {
  readonly db: Database;
  readonly store: Store;
  readonly clock: () => number;
  /** Timers for background work (retries, batching, heartbeats): options.timers or Node's. */
  readonly timers: Timers;
  readonly random: (size: number) => Buffer;
  readonly logger: Logger;
  readonly options: ChatOptions;
  readonly events: EventHub;
  /** WAL checkpoints, in a worker thread once this server has committed enough (lib/store/checkpoints.ts). */
  readonly checkpoints: Checkpoints;
  /**
   * Runs fn in one IMMEDIATE transaction; wakes event waiters on commit. Called inside another
   * transaction, fn joins it: a request is all or nothing (the route runner opens a transactional
   * route's transaction, in which its handler's runs without a savepoint). Inside a transaction
   * the host application opened, fn is a savepoint, released after the host's commit
   * (lib/transactions.ts). SQLITE_BUSY (the write lock not obtained within the busy timeout)
   * becomes DATABASE_BUSY.
   */
  tx<T>(fn: () => T): T;
  /**
   * Runs fn, which only reads, in one read transaction: one snapshot of the database for all its
   * reads (other processes' commits in between are not seen), without the write lock, so other
   * connections' readers and writers go on. Inside a transaction it runs fn in that one.
   */
  read<T>(fn: () => T): T;
  /** chat.transaction: the host's fn, its writes and chat calls, as one transaction (lib/transactions.ts). */
  transaction<T>(fn: () => T): T;
  /** Seconds since the epoch, from the injected clock. */
  now(): number;
  /** A value kept for the server's lifetime (the emoji data file; the holder of the user rows last read), made on first use; `key` names it. */
  once<T>(key: symbol, compute: () => T): T;
  /**
   * A value made from the rows behind cache_version `name` (lib/store/cache_version.ts), kept until
   * a write to them by any process changes the version; one point read per call checks it. `load`
   * gets the value it replaces, to reuse what still holds, and the version it is made under. Safe
   * inside a transaction: a version its writes made is never reached by another commit if it rolls back.
   */
  cached<T>(name: CacheName, load: (previous: T | undefined, version: number) => T): T;
}

export function createContext(
  db: Database,
  options: ChatOptions,
  makeHub: (ctx: Ctx) => EventHub,
  checkpoints: Checkpoints,
): Ctx {
  const store = new Store(db);
  const transactions = new Transactions(db, () => {
    ctx.events.committed();
    checkpoints.committed();
  });
  const clock = options.clock ?? Date.now;
  const fixed = new Map<symbol, unknown>();
  const kept = new Map<CacheName, { version: number; value: unknown }>();
  const ctx: Ctx = {
    db,
    store,
    clock,
    timers: options.timers ?? nodeTimers,
    random: options.random ?? ((size) => randomBytes(size)),
    logger: options.logger ?? jsonLogger,
    options,
    events: undefined as unknown as EventHub,
    checkpoints,
    tx: (fn) => transactions.run(fn),
    read: (fn) => transactions.read(fn),
    transaction: (fn) => transactions.host(fn),
    now: () => Math.floor(clock() / 1000),
    once<T>(key: symbol, compute: () => T): T {
      // Every request asks for the user rows' holder: one lookup when the value is there.
      const held = fixed.get(key);
      if (held !== undefined || fixed.has(key)) return held as T;
      const value = compute();
      fixed.set(key, value);
      return value;
    },
    cached<T>(name: CacheName, load: (previous: T | undefined, version: number) => T): T {
      const version = selectCacheVersion(store, name);
      const entry = kept.get(name);
      if (entry !== undefined && entry.version === version) return entry.value as T;
      const value = load(entry?.value as T | undefined, version);
      kept.set(name, { version, value });
      return value;
    },
  };
  (ctx as { events: EventHub }).events = makeHub(ctx);
  return ctx;
}

/** The property under which a ChatServer keeps its context: not part of the public API. */
export const CONTEXT = Symbol('parley.context');

/** The context of a ChatServer (lib/index.ts), for the tests and benchmarks that look inside it. */
export function contextOf(server: object): Ctx {
  return (server as { [CONTEXT]: Ctx })[CONTEXT];
}
