// The Node request listener: routes /api/v1/... with find-my-way, reads query and body,
// authenticates, decodes parameters, calls the route's handler and writes the JSON envelope.
// Works as http.createServer(handler) and as Connect/Express middleware (unknown paths go to
// next()). Knows nothing about chat: the route table and the authenticator are passed in.
import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { Actor } from '../domain/roles.js';
import { ApiError, databaseBusy } from '../errors.js';
import type { Logger } from '../logger.js';
import { checkAccess, type Method, type RequestInfo, type RouteDef } from '../routes/route.js';
import { EMPTY_BODY, hasBody, readBody, type BodyLimits, type ParsedBody } from './body.js';
import { strictest, type RateLimiter } from './rate_limit.js';
import { decodeParams } from './params.js';
import { RawResponse, sendError, sendJson, sendRaw, sendSuccess } from './respond.js';

export const API_PREFIX = '/api/v1';
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface HandlerDeps {
  routes: readonly RouteDef[];
  /**
   * Checks the Authorization header for this route; throws the ApiError to answer with.
   * `checkedAgain`: the request is authenticated again in `transaction` (a transactional route),
   * so a caller known from earlier requests may pass without confirming it is still current.
   * `identified`: the caller the same request was identified as before (a transactional route's
   * check before its body was read), which the authenticator may keep if it is still current.
   */
  authenticate(header: string | undefined, ip: string, route: RouteDef, checkedAgain: boolean, identified?: Actor): Actor;
  /**
   * Runs fn in one write transaction: a transactional route's authentication (again), access
   * checks and handler. Without it those routes are served as the others.
   */
  transaction?<T>(fn: () => T): T;
  invoke(route: RouteDef, actor: Actor, input: Record<string, unknown>, request: RequestInfo): unknown;
  /** Runs the route's `before` check (it needs the domain context, which this layer does not have). */
  before?(route: RouteDef, actor: Actor): void;
  /** The largest file a route that takes uploads accepts (its body may hold that much more). */
  fileBytes?(route: RouteDef): number;
  limits: BodyLimits;
  logger: Logger;
  rateLimiter?: RateLimiter | undefined;
  /** The client address rate limits are kept per (the socket's peer unless proxies are trusted). */
  clientAddress?: ((req: IncomingMessage) => string) | undefined;
}

export type NextFunction = (error?: unknown) => void;
export type RequestListener = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

const ANONYMOUS: Actor = Object.freeze({
  id: 0,
  email: '',
  fullName: '',
  role: 600,
  isBot: false,
  botType: null,
  botOwnerId: null,
});

/** Zulip's parse_user_agent (zerver/lib/user_agent.py): the name may hold spaces ("Foo Desktop App/1.0"). */
const USER_AGENT = /^(?<name>[^/ ]*[^0-9/(]*)(\/(?<version>[^/ ]*))?([ /].*)?$/s;

/** Zulip's client name from the User-Agent. */
function clientName(userAgent: string): string {
  const name = USER_AGENT.exec(userAgent)?.groups?.name ?? '';
  return name === '' ? 'Unspecified' : name;
}

/** What a route learns of its HTTP request; the client name and the signal are made on first use. */
class HttpRequestInfo implements RequestInfo {
  readonly userAgent: string;
  readonly ip: string;
  #name: string | undefined;
  #controller: AbortController | undefined;

  constructor(
    private readonly res: ServerResponse,
    readonly files: RequestInfo['files'],
    userAgent: string | undefined,
    ip: string,
    private readonly clientParam: string | undefined,
  ) {
    this.userAgent = userAgent ?? '';
    this.ip = ip;
  }

  // Zulip's Client.name holds at most 30 characters; the name is stored with each message. Only
  // a few routes read it: worked out on first use.
  get client(): string {
    this.#name ??= [...(this.clientParam ?? clientName(this.userAgent))].slice(0, 30).join('');
    return this.#name;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const ctl = new AbortController();
      const res = this.res;
      this.#controller = ctl;
      if (res.destroyed || res.writableEnded) ctl.abort();
      // Once the answer is written nothing waits any more: aborting then would only cost a
      // DOMException per long-poll at fan-out time.
      else res.once('close', () => res.writableEnded || ctl.abort());
    }
    return this.#controller.signal;
  }
}

