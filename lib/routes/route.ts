// What a route is: method, path, who may call, the parameters' zod schemas, and a one-line call
// into the domain. The router (lib/http/handler.ts), the in-process API (lib/api.ts) and the
// OpenAPI document are all built from these entries.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { isAdmin, type Actor } from '../domain/roles.js';
import { ApiError, mustBeAdmin, type ErrorCode, type ErrorVariant } from '../errors.js';
import type { UploadedFile } from '../http/body.js';
import type { ParamShape, ParamValues } from '../http/params.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * public: no credentials (server_settings, fetch_api_key);
 * user: any authenticated user or bot;
 * human: users only, bots get "This endpoint does not accept bot requests.";
 * admin: owners and administrators (bots included), checked before the parameters, as Zulip's
 * @require_realm_admin is: others get "Must be an organization administrator".
 */
export type Access = 'public' | 'user' | 'human' | 'admin';

export interface RequestInfo {
  /** Zulip's client name: the `client` parameter, or the User-Agent's product token. */
  client: string;
  userAgent: string;
  ip: string;
  /** Aborted when the client goes away (long-polls give up at once). */
  signal: AbortSignal;
  files: readonly UploadedFile[];
}

export type Handler<P extends ParamShape, R> = (
  ctx: Ctx,
  actor: Actor,
  input: NoInfer<ParamValues<P>>,
  request: RequestInfo,
) => R;

interface RouteBase<P extends ParamShape, R> {
  method: Method;
  /** Under /api/v1, in find-my-way syntax: `/drafts/:draft_id`, `/navigation_views/*`. */
  path: string;
  /**
   * A password login (POST /fetch_api_key): limited per account, named by the parameter
   * `accountParam`, and its failures (401 answers) per address.
   */
  passwordLogin?: { accountParam: string };
  /** The path is absolute, not under /api/v1 (e.g. custom emoji images at their source_url). */
  outsideApi?: boolean;
  /**
   * A long-poll (GET /events): rate limited in a per-user budget of its own (RateLimiter.longPoll),
   * since what ends a poll is mostly other people's events; the user's other requests keep theirs.
   */
  longPoll?: boolean;
  access: Access;
  summary: string;
  params: P;
  /**
   * Error codes this endpoint can answer with besides authentication and parameter errors; an
   * ErrorVariant for a code with another status (RESOURCE_NOT_FOUND: 404 with BAD_REQUEST).
   */
  errors?: readonly (ErrorCode | ErrorVariant)[];
  /** Takes files in a multipart body (request.files): what they are. Other routes ignore file parts. */
  uploads?: string;
  /** The largest file the route takes, in bytes (default: limits.uploadBytes); its body may be that much larger. */
  uploadBytes?: (ctx: Ctx) => number;
  /** Its files are spooled to temporary files rather than held in memory (request.files[i].spooled). */
  spoolUploads?: boolean;
  /** Incoming webhook bots may call it (Zulip's allow_incoming_webhooks: sending messages). */
  allowIncomingWebhooks?: boolean;
  handler: Handler<P, R>;
  /**
   * The handler is synchronous and does all its work in one ctx.tx, with no I/O but SQLite (no
   * network, no files, no awaits, no password hashing) and nothing after it commits; not for a
   * domain function that commits in batches on purpose (they would become one long transaction).
   * Over HTTP its caller is then confirmed inside that transaction: the check before the body is
   * read may take a remembered caller as it is and leaves `before` out, and the one that counts
   * (authentication, access, `before`) runs in the write transaction with the handler. The
   * in-process API (lib/api.ts) runs the caller's checks in that transaction too.
   * test/transactional_routes.test.ts checks that no marked route calls an async domain function.
   */
  transactional?: boolean;
  /** Runs after authentication, before the parameters are decoded (Zulip's view decorators, e.g. draft_endpoint). */
  before?: (ctx: Ctx, actor: Actor) => void;
}

/**
 * What a success answers with: the data fields of the JSON envelope (`response`, exact: the OpenAPI
 * document and the conformance tests check answers against it; `noFields` for none), or another
 * media type (`rawResponse`: an image, a file, the OpenAPI document).
 */
type RouteAnswer = { rawResponse: string; response?: undefined } | { response: z.ZodType; rawResponse?: undefined };

export type RouteDef<P extends ParamShape = ParamShape, R = unknown> = RouteBase<P, R> & RouteAnswer;

/** The answer of a route whose success body has no fields besides `result` and `msg`. */
export const noFields = z.object({});

/** Declares a route; only here for type inference. */
export function route<P extends ParamShape, R>(def: RouteDef<P, R>): RouteDef<P, R> {
  return def;
}

/**
 * The request of an in-process call. Without a caller's signal, one that never aborts is made on
 * first use: only long-polls read it, and an AbortController per call took in-process
 * api.users.me from 3 to 10-12 µs of CPU (`npm run bench -- foundation`).
 */
export function inProcessRequest(signal?: AbortSignal, files: readonly UploadedFile[] = []): RequestInfo {
  let own = signal;
  return {
    client: 'internal',
    userAgent: 'parley/in-process',
    ip: '',
    get signal() {
      own ??= new AbortController().signal;
      return own;
    },
    files,
  };
}

/** Zulip's @human_users_only, checked before parameters are parsed. */
export function checkAccess(route: RouteDef, actor: Actor): void {
  if (route.access === 'human' && actor.isBot) {
    throw new ApiError('BAD_REQUEST', 'This endpoint does not accept bot requests.');
  }
  if (route.access === 'admin' && !isAdmin(actor)) throw mustBeAdmin();
}
