// Every error code parley answers with, its HTTP status, and the one error type domain code throws.
// docs/errors.md's table is checked against ERROR_CODES by test/errors.test.ts.

export const ERROR_CODES = {
  BAD_REQUEST: 400,
  REQUEST_VARIABLE_MISSING: 400,
  REQUEST_CONFUSING_VAR: 400,
  UNAUTHORIZED_PRINCIPAL: 400,
  BAD_EVENT_QUEUE_ID: 400,
  NO_ACTIVE_PUSH_DEVICE: 400,
  PUSH_SERVICE_NOT_CONFIGURED: 400,
  STREAM_DOES_NOT_EXIST: 400,
  BAD_NARROW: 400,
  REACTION_ALREADY_EXISTS: 400,
  REACTION_DOES_NOT_EXIST: 400,
  CANNOT_DEACTIVATE_LAST_USER: 400,
  INVALID_JSON: 400,
  MISSING_HTTP_EVENT_HEADER: 400,
  ANOMALOUS_WEBHOOK_PAYLOAD: 400,
  // Answered with HTTP 200, as Zulip does: the third-party service should not retry.
  UNSUPPORTED_WEBHOOK_EVENT_TYPE: 400,
  INVITATION_FAILED: 400,
  INVALID_CONFIRMATION_LINK: 400,
  UNAUTHORIZED: 401,
  // An incoming webhook's `api_key` parameter (Zulip's InvalidAPIKeyError); HTTP Basic answers UNAUTHORIZED.
  INVALID_API_KEY: 401,
  AUTHENTICATION_FAILED: 401,
  USER_DEACTIVATED: 401,
  ADMIN_ACTION_REQUIRED: 403,
  CSRF_FAILED: 403,
  INVALID_IMAGE_PROXY_URL: 403,
  NOT_FOUND: 404,
  NONEXISTENT_SUBDOMAIN: 404,
  METHOD_NOT_ALLOWED: 405,
  CHANNEL_ALREADY_EXISTS: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  RATE_LIMIT_HIT: 429,
  INTERNAL_SERVER_ERROR: 500,
  DATABASE_BUSY: 503,
  FAILED_TO_CONNECT_BOUNCER: 502,
  INTERNAL_SERVER_ERROR_ON_BOUNCER: 502,
  IMAGE_PROXY_FAILED: 502,
  IMAGE_PROXY_BUSY: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The fields an error answer carries besides result, msg and code (Zulip's `var_name`, `queue_id`...). */
export type ErrorFields = Readonly<Record<string, unknown>>;

/** What a rule violation looks like on the wire: `{"result":"error","msg":...,"code":...,...extra}`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: ErrorFields;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    msg: string,
    options: { status?: number; extra?: ErrorFields | undefined; headers?: Record<string, string> } = {},
  ) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code];
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  toJSON(): ErrorFields & { result: 'error'; msg: string; code: ErrorCode } {
    return { result: 'error', msg: this.message, code: this.code, ...this.extra };
  }

  /** The body an HTTP answer carries: Zulip's error envelope, unless an endpoint answers in a format of its own. */
  wireBody(): object {
    return this.toJSON();
  }
}

/** The common case: a 400 `BAD_REQUEST` with Zulip's message. */
export function badRequest(msg: string, extra?: ErrorFields): ApiError {
  return new ApiError('BAD_REQUEST', msg, { extra });
}

/** Zulip's ResourceNotFoundError: HTTP 404 but code `BAD_REQUEST`. */
export function notFound(msg: string): ApiError {
  return new ApiError('BAD_REQUEST', msg, { status: RESOURCE_NOT_FOUND.status });
}

/** An error code answered with another HTTP status than its usual one (a route's `errors`, OpenAPI). */
export interface ErrorVariant {
  readonly code: ErrorCode;
  readonly status: number;
}

/** What notFound() answers: list it in a route's `errors` so the OpenAPI document has the 404. */
export const RESOURCE_NOT_FOUND: ErrorVariant = { code: 'BAD_REQUEST', status: 404 };

/** A request the caller may not make, answered 403 with code `BAD_REQUEST` (Zulip answers downloads it refuses with 403). */
export const FORBIDDEN: ErrorVariant = { code: 'BAD_REQUEST', status: 403 };

export function forbidden(msg: string): ApiError {
  return new ApiError('BAD_REQUEST', msg, { status: FORBIDDEN.status });
}

/** Zulip's RequestVariableMissingError: a required parameter was not given. */
export function missing(name: string): ApiError {
  return new ApiError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, { extra: { var_name: name } });
}

export function unauthorized(msg: string): ApiError {
  return new ApiError('UNAUTHORIZED', msg, { headers: { 'WWW-Authenticate': 'Basic realm="zulip"' } });
}

export function mustBeAdmin(): ApiError {
  return new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
}

/** Zulip's OrganizationOwnerRequiredError (same code as the administrator one). */
export function mustBeOwner(): ApiError {
  return new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
}

/** Zulip's RateLimitedError: 429 with the seconds to wait, in the body and in Retry-After. */
export function rateLimitHit(retryAfterSeconds: number, headers: Record<string, string> = {}): ApiError {
  const retryAfter = Math.max(0.001, Math.round(retryAfterSeconds * 1000) / 1000);
  return new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', {
    extra: { 'retry-after': retryAfter },
    headers: { ...headers, 'Retry-After': String(Math.ceil(retryAfter)) },
  });
}

/** Seconds a client waits before retrying a request the database was too busy for. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The answer to SQLite's SQLITE_BUSY (another connection held the write lock past the busy
 * timeout): a 503 the client may retry, never a 500. Other errors come back undefined.
 */
export function databaseBusy(error: unknown): ApiError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY')) return undefined;
  return new ApiError('DATABASE_BUSY', 'The database is busy; retry the request.', {
    headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
  });
}
