// The Node request listener: routes /api/v1/... with find-my-way, then serves each request in
// named stages: authenticate -> read the body -> decode -> run the route -> answer (the JSON
// envelope). Works as http.createServer(handler) and as Connect/Express middleware (unknown paths
// go to next()). Knows nothing about chat: the route table, who a caller is and how a route runs
// are passed in (lib/index.ts wires lib/routes/run.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import { ApiError, databaseBusy } from '../errors.js';
import type { Logger } from '../logger.js';
import { EMPTY_BODY, hasBody, readBody, type BodyLimits, type ParsedBody } from './body.js';
import { formParams, ignoredParams, type ParamSource } from './params.js';
import { strictest, type RateLimiter, type RateLimitHeaders } from './rate_limit.js';
import { HttpRequestInfo, type HttpRoute, type Method, type RawRequest, type RequestInfo } from './request.js';
import { RawResponse, sendError, sendJson, sendRaw, sendSuccess } from './respond.js';

export const API_PREFIX = '/api/v1';
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** How the HTTP core serves routes of type R for callers of type C. */
export interface HandlerDeps<R extends HttpRoute, C> {
  routes: readonly R[];
  /**
   * Who is calling (never asked for a public route); throws (or rejects with) the ApiError to
   * answer with. A promise only when a way in must wait (the embedding application's hook).
   */
  authenticate(req: IncomingMessage, route: R): C | Promise<C>;
  /** The caller's user id: the per-user rate limit's key. */
  callerId(caller: C): number;
  /** Refuses, before the body is read, what `run` would refuse of this caller; returns the caller to run with. */
  precheck(route: R, caller: C): C;
  /** Runs the route (access, `before`, validation, transaction, handler); null caller for a public route. */
  run(route: R, caller: C | null, input: ParamSource, request: RequestInfo): unknown;
  /** The largest file a route that takes uploads accepts (its body may hold that much more). */
  fileBytes?(route: R): number;
  limits: BodyLimits;
  logger: Logger;
  rateLimiter?: RateLimiter | undefined;
  /** The client address rate limits are kept per (the socket's peer unless proxies are trusted). */
  clientAddress?: ((req: IncomingMessage) => string) | undefined;
}

export type NextFunction = (error?: unknown) => void;
export type RequestListener = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;

const NO_HEADERS: RateLimitHeaders = Object.freeze({});
const EMPTY_BYTES = Buffer.alloc(0);
const SESSION_CHALLENGE = Object.freeze({ 'WWW-Authenticate': 'Session realm="zulip"' });

type Router = ReturnType<typeof FindMyWay>;

function buildRouter(routes: readonly HttpRoute[]): Router {
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 2000 });
  for (const route of routes) {
    // Integer path segments only match digits, as Zulip's <int:...> URL patterns: /users/abc is a 404.
    const path = route.path.replace(/:(\w+)/g, (segment, wire: string) =>
      route.fields.find((field) => field.wire === wire)?.param.wire === 'json' ? `${segment}(^\\d+$)` : segment,
    );
    router.on(route.method, (route.outsideApi ? '' : API_PREFIX) + path, () => undefined, { route });
  }
  return router;
}

/** One request on its way through the stages; holds what the answer carries besides the result. */
class Exchange<R extends HttpRoute, C> {
  /** The X-RateLimit-* headers of the limits the request went through. */
  headers: Readonly<Record<string, string>> = NO_HEADERS;
  bodyUnread: boolean;
  readonly ip: string;
  /** The account of a password login whose attempt was counted. */
  loginAccount: string | undefined;
  /** What the route learnt of the request (it may have set a cookie). */
  request: HttpRequestInfo | undefined;

  constructor(
    private readonly deps: HandlerDeps<R, C>,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly route: R,
    private readonly pathValues: Readonly<Record<string, string | undefined>>,
    private readonly query: string,
  ) {
    this.bodyUnread = hasBody(req);
    this.ip = deps.clientAddress?.(req) ?? req.socket.remoteAddress ?? '';
  }

