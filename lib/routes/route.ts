// What a route is: method, path, who may call and by which ways in, the parameters' zod schemas
// (camelCase names; the wire names are derived), the answer's schema, and a one-line call into the
// domain. The router (lib/http/handler.ts), the in-process API (lib/api.ts), the runner they share
// (lib/routes/run.ts) and the OpenAPI document are all built from these entries.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { Caller } from '../domain/callers.js';
import { isAdmin, type Actor } from '../domain/roles.js';
import { ApiError, mustBeAdmin, type ErrorCode, type ErrorVariant } from '../errors.js';
import type { HttpRoute, RequestInfo } from '../http/request.js';
import { paramFields, type ParamField, type ParamShape, type ParamValues } from '../http/params.js';
import type { RawResponse } from '../http/respond.js';
import type { WayIn } from './ways_in.js';

/**
 * public: no credentials (server_settings, fetch_api_key);
 * user: any authenticated user or bot;
 * human: users only, bots get "This endpoint does not accept bot requests.";
 * admin: owners and administrators (bots included), checked before the parameters, as Zulip's
 * @require_realm_admin is: others get "Must be an organization administrator".
 */
export type Access = 'public' | 'user' | 'human' | 'admin';

export type Handler<C, P extends ParamShape, R> = (ctx: Ctx, caller: C, input: NoInfer<ParamValues<P>>, request: RequestInfo) => R;

interface RouteBase<P extends ParamShape> extends Omit<HttpRoute, 'fields'> {
  /** Under /api/v1, in find-my-way syntax, with the wire names: `/drafts/:draft_id`, `/navigation_views/*`. */
  path: string;
  summary: string;
  /** The parameters by camelCase name (`draftId`); each is sent as its snake_case name (`draft_id`). */
  params: P;
  /**
   * Error codes this endpoint can answer with besides authentication and parameter errors; an
   * ErrorVariant for a code with another status (RESOURCE_NOT_FOUND: 404 with BAD_REQUEST).
   */
  errors?: readonly (ErrorCode | ErrorVariant)[];
  /** The largest file the route takes, in bytes (default: limits.uploadBytes); its body may be that much larger. */
  uploadBytes?: (ctx: Ctx) => number;
  /**
   * The handler is synchronous and does all its work in one ctx.tx, with no I/O but SQLite (no
   * network, no files, no awaits, no password hashing) and nothing after it commits; not for a
   * domain function that commits in batches on purpose (they would become one long transaction).
   * The runner (lib/routes/run.ts) then confirms the caller, checks access and `before` and runs
   * the handler in one write transaction, over HTTP and in-process alike.
   * test/transactional_routes.test.ts checks that no marked route calls an async domain function.
   */
  transactional?: boolean;
  /**
   * The handler answers with a promise: it waits for password hashing, files, the network or new
   * events, and writes after the wait. The in-process API refuses it inside a transaction
   * (chat.transaction, or the host's own), where its writes after the wait would escape the
   * transaction. test/host_transaction_routes.test.ts checks that every such route says so.
   */
  asynchronous?: boolean;
}

/** A route anyone may call: its handler gets no caller. */
interface PublicRoute<P extends ParamShape, R> extends RouteBase<P> {
  access: 'public';
  handler: Handler<null, P, R>;
  before?: undefined;
  waysIn?: undefined;
  allowIncomingWebhooks?: undefined;
}

/** A route for authenticated callers. */
interface CallerRoute<P extends ParamShape, R> extends RouteBase<P> {
  access: Exclude<Access, 'public'>;
  handler: Handler<Caller, P, R>;
  /** Runs after authentication, before the parameters are validated (Zulip's view decorators, e.g. draft_endpoint). */
  before?: (ctx: Ctx, actor: Actor) => void;
  /** How callers may prove who they are (lib/routes/ways_in.ts; default: every way in). */
  waysIn?: readonly WayIn[];
  /** Incoming webhook bots may call it (Zulip's allow_incoming_webhooks: sending messages). */
  allowIncomingWebhooks?: boolean;
}

/**
 * What a success answers with: the data fields of the JSON envelope (`response`, exact: the OpenAPI
 * document and the conformance tests check answers against it; `noFields` for none), or another
 * media type (`rawResponse`: an image, a file, the OpenAPI document).
 */
type JsonAnswer<S extends z.ZodType = z.ZodType> = { response: S; rawResponse?: undefined };
type RawAnswer = { rawResponse: string; response?: undefined };

type Declared<P extends ParamShape, R> = PublicRoute<P, R> | CallerRoute<P, R>;

/** A route as its file declares it. */
export type RouteDeclaration<P extends ParamShape = ParamShape, R = unknown> = Declared<P, R> & (JsonAnswer | RawAnswer);

/** A declared route with its parameters' wire names, in the order they are checked. */
export type RouteDef<P extends ParamShape = ParamShape, R = unknown> = RouteDeclaration<P, R> & { readonly fields: readonly ParamField[] };

/** The answer of a route whose success body has no fields besides `result` and `msg`. */
export const noFields = z.object({});

type Awaitable<T> = T | Promise<T>;

/**
 * Declares a route. The handler's result must be what `response` describes (or a RawResponse for
 * a `rawResponse` route): a mismatch is a compile error at the route.
 */
export function route<P extends ParamShape, S extends z.ZodType, R extends Awaitable<z.output<S>>>(def: Declared<P, R> & JsonAnswer<S>): RouteDef<P, R>;
export function route<P extends ParamShape, R extends Awaitable<RawResponse>>(def: Declared<P, R> & RawAnswer): RouteDef<P, R>;
export function route<P extends ParamShape, R>(def: RouteDeclaration<P, R>): RouteDef<P, R> {
  return { ...def, fields: paramFields(def.params) };
}

/** Zulip's @human_users_only and @require_realm_admin, checked before parameters are parsed. */
export function checkAccess(route: RouteDef, actor: Actor): void {
  if (route.access === 'human' && actor.isBot) {
    throw new ApiError('BAD_REQUEST', 'This endpoint does not accept bot requests.');
  }
  if (route.access === 'admin' && !isAdmin(actor)) throw mustBeAdmin();
}
