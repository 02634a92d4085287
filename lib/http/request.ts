// What the HTTP core knows of a route (lib/routes/route.ts declares the rest) and what a route
// learns of the request that called it: the client's name, address, files and abort signal.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { UploadedFile } from './body.js';
import { mountPath, sessionCookie } from './cookies.js';
import { checkSameOrigin } from './same_origin.js';
import type { ParamField } from './params.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRoute {
  method: Method;
  /** In find-my-way syntax, with the parameters' wire names: `/drafts/:draft_id`, `/navigation_views/*`. */
  path: string;
  /** 'public': no credentials; any other access needs a caller. */
  access: string;
  /** The parameters with their wire names, in the order they are checked (route() computes them). */
  fields: readonly ParamField[];
  /** The path is absolute, not under /api/v1 (e.g. custom emoji images at their source_url). */
  outsideApi?: boolean;
  /** Takes files in a multipart body (request.files): what they are. Other routes ignore file parts. */
  uploads?: string;
  /** Its files are spooled to temporary files rather than held in memory (request.files[i].spooled). */
  spoolUploads?: boolean;
  /**
   * A long-poll (GET /events): rate limited in a per-user budget of its own (RateLimiter.longPoll),
   * since what ends a poll is mostly other people's events; the user's other requests keep theirs.
   */
  longPoll?: boolean;
  /**
   * A password login (POST /fetch_api_key): limited per account, named by the parameter
   * `accountParam`, and its failures (401 answers) per address.
   */
  passwordLogin?: { accountParam: string };
  /**
   * Takes its request as sent (an incoming webhook): a body of any media type within the body
   * limit, kept as bytes beside a form body's fields (request.raw). Its handler reads the
   * parameters it does not declare itself, so none is reported as ignored.
   */
  rawBody?: boolean;
}

/** A request as sent, for a `rawBody` route. */
export interface RawRequest {
  /** The query string's parameters (credentials included: the route leaves them out). */
  readonly query: URLSearchParams;
  /** A form-urlencoded or multipart body's fields (none for other bodies: JSON, text). */
  readonly form: ReadonlyMap<string, string>;
  readonly headers: IncomingHttpHeaders;
  /** The body's bytes (empty for a multipart body, whose fields are `form`). */
  readonly body: Buffer;
}

export interface RequestInfo {
  /** Zulip's client name: the `client` parameter, or the User-Agent's product token. */
  readonly client: string;
  readonly userAgent: string;
  readonly ip: string;
  /** Aborted when the client goes away (long-polls give up at once). */
  readonly signal: AbortSignal;
  readonly files: readonly UploadedFile[];
  /**
   * A password login for `account` is about to be checked (the runner calls it for a
   * `passwordLogin` route, its parameters valid): HTTP counts it against the account's attempts.
   */
  readonly passwordLogin?: ((account: string) => void) | undefined;
  /** The request as sent, for a `rawBody` route (in-process: what the caller hands over, if anything). */
  readonly raw?: RawRequest | undefined;
  /**
   * HTTP only: sets cookie `name` on a success answer, HttpOnly and SameSite=Strict, for the path
   * parley is mounted at (lib/http/cookies.ts); `maxAge` 0 removes it.
   */
  readonly setCookie?: ((name: string, value: string, options: { maxAge: number; secure: boolean }) => void) | undefined;
  /**
   * HTTP only: throws 403 CSRF_FAILED for a state-changing request from a page of another origin
   * (lib/http/same_origin.ts), for a route whose answer signs a browser in.
   */
  readonly checkSameOrigin?: ((ownOrigins: () => readonly string[]) => void) | undefined;
}

/** Zulip's parse_user_agent (zerver/lib/user_agent.py): the name may hold spaces ("Foo Desktop App/1.0"). */
const USER_AGENT = /^(?<name>[^/ ]*[^0-9/(]*)(\/(?<version>[^/ ]*))?([ /].*)?$/s;

/** Zulip's client name from the User-Agent. */
function clientName(userAgent: string): string {
  const name = USER_AGENT.exec(userAgent)?.groups?.name ?? '';
  return name === '' ? 'Unspecified' : name;
}

/** What a route learns of its HTTP request; the client name and the signal are made on first use. */
export class HttpRequestInfo implements RequestInfo {
  readonly userAgent: string;
  #name: string | undefined;
  #controller: AbortController | undefined;
  /** The Set-Cookie value a success answer carries (one cookie at most). */
  cookie: string | undefined;

  constructor(
    private readonly res: ServerResponse,
    readonly files: RequestInfo['files'],
    userAgent: string | undefined,
    readonly ip: string,
    private readonly clientParam: string | undefined,
    /** What a password login's attempt does over HTTP (lib/http/handler.ts: the account's limit). */
    readonly passwordLogin: ((account: string) => void) | undefined,
    /** The request itself: where parley is mounted (cookies are set for that path), where it came from. */
    private readonly req: IncomingMessage,
    readonly raw?: RawRequest,
  ) {
    this.userAgent = userAgent ?? '';
  }

  checkSameOrigin = (ownOrigins: () => readonly string[]): void => checkSameOrigin(this.req, ownOrigins);

  setCookie = (name: string, value: string, options: { maxAge: number; secure: boolean }): void => {
    const mount = mountPath(this.req);
    this.cookie = sessionCookie(name, value, { path: mount === '' ? '/' : mount, ...options });
  };

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

/**
 * The request of an in-process call. Without a caller's signal, one that never aborts is made on
 * first use: only long-polls read it, and an AbortController per call took in-process
 * api.users.me from 3 to 10-12 µs of CPU (`npm run bench -- foundation`).
 */
/** What an in-process call of a `rawBody` route hands over in place of the HTTP request. */
export interface SentRequest {
  headers?: Readonly<Record<string, string>>;
  /** The body as sent (a JSON text, a form body's text). */
  body?: string | Buffer;
  /** The URL's parameters besides the route's declared ones (an integration's options). */
  query?: Readonly<Record<string, string>>;
}

/** An in-process call's request as HTTP would have received it (a form body's fields are not parsed). */
export function sentRaw(sent: SentRequest): RawRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent.headers ?? {})) headers[name.toLowerCase()] = value;
  const body = sent.body ?? '';
  return { query: new URLSearchParams(sent.query), form: new Map(), headers, body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body };
}

export function inProcessRequest(signal?: AbortSignal, files: readonly UploadedFile[] = [], sent?: SentRequest): RequestInfo {
  const raw = sent === undefined ? undefined : sentRaw(sent);
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
    raw,
  };
}
