// The organizations a host has open, each its own database and server: opened on first use (the
// database migrated as it opens), kept while anything uses it, closed once idle or to make room
// (least recently used first), and opened again when one of its deliveries comes due, so that an
// idle organization's emails and pushes still leave on time.
import { contextOf, type Ctx } from '../context.js';
import { deliveryRunner } from '../deliveries/runner.js';
import { configureRealm, getRealm } from '../domain/realm.js';
import type { Logger } from '../logger.js';
import { notificationListenerCount } from '../notifications/hook.js';
import type { Database } from '../store/db.js';
import type { TimerHandle, Timers } from '../timers.js';

/** What the registry needs of a server: ChatServer is one (lib/index.ts). */
export interface HostedServer {
  close(): Promise<void>;
}

export interface RegistryOptions<S extends HostedServer> {
  /** The organization's database, or undefined when there is none. */
  open(name: string): Database | undefined;
  /** A server on an organization's database, its URL given. */
  serve(db: Database, name: string, url: string): S;
  url(name: string): string;
  maxOpen: number;
  idleMs: number;
  clock: () => number;
  timers: Timers;
  logger: Logger;
}

interface Entry<S> {
  name: string;
  db: Database;
  server: S;
  ctx: Ctx;
  lastUsed: number;
  /** HTTP requests and pinned uses under way. */
  uses: number;
}

/** A closed organization comes back this long after its next delivery is due at the earliest. */
const REOPEN_MIN_MS = 1000;

export class Organizations<S extends HostedServer> {
  readonly #options: RegistryOptions<S>;
  /** Open organizations, least recently used first (a Map keeps insertion order). */
  readonly #open = new Map<string, Entry<S>>();
  /** Organizations being closed: a use waits for the close, then opens a fresh server. */
  readonly #closing = new Map<string, Promise<void>>();
  /** Closed organizations with a delivery due, and the timer that opens them for it. */
  readonly #due = new Map<string, TimerHandle>();
  readonly #sweep: TimerHandle;
  #closed = false;

  constructor(options: RegistryOptions<S>) {
    this.#options = options;
    this.#sweep = options.timers.every(Math.max(1000, Math.min(options.idleMs / 2, 60_000)), () => this.closeIdle());
  }

  /** The names open now, least recently used first. */
  get openNames(): string[] {
    return [...this.#open.keys()];
  }

  /**
   * The organization's server, opened if needed (undefined when there is no such organization),
   * counted as in use until `release` is called. A promise only while the organization is being
   * closed: the use waits for the close, then opens a fresh server.
   */
  acquire(name: string): S | undefined | Promise<S | undefined> {
    const closing = this.#closing.get(name);
    if (closing !== undefined) return closing.then(() => this.acquire(name));
    const entry = this.#entry(name);
    if (entry === undefined) return undefined;
    entry.uses += 1;
    return entry.server;
  }

  /** Ends a use that `acquire` began. */
  release(name: string): void {
    const entry = this.#open.get(name);
    if (entry === undefined) return;
    entry.uses = Math.max(0, entry.uses - 1);
    entry.lastUsed = this.#options.clock();
  }

  /** The organization's server, opened if needed, without counting a use (the application's own calls). */
  async get(name: string): Promise<S | undefined> {
    for (let closing = this.#closing.get(name); closing !== undefined; closing = this.#closing.get(name)) await closing;
    return this.#entry(name)?.server;
  }

  /** Closes every organization idle for idleMs (nothing in use, waiting or being sent). */
  closeIdle(): Promise<void> {
    const now = this.#options.clock();
    const idle = [...this.#open.values()].filter((entry) => now - entry.lastUsed >= this.#options.idleMs && this.#idle(entry));
    return Promise.all(idle.map((entry) => this.#close(entry))).then(() => undefined);
  }

  /** Closes the organization now if nothing uses it (whenever it was last used). */
  closeIdleNow(name: string): Promise<void> {
    const entry = this.#open.get(name);
    return entry !== undefined && this.#idle(entry) ? this.#close(entry) : Promise.resolve();
  }

  /** Closes every organization and stops the timers. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#sweep.cancel();
    for (const timer of this.#due.values()) timer.cancel();
    this.#due.clear();
    await Promise.all([...this.#open.values()].map((entry) => this.#close(entry)));
    await Promise.all(this.#closing.values());
  }

  #entry(name: string): Entry<S> | undefined {
    if (this.#closed) throw new Error('the host is closed');
    const entry = this.#open.get(name);
    const now = this.#options.clock();
    if (entry !== undefined) {
      // Most recently used last.
      this.#open.delete(name);
      this.#open.set(name, entry);
      entry.lastUsed = now;
      return entry;
    }
    const opened = this.#openEntry(name, now);
    if (opened !== undefined) this.#makeRoom(opened);
    return opened;
  }

  #openEntry(name: string, now: number): Entry<S> | undefined {
    const db = this.#options.open(name);
    if (db === undefined) return undefined;
    this.#due.get(name)?.cancel();
    this.#due.delete(name);
    const url = this.#options.url(name);
    let server: S;
    try {
      server = this.#options.serve(db, name, url);
    } catch (error) {
      db.close();
      throw error;
    }
    const ctx = contextOf(server);
    // The organization URL is how the host reaches it, whatever the database said before.
    if (getRealm(ctx).url !== url) configureRealm(ctx, { url });
    const entry: Entry<S> = { name, db, server, ctx, lastUsed: now, uses: 0 };
    this.#open.set(name, entry);
    return entry;
  }

  /** Over maxOpen, closes the least recently used organizations that nothing uses (never the one just opened). */
  #makeRoom(opened: Entry<S>): void {
    let excess = this.#open.size - this.#options.maxOpen;
    for (const entry of this.#open.values()) {
      if (excess <= 0) return;
      if (entry === opened || !this.#idle(entry)) continue;
      void this.#close(entry);
      excess -= 1;
    }
  }

  #idle(entry: Entry<S>): boolean {
    const { ctx } = entry;
    return entry.uses === 0 && ctx.events.waiterCount === 0 && notificationListenerCount(ctx) === 0 && !(deliveryRunner(ctx)?.busy ?? false);
  }

  #close(entry: Entry<S>): Promise<void> {
    if (this.#open.get(entry.name) !== entry) return this.#closing.get(entry.name) ?? Promise.resolve();
    this.#open.delete(entry.name);
    const nextDue = deliveryRunner(entry.ctx)?.nextDueAt();
    const closing = (async () => {
      try {
        await entry.server.close();
      } catch (error) {
        this.#options.logger.error('organization did not close cleanly', { organization: entry.name, error: String(error) });
      } finally {
        entry.db.close();
        this.#closing.delete(entry.name);
      }
      if (nextDue !== undefined && !this.#closed) this.#reopenAt(entry.name, nextDue);
    })();
    this.#closing.set(entry.name, closing);
    return closing;
  }

  /** Opens a closed organization when its next delivery comes due; it closes again once idle. */
  #reopenAt(name: string, dueAt: number): void {
    const wait = Math.max(REOPEN_MIN_MS, dueAt - this.#options.clock());
    this.#due.get(name)?.cancel();
    this.#due.set(
      name,
      this.#options.timers.after(wait, () => {
        this.#due.delete(name);
        if (this.#closed || this.#open.has(name)) return;
        void Promise.resolve()
          .then(() => this.acquire(name))
          .then((server) => server !== undefined && this.release(name))
          .catch((error: unknown) => this.#options.logger.error('organization could not be opened for its deliveries', { organization: name, error: String(error) }));
      }),
    );
  }
}
