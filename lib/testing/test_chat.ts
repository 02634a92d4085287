// A parley server for tests (createTestChat): a database in memory built from a fixture, the test
// clock driving its time and timers, snapshots of the whole database restored in a millisecond or
// two, event recorders, and a real HTTP address for clients in other processes.
//
// A restore opens the snapshot's bytes as a new database and builds a new server on it, behind
// the same object: prepared statements, caches, the event hub and rate limits all start again as
// they would on a server that never ran the test since the snapshot.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { CONTEXT, contextOf, type Ctx } from '../context.js';
import type { DeliveredEvent } from '../events/event.js';
import { answerClientError } from '../http/client_error.js';
import { createChatServer, type ChatOptions, type ChatServer } from '../index.js';
import { Attachments, type Attachment, type SubscribeOptions } from './attachments.js';
import { markClock, rewindClock, type ClockMark, type TestClock } from './clock.js';
import { buildFixture, dropSetUpEvents, type ChatFixture, type FixtureAccount, type FixtureChannelInfo } from './fixture.js';
import type { EventRecorder } from './recorder.js';

/** The whole state of a TestChat at one moment, for restore(). */
export interface ChatSnapshot {
  /** Its size: the serialized database. */
  readonly byteLength: number;
  /** The test clock's time when it was taken. */
  readonly time: number;
}

interface SnapshotState {
  readonly chat: TestChat;
  readonly bytes: Buffer;
  readonly clock: ClockMark;
  readonly attachments: ReadonlyMap<Attachment, unknown>;
}

const snapshots = new WeakMap<ChatSnapshot, SnapshotState>();

/** The options of a server on the test clock, which a restore builds again. */
export type ServerOptions = ChatOptions & Required<Pick<ChatOptions, 'clock' | 'timers'>>;

export class TestChat<U extends string = string, C extends string = string> implements ChatServer {
  readonly clock: TestClock;
  readonly options: ServerOptions;
  /** The fixture's users by key, with their API keys. */
  readonly users: Readonly<Record<U, FixtureAccount>>;
  /** The fixture's channels by name. */
  readonly channels: Readonly<Record<C, FixtureChannelInfo>>;
  readonly handler: ChatServer['handler'];
  readonly api: ChatServer['api'];
  readonly admin: ChatServer['admin'];
  readonly events: ChatServer['events'];
  /** The current server's notification subscription (a subscription lasts until the next restore()). */
  readonly notifications: ChatServer['notifications'];
  /** chat.transaction on the current server (docs/transactions.md). */
  readonly transaction: ChatServer['transaction'];
  #server: ChatServer;
  #db: Database.Database;
  readonly #attachments: Attachments;
  #listening: http.Server | undefined;
  #url: string | undefined;
  #closed = false;

