// createChatServer(db, options): wires the store, the event hub, the route table, the HTTP
// handler and the in-process API. The public types are exported from here.
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { buildApi, type Api } from './api.js';
import { CONTEXT, createContext, type ChatOptions, type Ctx } from './context.js';
import { authenticate } from './domain/callers.js';
import { ensureImageProxyKey } from './domain/external_content.js';
import { DELIVERY_KINDS } from './domain/delivery_kinds.js';
import { mailerOf } from './domain/email.js';
import { subscribeToNotifications, type NotificationListener } from './notifications/hook.js';
import { startDeliveries, stopDeliveries } from './deliveries/runner.js';
import { configureRealm, ensureRealm, followListeningUrl } from './domain/realm.js';
import { roleByName } from './domain/roles.js';
import { defaultFullName } from './domain/users.js';
import { ORGANIZATION_EXISTS, addUser, addUsers, type Credentials } from './domain/accounts.js';
import { deactivate, reactivate } from './domain/user_activation.js';
import { rotateApiKey } from './domain/api_keys.js';
import { sendPasswordReset, setPassword } from './accounts/passwords.js';
import { checkAccountOptions } from './accounts/permissions.js';
import { ACCOUNT_PAGES } from './accounts/links.js';
import { EventHub } from './events/hub.js';
import type { DeliveredEvent } from './events/event.js';
import { DEFAULT_LIMITS } from './http/body.js';
import { sweepStaleSpools } from './http/spool.js';
import { clientAddressResolver } from './http/client_address.js';
import { createHandler, type RequestListener } from './http/handler.js';
import { listen, type Listening } from './http/listen.js';
import { createHost, type ChatHostOptions, type Host } from './host/host.js';
import { jsonLogger } from './logger.js';
import { createRateLimiter } from './http/rate_limit.js';
import { webClientFiles } from './http/web_client.js';
import { allRoutes, routeGroups } from './routes/index.js';
import { routeRunner } from './routes/run.js';
import { credentialOf } from './routes/ways_in.js';
import type { Database } from './store/db.js';
import { backgroundCheckpoints, CheckpointThread } from './store/checkpoints.js';
import { compatibleDatabase, isLibsql, type LibsqlDatabase } from './store/libsql.js';
import { prepareDatabase } from './store/open.js';
import { selectHasUsers, selectUserByEmail } from './store/users.js';

export { ApiError, ERROR_CODES, type ErrorCode } from './errors.js';
export type { ChatOptions, PushOptions, RateLimitOptions, LimitOptions, ImageProxyOptions, WebPushOptions, OutgoingWebhookOptions, HostSignIn } from './context.js';
export type { EmailOptions, OutgoingEmail } from './mail/mailer.js';
export type { AccountOptions, RoleGroup } from './accounts/options.js';
export type { ChatNotification } from './notifications/notification.js';
export type { NotificationTrigger } from './notifications/triggers.js';
export type { Logger } from './logger.js';
export type { EventOptions } from './events/event.js';
export type { TrustProxy } from './http/client_address.js';
export type { Actor, Role, RoleName } from './domain/roles.js';
export { ROLE } from './domain/roles.js';
export type { ActorRef } from './api.js';
export type { DeliveredEvent, ChatEvent } from './events/event.js';
export type { Credentials } from './domain/accounts.js';
export type { LibsqlDatabase } from './store/libsql.js';
export { ZULIP_FEATURE_LEVEL, ZULIP_VERSION } from './domain/realm.js';
export type { ChatHostOptions } from './host/host.js';
export { organizationsIn, type OrganizationDirectory } from './host/directory.js';
export { isOrganizationName } from './host/addresses.js';

export interface NewAccount {
  email: string;
  fullName: string;
  password?: string | undefined;
  role?: 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | undefined;
  /** Creates a generic bot owned by `botOwnerId` (or by the first owner). */
  bot?: boolean | undefined;
  botOwnerId?: number | undefined;
  /** Who sees the real email (Zulip's values, 1 everyone ... 5 moderators); the organization's default when absent. */
  emailAddressVisibility?: 1 | 2 | 3 | 4 | 5 | undefined;
}

/** A user of chat.admin.addUsers: no password, no bot (docs/users.md, "Importing users"). */
export interface ImportedAccount {
  email: string;
  fullName: string;
  role?: 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | undefined;
}