  /**
   * Stage 1: who is calling, within their rate limit; with a body still to read, what can be
   * refused before it is. Credentials are always checked: failures of other accounts never refuse
   * a valid key.
   */
  authenticate(): C | null | Promise<C> {
    const { deps, route } = this;
    const limiter = deps.rateLimiter;
    if (route.access === 'public') {
      if (limiter && !route.outsideApi) this.headers = limiter.address(this.ip);
      return null;
    }
    let found: C | Promise<C>;
    try {
      found = deps.authenticate(this.req, route);
    } catch (error) {
      this.authenticationFailed();
      throw error;
    }
    if (!(found instanceof Promise)) return this.admit(found);
    return found.then(
      (caller) => this.admit(caller),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) this.authenticationFailed();
        throw error;
      },
    );
  }

  /** The caller within their rate limit; with a body still to read, what can be refused before it is. */
  admit(caller: C): C {
    const { deps, route } = this;
    const limiter = deps.rateLimiter;
    if (limiter) this.headers = route.longPoll ? limiter.longPoll(deps.callerId(caller)) : limiter.user(deps.callerId(caller));
    return this.bodyUnread ? this.confirming(() => deps.precheck(route, caller)) : caller;
  }

  /** Stage 2: the body, within the route's limits. */
  readBody(): Promise<ParsedBody> {
    const { deps, route } = this;
    const fileBytes = route.uploads === undefined ? undefined : (deps.fileBytes?.(route) ?? deps.limits.uploadBytes);
    return readBody(this.req, deps.limits, fileBytes, route.spoolUploads === true, route.rawBody === true).finally(() => (this.bodyUnread = false));
  }

  /** Stages 3 to 5: decode, run the route, answer. The body's spooled files go once answered. */
  respond(caller: C | null, body: ParsedBody): void {
    let pending = false;
    try {
      // Stage 3: the request's raw values (body fields over query ones); the keys no parameter reads.
      const query = new URLSearchParams(this.query);
      const raw = new Map<string, string>(query);
      for (const [key, value] of body.fields) raw.set(key, value);
      // A rawBody route's handler reads the request's other parameters itself.
      const ignored = this.route.rawBody ? [] : ignoredParams(this.route.fields, raw);
      const sent = this.route.rawBody ? this.sent(query, body) : undefined;
      const request = new HttpRequestInfo(this.res, body.files, this.req.headers['user-agent'], this.ip, raw.get('client'), this.passwordLogin(), this.req, sent);
      this.request = request;
      // Stage 4.
      const result = this.confirming(() => this.deps.run(this.route, caller, formParams(raw, this.pathValues), request));
      if (result instanceof Promise) {
        pending = true;
        result
          .then((value) => this.answer(value, ignored))
          .catch((error: unknown) => this.fail(error))
          .finally(() => body.cleanup?.());
      } else this.answer(result, ignored);
    } catch (error) {
      this.fail(error);
    } finally {
      if (!pending) body.cleanup?.();
    }
  }

  /** The request as sent, for a rawBody route. */
  sent(query: URLSearchParams, body: ParsedBody): RawRequest {
    return { query, form: body.fields, headers: this.req.headers, body: body.raw ?? EMPTY_BYTES };
  }

  /** A step that confirms the caller as of now (the precheck, the run): its 401 is a failed authentication too. */
  confirming<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'UNAUTHORIZED' || error.code === 'INVALID_API_KEY')) this.authenticationFailed();
      throw error;
    }
  }

  /** A failed authentication counts against the address (and may turn into its 429). */
  authenticationFailed(): void {
    if (this.deps.rateLimiter) this.headers = this.deps.rateLimiter.authFailed(this.ip);
  }

  /**
   * A password login: the account's attempts are checked before the password is (Zulip's
   * rate_limit_auth); a success gives them back, a failure also counts against the address.
   */
  passwordLogin(): ((account: string) => void) | undefined {
    const limiter = this.deps.rateLimiter;
    if (!limiter || !this.route.passwordLogin) return undefined;
    return (account) => {
      this.headers = strictest(this.headers, limiter.loginAttempt(account));
      this.loginAccount = account;
    };
  }

  /** Stage 5: the JSON envelope, or the route's own media type. */
  answer(result: unknown, ignored: readonly string[]): void {
    if (this.loginAccount !== undefined) this.deps.rateLimiter?.loginSucceeded(this.loginAccount);
    const cookie = this.request?.cookie;
    const headers = cookie === undefined ? this.headers : { ...this.headers, 'Set-Cookie': cookie };
    if (result instanceof RawResponse) sendRaw(this.res, result, headers);
    else sendSuccess(this.res, result as object | undefined, ignored, headers);
  }

  /** An ApiError as its JSON error; anything else is a bug: logged, and a JSON 500. */
  fail(error: unknown): void {
    if (this.loginAccount !== undefined && error instanceof ApiError && error.status === 401) {
      const limiter = this.deps.rateLimiter!;
      this.loginAccount = undefined;
      try {
        this.headers = strictest(this.headers, limiter.loginFailed(this.ip));
      } catch (limited) {
        this.fail(limited);
        return;
      }
    }
    // Refused before its body was read: the connection goes, and the body with it unread.
    if (this.bodyUnread) this.headers = { ...this.headers, Connection: 'close' };
    // A read outside a transaction may meet SQLITE_BUSY too (ctx.tx maps the writes').
    const known = error instanceof ApiError ? error : databaseBusy(error);
    if (known) {
      // A page's fetch (a browser says Sec-Fetch-Dest: empty) gets Zulip's session challenge, which
      // browsers do not answer with a password prompt as they would Basic's.
      const challenge = known.headers['WWW-Authenticate'] !== undefined && this.req.headers['sec-fetch-dest'] === 'empty';
      sendError(this.res, known, this.headers, challenge ? SESSION_CHALLENGE : undefined);
      return;
    }
    this.deps.logger.error('unexpected error', {
      method: this.route.method,
      route: this.route.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    sendJson(this.res, 500, { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' }, this.headers);
  }
}

export function createHandler<R extends HttpRoute, C>(deps: HandlerDeps<R, C>): RequestListener {
  // Building the router costs milliseconds: done on the first request (in-process users of
  // parley never need it).
  let built: Router | undefined;
  const find = (method: Method, path: string) => (built ??= buildRouter(deps.routes)).find(method, path);

  // Synchronous from the router to the answer unless the request has a body or the route is
  // asynchronous: most requests never wait for a promise.
  function serve(req: IncomingMessage, res: ServerResponse, route: R, pathValues: Record<string, string | undefined>, query: string): void {
    const exchange = new Exchange(deps, req, res, route, pathValues, query);
    let caller: C | null | Promise<C>;
    try {
      caller = exchange.authenticate();
    } catch (error) {
      exchange.fail(error);
      return;
    }
    if (caller instanceof Promise) caller.then((found) => proceed(exchange, found), (error: unknown) => exchange.fail(error));
    else proceed(exchange, caller);
  }

  function proceed(exchange: Exchange<R, C>, caller: C | null): void {
    if (!exchange.bodyUnread) exchange.respond(caller, EMPTY_BODY);
    else exchange.readBody().then((body) => exchange.respond(caller, body), (error: unknown) => exchange.fail(error));
  }

  return function handler(req, res, next) {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    // zulip-js produces //api/v1/... when the server URL ends in a slash.
    const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(/^\/{2,}/, '/');
    const query = queryAt < 0 ? '' : url.slice(queryAt + 1);
    const method = (req.method ?? 'GET').toUpperCase();
    const found = METHODS.includes(method as Method) ? find(method as Method, path) : null;
    if (found === null) {
      // A path of any route, under /api/v1 or not (a custom emoji's image): 405 with Allow.
      const allowed = METHODS.filter((other) => find(other, path) !== null);
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
    const { route } = found.store as { route: R };
    serve(req, res, route, found.params, query);
  };
}