  private constructor(db: Database.Database, clock: TestClock, options: ServerOptions, users: Record<U, FixtureAccount>, channels: Record<C, FixtureChannelInfo>) {
    this.#db = db;
    this.clock = clock;
    this.options = options;
    this.users = users;
    this.channels = channels;
    this.#server = createChatServer(db, options);
    this.#attachments = new Attachments(() => this.#server);
    // Forwarding functions, so that a test may keep `chat.api.messages.send` across restores.
    this.handler = (req, res, next) => this.#server.handler(req, res, next);
    this.api = forwardGroups(this.#server.api, () => this.#server.api);
    this.admin = forwardFunctions(this.#server.admin, () => this.#server.admin);
    this.notifications = { subscribe: (listener) => this.#server.notifications.subscribe(listener) };
    this.transaction = (fn) => this.#server.transaction(fn);
    this.events = {
      subscribe: (userId: number, listener: (event: DeliveredEvent) => void, options?: SubscribeOptions) => {
        this.#open();
        return this.#attachments.subscribe(userId, listener, options);
      },
    };
  }

  /** A chat on a new database in memory holding `fixture` (createTestChat). */
  static async build(fixture: ChatFixture, clock: TestClock, options: ServerOptions): Promise<TestChat> {
    const chat = new TestChat(new Database(':memory:'), clock, options, {}, {});
    try {
      const built = await buildFixture(contextOf(chat), chat, fixture);
      Object.assign(chat.users, built.users);
      Object.assign(chat.channels, built.channels);
      await fixture.setup?.(chat, built);
      // Unless setup() attached a subscriber, nobody received the set-up's events or ever will.
      if (chat.#attachments.size === 0) dropSetUpEvents(contextOf(chat));
    } catch (error) {
      await chat.close();
      throw error;
    }
    return chat;
  }

  /** The server's context, for parley's own tests (contextOf). */
  get [CONTEXT](): Ctx {
    return contextOf(this.#server);
  }

  /** The database of the current generation: a new one after each restore(). */
  get db(): Database.Database {
    return this.#db;
  }

  /** The address listen() gave, e.g. http://127.0.0.1:40321. */
  get url(): string | undefined {
    return this.#url;
  }

  /** Records `user`'s events from now on (of `eventTypes` only, when given). */
  recorder(user: FixtureAccount | number, options: { eventTypes?: readonly string[] } = {}): EventRecorder {
    this.#open();
    return this.#attachments.recorder(typeof user === 'number' ? user : user.user_id, options.eventTypes);
  }

  /** The whole database, the clock, subscriptions and recorders, as they are now. Outside a transaction. */
  snapshot(): ChatSnapshot {
    this.#open();
    if (this.#db.inTransaction) throw new Error('snapshot() inside a transaction');
    // Polls recorded on this tick are part of the state.
    contextOf(this.#server).events.flushPolls();
    const bytes = this.#db.serialize();
    const snapshot: ChatSnapshot = { byteLength: bytes.byteLength, time: this.clock.now() };
    snapshots.set(snapshot, { chat: this, bytes, clock: markClock(this.clock), attachments: this.#attachments.mark() });
    return snapshot;
  }

  /**
   * Back to `snapshot`: its database on a new server, its time, and the subscriptions and recorders
   * made before it (from its newest event on); those made since end, and waiting long-polls are
   * answered. Call it between tests, not while requests are under way.
   */
  restore(snapshot: ChatSnapshot): void {
    this.#open();
    const state = snapshots.get(snapshot);
    if (state?.chat !== this) throw new Error('restore() takes a snapshot taken by this chat');
    const db = new Database(state.bytes);
    const [oldServer, oldDb] = [this.#server, this.#db];
    // The old server's timers go with it; rewinding the clock first would keep them.
    const closed = oldServer.close();
    rewindClock(this.clock, state.clock);
    this.#db = db;
    this.#server = createChatServer(db, this.options);
    this.#attachments.restore(state.attachments);
    // After the polls its waiters recorded on closing are written (a setImmediate, lib/events/hub.ts).
    closed.then(
      () => setImmediate(() => oldDb.close()),
      (error: unknown) => contextOf(oldServer).logger.warn('closing the server a restore replaced failed', { error: String(error) }),
    );
  }

  /**
   * Serves the chat on a real address for clients in other processes (python-zulip-api, zulip-js,
   * a bot under test); it stays across restores. Resolves to the address and its `url`.
   */
  async listen(port = 0, host = '127.0.0.1'): Promise<AddressInfo & { url: string }> {
    this.#open();
    if (this.#listening !== undefined) throw new Error('This chat is already listening');
    const server = http.createServer((req, res) => this.handler(req, res));
    server.on('clientError', answerClientError);
    this.#listening = server;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
    } catch (error) {
      this.#listening = undefined;
      throw error;
    }
    const address = server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.#url = `http://${shown}:${address.port}`;
    return { ...address, url: this.#url };
  }

  /** A zuliprc for `user` at the listen() address, as python-zulip-api and Zulip Terminal read it. */
  zuliprc(user: FixtureAccount): string {
    if (this.#url === undefined) throw new Error('zuliprc() needs the address of listen()');
    return `[api]\nemail=${user.email}\nkey=${user.api_key}\nsite=${this.#url}\n`;
  }

  /** Ends recorders and subscriptions, the server, its address and its database. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#attachments.endAll('the chat was closed');
    await this.#server.close();
    const listening = this.#listening;
    if (listening !== undefined) {
      const stopped = new Promise<void>((resolve) => listening.close(() => resolve()));
      listening.closeAllConnections();
      await stopped;
    }
    this.#db.close();
  }

  #open(): void {
    if (this.#closed) throw new Error('This chat is closed');
  }
}

type Functions = Record<string, (...args: never[]) => unknown>;

/** An object of functions that call the same-named function of `current()` at each call. */
function forwardFunctions<T extends object>(shape: T, current: () => T): T {
  const forwarded: Record<string, unknown> = {};
  for (const name of Object.keys(shape)) {
    forwarded[name] = (...args: unknown[]) => ((current() as unknown as Functions)[name] as (...a: unknown[]) => unknown)(...args);
  }
  return forwarded as T;
}

function forwardGroups<T extends object>(shape: T, current: () => T): T {
  const forwarded: Record<string, unknown> = {};
  for (const [group, functions] of Object.entries(shape)) {
    forwarded[group] = forwardFunctions(functions as object, () => (current() as Record<string, object>)[group]!);
  }
  return forwarded as T;
}