type Router = ReturnType<typeof FindMyWay>;

function buildRouter(routes: readonly RouteDef[]): Router {
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 2000 });
  for (const route of routes) {
    // Integer path segments only match digits, as Zulip's <int:...> URL patterns: /users/abc is a 404.
    const path = route.path.replace(/:(\w+)/g, (segment, name: string) =>
      route.params[name]?.wire === 'json' ? `${segment}(^\\d+$)` : segment,
    );
    router.on(route.method, (route.outsideApi ? '' : API_PREFIX) + path, () => undefined, { route });
  }
  return router;
}

export function createHandler(deps: HandlerDeps): RequestListener {
  // Building the router costs milliseconds: done on the first request (in-process users of
  // parley never need it).
  let built: Router | undefined;
  const router = {
    find: (method: Method, path: string) => (built ??= buildRouter(deps.routes)).find(method, path),
  };

  function allowedMethods(path: string): Method[] {
    return METHODS.filter((method) => router.find(method, path) !== null);
  }

  // Synchronous from the router to the answer unless the request has a body or the route is
  // asynchronous: most requests never wait for a promise.
  function serve(req: IncomingMessage, res: ServerResponse, route: RouteDef, pathValues: Record<string, string | undefined>, query: string): void {
    let extraHeaders = NO_HEADERS;
    let actor = ANONYMOUS;
    let bodyUnread = hasBody(req);
    const ip = deps.clientAddress?.(req) ?? req.socket.remoteAddress ?? '';
    const limiter = deps.rateLimiter;
    const transaction = route.transactional === true && route.access !== 'public' ? deps.transaction : undefined;

    // Credentials are always checked: failures of other accounts never refuse a valid key.
    const identify = (checkedAgain: boolean): void => {
      try {
        actor = deps.authenticate(req.headers.authorization, ip, route, checkedAgain, actor === ANONYMOUS ? undefined : actor);
      } catch (error) {
        if (limiter) extraHeaders = limiter.authFailed(ip);
        throw error;
      }
    };

    // A transactional route's `before` runs only in its write transaction: before the body is read
    // it would be a read of its own, outside the transaction, for an answer the transaction gives again.
    const admit = (withBefore = true): void => {
      checkAccess(route, actor);
      if (withBefore && route.before && route.access !== 'public') deps.before?.(route, actor);
    };

    const fail = (error: unknown): void => {
      // Refused before its body was read: the connection goes, and the body with it unread.
      if (bodyUnread) extraHeaders = { ...extraHeaders, Connection: 'close' };
      // A read outside a transaction may meet SQLITE_BUSY too (ctx.tx maps the writes').
      const known = error instanceof ApiError ? error : databaseBusy(error);
      if (known) {
        sendError(res, known, extraHeaders);
        return;
      }
      deps.logger.error('unexpected error', {
        method: route.method,
        route: route.path,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      sendJson(res, 500, { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' }, extraHeaders);
    };

    const answer = (result: unknown, ignored: readonly string[]): void => {
      if (result instanceof RawResponse) {
        sendRaw(res, result, extraHeaders);
        return;
      }
      sendSuccess(res, result as object | undefined, ignored, extraHeaders);
    };

    const run = (body: ParsedBody): void => {
      bodyUnread = false;
      let pending = false;
      try {
        const raw = new Map<string, string>(query === '' ? undefined : new URLSearchParams(query));
        for (const [key, value] of body.fields) raw.set(key, value);
        const request = new HttpRequestInfo(res, body.files, req.headers['user-agent'], ip, raw.get('client'));
        if (transaction) {
          const [result, ignored] = transaction(() => transactionalCall(raw, request));
          answer(result, ignored);
          return;
        }
        const { values, ignored } = decodeParams(route.params, raw, pathValues);
        if (limiter && route.passwordLogin) {
          login(limiter, String(values[route.passwordLogin.accountParam]), values, request, ignored);
          return;
        }
        const result = deps.invoke(route, actor, values, request);
        if (result instanceof Promise) {
          pending = true;
          result
            .then((value) => answer(value, ignored))
            .catch(fail)
            .finally(() => body.cleanup?.());
        } else answer(result, ignored);
      } catch (error) {
        fail(error);
      } finally {
        if (!pending) body.cleanup?.();
      }
    };

    // Authentication, access checks and handler in one write transaction: the caller's version read
    // costs no transaction of its own, and any change to the caller committed before it is seen.
    const transactionalCall = (raw: Map<string, string>, request: RequestInfo): [unknown, readonly string[]] => {
      identify(false);
      admit();
      const { values, ignored } = decodeParams(route.params, raw, pathValues);
      const result = deps.invoke(route, actor, values, request);
      if (result instanceof Promise) throw new Error(`${route.method} ${route.path} is transactional but its handler is asynchronous`);
      return [result, ignored];
    };

    // A password login: the account's attempts are checked before the password is (Zulip's
    // rate_limit_auth); a success gives them back, a failure also counts against the address.
    const login = (limiter: RateLimiter, account: string, values: Record<string, unknown>, request: RequestInfo, ignored: readonly string[]): void => {
      extraHeaders = strictest(extraHeaders, limiter.loginAttempt(account));
      Promise.resolve(deps.invoke(route, actor, values, request)).then(
        (value) => {
          limiter.loginSucceeded(account);
          answer(value, ignored);
        },
        (error: unknown) => {
          try {
            if (error instanceof ApiError && error.status === 401) extraHeaders = strictest(extraHeaders, limiter.loginFailed(ip));
            fail(error);
          } catch (limited) {
            fail(limited);
          }
        },
      );
    };

    try {
      if (route.access === 'public') {
        if (limiter && !route.outsideApi) extraHeaders = limiter.address(ip);
      } else {
        identify(transaction !== undefined);
        if (limiter) extraHeaders = route.longPoll ? limiter.longPoll(actor.id) : limiter.user(actor.id);
      }
      try {
        admit(transaction === undefined);
      } catch (error) {
        // A caller taken from memory may be out of date: refused only as they are now.
        if (transaction === undefined) throw error;
        identify(false);
        admit(false);
      }
      if (bodyUnread) {
        const fileBytes = route.uploads === undefined ? undefined : (deps.fileBytes?.(route) ?? deps.limits.uploadBytes);
        readBody(req, deps.limits, fileBytes, route.spoolUploads === true).then(run, (error: unknown) => {
          bodyUnread = false;
          fail(error);
        });
      } else run(EMPTY_BODY);
    } catch (error) {
      fail(error);
    }
  }

  return function handler(req, res, next) {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    // zulip-js produces //api/v1/... when the server URL ends in a slash.
    const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(/^\/{2,}/, '/');
    const query = queryAt < 0 ? '' : url.slice(queryAt + 1);
    const method = (req.method ?? 'GET').toUpperCase();
    const found = METHODS.includes(method as Method) ? router.find(method as Method, path) : null;
    if (found === null) {
      // A path of any route, under /api/v1 or not (a custom emoji's image): 405 with Allow.
      const allowed = allowedMethods(path);
      if (allowed.length > 0) {
        req.resume();
        sendJson(res, 405, { result: 'error', msg: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' }, { Allow: allowed.join(', ') });
        return;
      }
      if (next) {
        next();
        return;
      }
      req.resume();
      sendJson(res, 404, { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
      return;
    }
    const { route } = found.store as { route: RouteDef };
    serve(req, res, route, found.params, query);
  };
}