export interface ChatServer {
  /** A Node request listener; also Connect/Express middleware (unknown paths go to next()). */
  handler: RequestListener;
  /** The typed in-process API: `api.<group>.<name>(actor, input)`. */
  api: Api<typeof routeGroups>;
  /**
   * Runs fn, the host application's own writes on the same database and any `chat.api` /
   * `chat.admin` calls in it, as one SQLite transaction (IMMEDIATE; a savepoint inside a
   * transaction already open) and returns its result. Every event, notification and delivery the
   * calls cause is released after the commit and never seen after a rollback (docs/transactions.md).
   * fn must be synchronous; a call that waits for I/O (an upload, a password) is refused in it.
   */
  transaction<T>(fn: () => T): T;
  /** In-process event subscription, without HTTP. */
  events: {
    subscribe(
      userId: number,
      listener: (event: DeliveredEvent) => void,
      options?: { eventTypes?: readonly string[]; afterEventId?: number; applyMarkdown?: boolean },
    ): () => void;
  };
  /**
   * Every notification parley decides on (who, why, the message and its conversation), after its
   * message's transaction commits: `subscribe(listener)` calls the listener once per notification
   * while subscribed and returns the function that unsubscribes (options.notify is the durable hook).
   */
  notifications: {
    subscribe(listener: NotificationListener): () => void;
  };
  /** Trusted set-up for the host application and the CLI: no permission checks. */
  admin: {
    /**
     * Creates the organization's first owner; refuses when the organization already has users.
     * The organization starts with the default channels general and sandbox, the owner
     * subscribed, unless `defaultChannels` is false (an application that makes its own).
     */
    initOrganization(input: {
      email: string;
      fullName?: string | undefined;
      password?: string | undefined;
      orgName?: string | undefined;
      url?: string | undefined;
      defaultChannels?: boolean | undefined;
    }): Promise<Credentials>;
    addUser(input: NewAccount): Promise<Credentials>;
    /**
     * Adds many users at once, in order (each as addUser would, joining the default channels):
     * all are checked first, and a refused one adds none. Resolves to their credentials, in order.
     */
    addUsers(input: readonly ImportedAccount[]): Promise<Credentials[]>;
    /** Deactivates a user or bot; a user's active bots go too. Returns the ids deactivated, bots first. */
    deactivateUser(userId: number): number[];
    /** Reactivates a user or bot; refuses a bot whose owner is deactivated. */
    reactivateUser(userId: number): void;
    /** A new API key for a user or bot; the old one stops working at once. */
    regenerateApiKey(userId: number): string;
    /** Sets a person's password (bots have none); their web sessions end, their API key stays. */
    setPassword(userId: number, password: string): Promise<void>;
    /** Emails an active person a password reset link (needs options.email). */
    sendPasswordReset(userId: number): void;
    /** The account with this email (as stored), if any. */
    userByEmail(email: string): { user_id: number; email: string; is_bot: boolean; is_active: boolean } | undefined;
    hasUsers(): boolean;
    /** Sets the organization URL (an operator's choice: kept from then on). */
    setOrganizationUrl(url: string): void;
    /** The organization URL becomes `url` unless someone chose one; returns the URL in force. */
    followListeningUrl(url: string): string;
  };
  options: ChatOptions;
  /** Listens on host:port (defaults 0 and 127.0.0.1) and resolves to the bound address. */
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Stops listening, ends waiting long-polls and timers. The database stays open (it is the caller's). */
  close(): Promise<void>;
}

/** Hashing a password waits: the account would be written after the transaction it was asked in. */
const PASSWORD_IN_TRANSACTION = 'an account with a password cannot be created inside a transaction (hashing it waits); create it before or after';

export function createChatServer(database: Database | LibsqlDatabase, options: ChatOptions = {}): ChatServer {
  return chatServer(database, options, {});
}

/** What a host shares among its organizations' servers (createChatHost). */
interface Shared {
  checkpoints?: CheckpointThread;
  /** The host sweeps the upload spool directory once, not each organization as it opens. */
  spoolsSwept?: boolean;
}

function chatServer(database: Database | LibsqlDatabase, options: ChatOptions, shared: Shared): ChatServer {
  // A libsql Database (the scale-out path, docs/operations.md "Beyond one machine") goes through an
  // adapter.
  checkAccountOptions(options.accounts);
  const db = compatibleDatabase(database);
  const clientAddress = clientAddressResolver(options.trustProxy);
  prepareDatabase(db, { synchronous: options.synchronous, busyTimeoutMs: options.busyTimeoutMs });
  const ctx = createContext(
    db,
    options,
    (c) => new EventHub(c),
    backgroundCheckpoints(db, {
      enabled: !isLibsql(database),
      thread: shared.checkpoints,
      onError: (error) => ctx.logger.warn('checkpoint worker failed; checkpoints run in commits again', { error: error.message }),
    }),
  );
  ensureRealm(ctx);
  ensureImageProxyKey(ctx);
  ctx.events.startGarbageCollection();
  startDeliveries(ctx, DELIVERY_KINDS);

  const runner = routeRunner(ctx);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  // Spooled uploads a killed process left behind; in the background, start-up does not wait.
  if (shared.spoolsSwept !== true) void sweepStaleSpools(limits.spoolDir ?? tmpdir(), ctx.logger);
  const apiHandler = createHandler({
    routes: allRoutes,
    authenticate: (req, route) => {
      const credential = credentialOf(ctx, req, route.waysIn);
      return credential instanceof Promise ? credential.then((found) => authenticate(ctx, found, route)) : authenticate(ctx, credential, route);
    },
    callerId: (caller) => caller.actor.id,
    precheck: runner.precheck,
    run: runner.run,
    fileBytes: (route) => route.uploadBytes?.(ctx) ?? limits.uploadBytes,
    limits,
    logger: ctx.logger,
    rateLimiter: createRateLimiter(options.rateLimit ?? {}, ctx.clock),
    clientAddress,
  });

  const handler = withWebClient(apiHandler, options.webClient);

  const api = buildApi(ctx, routeGroups, runner);

  let server: Listening | undefined;

  const admin: ChatServer['admin'] = {
    hasUsers: () => selectHasUsers(ctx.store),
    setOrganizationUrl: (url) => configureRealm(ctx, { url }),
    followListeningUrl: (url) => followListeningUrl(ctx, url),
    async initOrganization(input) {
      // It names the organization after creating the owner, across an await.
      if (db.inTransaction) throw new TypeError('initOrganization cannot run inside a transaction');
      if (admin.hasUsers()) throw new Error(ORGANIZATION_EXISTS);
      const owner = await addUser(ctx, {
        email: input.email,
        fullName: input.fullName ?? defaultFullName(input.email),
        password: input.password,
        role: 100,
        first: true,
        initialChannels: input.defaultChannels ?? true,
      });
      // Only the process that created the owner names the organization.
      configureRealm(ctx, { name: input.orgName, url: input.url });
      return owner;
    },
    async addUser(input) {
      if (input.password !== undefined && db.inTransaction) throw new TypeError(PASSWORD_IN_TRANSACTION);
      const role = roleByName(input.role ?? 'member');
      if (role === undefined) throw new Error(`Unknown role: ${input.role}`);
      return addUser(ctx, {
        email: input.email,
        fullName: input.fullName,
        password: input.password,
        role,
        botType: input.bot ? 1 : null,
        botOwnerId: input.bot ? input.botOwnerId : null,
        emailAddressVisibility: input.emailAddressVisibility,
      });
    },
    async addUsers(input) {
      const users = input.map((user, i) => {
        const role = roleByName(user.role ?? 'member');
        if (role === undefined) throw new Error(`User ${i + 1}: unknown role: ${user.role}`);
        return { email: user.email, fullName: user.fullName, role };
      });
      return addUsers(ctx, users);
    },
    deactivateUser: (userId) => deactivate(ctx, userId),
    reactivateUser: (userId) => reactivate(ctx, userId, null),
    regenerateApiKey: (userId) => rotateApiKey(ctx, userId),
    setPassword: (userId, password) => setPassword(ctx, userId, password),
    sendPasswordReset: (userId) => sendPasswordReset(ctx, userId),
    userByEmail(email) {
      const row = selectUserByEmail(ctx.store, email.trim());
      return row && { user_id: row.id, email: row.email, is_bot: row.bot_type !== null, is_active: row.is_active === 1 };
    },
  };

  const chat: ChatServer & { [CONTEXT]: Ctx } = {
    handler,
    api,
    transaction: (fn) => ctx.transaction(fn),
    events: { subscribe: (userId, listener, opts) => ctx.events.subscribe(userId, listener, opts) },
    notifications: { subscribe: (listener) => subscribeToNotifications(ctx, listener) },
    admin,
    options,
    [CONTEXT]: ctx,
    async listen(port = 0, host = '127.0.0.1') {
      const listening = await listen(handler, port, host);
      server = listening;
      return listening.address;
    },
    async close() {
      ctx.events.close();
      await stopDeliveries(ctx);
      mailerOf(ctx)?.close();
      await ctx.checkpoints.close();
      const open = server;
      server = undefined;
      await open?.close();
    },
  };
  return chat;
}

/** Many organizations in one process, each its own database and server (docs/organizations.md). */
export type ChatHost = Host<ChatServer>;

export function createChatHost(options: ChatHostOptions): ChatHost {
  // One WAL checkpoint thread for every organization (each thread costs about 8 MB).
  const checkpoints = new CheckpointThread({ endWhenUnused: false });
  void sweepStaleSpools(options.options?.limits?.spoolDir ?? tmpdir(), options.options?.logger ?? jsonLogger);
  const host = createHost(options, (db, serverOptions) => chatServer(db, serverOptions, { checkpoints, spoolsSwept: true }));
  return {
    ...host,
    async close() {
      await host.close();
      await checkpoints.end();
    },
  };
}

/** The API handler, behind the web client's files when they are enabled. */
function withWebClient(handler: RequestListener, option: ChatOptions['webClient']): RequestListener {
  if (option === undefined || option === false) return handler;
  const files = webClientFiles(option === true ? undefined : option.dir, ACCOUNT_PAGES);
  return (req, res, next) => {
    if (!files(req, res)) handler(req, res, next);
  };
}
