// Many organizations in one process (DESIGN.md "Many organizations"): one HTTP handler routes each
// request by host name or path to its organization's own server and database (lib/host/
// organizations.ts opens, keeps and closes them), sharing the process, its timers and its
// configuration. Nothing else is shared: a request only ever reaches the database of the
// organization its address names, so one organization's keys mean nothing in another.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCOUNT_PAGES } from '../accounts/links.js';
import type { ChatOptions } from '../context.js';
import { ApiError } from '../errors.js';
import type { NextFunction, RequestListener } from '../http/handler.js';
import { listen, type Listening } from '../http/listen.js';
import { sendError, sendJson } from '../http/respond.js';
import { webClientFiles } from '../http/web_client.js';
import { jsonLogger, type Logger } from '../logger.js';
import type { Database } from '../store/db.js';
import { nodeTimers } from '../timers.js';
import { organizationAddresses } from './addresses.js';
import { Organizations, type HostedServer } from './organizations.js';

export interface ChatHostOptions {
  /**
   * Each organization's URL, `{org}` standing for its name: `https://{org}.chat.example.com`
   * routes by host name (acme.chat.example.com is acme's, as Zulip's subdomains),
   * `https://chat.example.com/org/{org}` by path (/org/acme/api/v1/... is acme's /api/v1/...).
   * It is also each organization's `realm.url`, set as it opens.
   */
  url: string;
  /**
   * The database of the organization named `name` (3 to 63 lowercase letters, digits and dashes),
   * or undefined when there is none. The host migrates it, and closes it when the organization
   * goes idle. organizationsIn(dir) opens `<dir>/<name>.db`.
   */
  open(name: string): Database | undefined;
  /**
   * What every organization's server is created with: clock, timers, logger, push, email, rate
   * limits. `realm.url` is the host's; `webClient` is served once for all of them; `authenticate`
   * is refused here (a user id is a different person in each organization): give it in
   * organizationOptions.
   */
  options?: ChatOptions;
  /**
   * What differs by organization, over `options`: a notify hook that knows whose notifications it
   * gets, an `authenticate` hook that answers the ids of this organization's users.
   */
  organizationOptions?: (name: string) => ChatOptions;
  /** Organizations kept open at most (default 100): the least recently used idle one is closed to make room. */
  maxOpen?: number;
  /**
   * How long an organization stays open after its last use (default 10 minutes). One with a
   * waiting long-poll, an event or notification subscriber, or a delivery under way is in use.
   */
  idleMs?: number;
  /** Serves parley's web client at each organization's address (see ChatOptions.webClient). */
  webClient?: boolean | { dir: string };
}

export interface Host<S> {
  /** A Node request listener, also Connect/Express middleware (addresses of no organization go to next()). */
  handler: RequestListener;
  /** The organization's URL. */
  url(name: string): string;
  /**
   * The organization's server for the application's own calls (chat.api, chat.transaction,
   * chat.admin), opened if needed; undefined when there is no such organization. It stays valid
   * while it is used: ask again for each piece of work rather than keeping it (an idle
   * organization is closed).
   */
  organization(name: string): Promise<S | undefined>;
  /** The organizations open now, least recently used first. */
  openOrganizations(): string[];
  /**
   * Opens each organization once: its database migrated, its pending deliveries resumed; then
   * closes those with nothing under way (`parley serve --orgs` does this at start).
   */
  visit(names: Iterable<string>): Promise<void>;
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Stops listening and closes every organization (and its database). */
  close(): Promise<void>;
}

/** An organization's log entries name it. */
function tagged(logger: Logger, organization: string): Logger {
  return {
    info: (message, fields) => logger.info(message, { organization, ...fields }),
    warn: (message, fields) => logger.warn(message, { organization, ...fields }),
    error: (message, fields) => logger.error(message, { organization, ...fields }),
  };
}

/** Zulip's answer for an address of no organization (InvalidSubdomainError). */
const noOrganization = (): ApiError => new ApiError('NONEXISTENT_SUBDOMAIN', 'Invalid subdomain');

/**
 * The host over `serve`, which makes one organization's server (lib/index.ts's createChatHost
 * passes createChatServer).
 */
export function createHost<S extends HostedServer & { handler: RequestListener }>(
  options: ChatHostOptions,
  serve: (db: Database, options: ChatOptions) => S,
): Host<S> {
  const addresses = organizationAddresses(options.url);
  const base = options.options ?? {};
  // A user id means a different person in each organization's database: the application says
  // whose, organization by organization.
  if (base.authenticate !== undefined) {
    throw new TypeError('options.authenticate names a user of one organization: give it per organization, in organizationOptions(name)');
  }
  const logger = base.logger ?? jsonLogger;
  const organizations = new Organizations<S>({
    open: options.open,
    serve: (db, name, url) => {
      const own = { ...base, ...options.organizationOptions?.(name) };
      return serve(db, { ...own, realm: { ...own.realm, url }, webClient: false, logger: tagged(own.logger ?? logger, name) });
    },
    url: addresses.url,
    maxOpen: options.maxOpen ?? 100,
    idleMs: options.idleMs ?? 600_000,
    clock: base.clock ?? Date.now,
    timers: base.timers ?? nodeTimers,
    logger,
  });
  const webFiles =
    options.webClient === undefined || options.webClient === false ? undefined : webClientFiles(options.webClient === true ? undefined : options.webClient.dir, ACCOUNT_PAGES);
  let listening: Listening | undefined;
  let closed = false;

  const answer = (req: IncomingMessage, res: ServerResponse, error: ApiError, next?: NextFunction): void => {
    if (next && error.code === 'NONEXISTENT_SUBDOMAIN') {
      next();
      return;
    }
    req.resume();
    sendError(res, error);
  };

  const pass = (req: IncomingMessage, res: ServerResponse, name: string, server: S | undefined, next?: NextFunction): void => {
    if (server === undefined) {
      answer(req, res, noOrganization(), next);
      return;
    }
    res.once('close', () => organizations.release(name));
    if (webFiles?.(req, res)) return;
    server.handler(req, res);
  };

  const handler: RequestListener = (req, res, next) => {
    const resolved = addresses.resolve(req.headers.host, req.url ?? '/');
    if (resolved.kind === 'redirect' && (req.method === 'GET' || req.method === 'HEAD')) {
      req.resume();
      res.writeHead(308, { Location: resolved.location, 'Content-Length': 0 });
      res.end();
      return;
    }
    if (resolved.kind !== 'organization') {
      answer(req, res, noOrganization(), next);
      return;
    }
    const { name } = resolved;
    // Where the organization is mounted stays readable (as Express keeps it): its session cookie
    // is set for its own path (lib/http/cookies.ts mountPath), not for every organization's.
    const mounted = req as IncomingMessage & { originalUrl?: string };
    mounted.originalUrl ??= req.url ?? '/';
    req.url = resolved.path;
    let acquired: S | undefined | Promise<S | undefined>;
    try {
      acquired = organizations.acquire(name);
    } catch (error) {
      failed(req, res, name, error);
      return;
    }
    if (!(acquired instanceof Promise)) {
      pass(req, res, name, acquired, next);
      return;
    }
    acquired.then(
      (server) => pass(req, res, name, server, next),
      (error: unknown) => failed(req, res, name, error),
    );
  };

  const failed = (req: IncomingMessage, res: ServerResponse, name: string, error: unknown): void => {
    logger.error('organization could not be opened', { organization: name, error: error instanceof Error ? error.message : String(error) });
    req.resume();
    sendJson(res, 500, { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
  };

  return {
    handler,
    url: addresses.url,
    organization: async (name) => organizations.get(name),
    openOrganizations: () => organizations.openNames,
    async visit(names) {
      for (const name of names) {
        if (closed) return;
        try {
          const server = await organizations.acquire(name);
          if (server !== undefined) organizations.release(name);
        } catch (error) {
          logger.error('organization could not be opened', { organization: name, error: error instanceof Error ? error.message : String(error) });
        }
        await organizations.closeIdleNow(name);
      }
    },
    async listen(port = 0, host = '127.0.0.1') {
      listening = await listen(handler, port, host);
      return listening.address;
    },
    async close() {
      closed = true;
      const open = listening;
      listening = undefined;
      await Promise.all([open?.close(), organizations.close()]);
    },
  };
}
