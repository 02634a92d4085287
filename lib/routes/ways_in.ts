// The ways into a route over HTTP (DESIGN.md "one Caller"): each reads its own credential from the
// request, and lib/domain/callers.ts makes the same Caller whichever way it came. A route declares
// the ways it accepts (`waysIn`; by default all of them, tried in this order: an Authorization
// header, the web client's session cookie, the embedding application's hook); rate limits,
// deactivation and roles then apply the same to all of them.
import type { IncomingMessage } from 'node:http';
import type { Ctx, HostSignIn } from '../context.js';
import { SESSION_COOKIE, sessionOfToken, type OpenedSession, type SignedIn } from '../accounts/sessions.js';
import type { Credential } from '../domain/callers.js';
import { getRealm } from '../domain/realm.js';
import { missing, unauthorized, type ApiError } from '../errors.js';
import { parseBasicAuth } from '../http/basic_auth.js';
import { readCookie } from '../http/cookies.js';
import { checkSameOrigin } from '../http/same_origin.js';
import type { RequestInfo } from '../http/request.js';

type Read = Credential | undefined | Promise<Credential | undefined>;

interface WayInReader {
  /**
   * The credential the request carries this way, or undefined when it does not use this way; a
   * promise only when the way must wait (the host's hook). Throws when the request uses this way
   * wrongly (a malformed header, a forged cross-site request).
   */
  read(ctx: Ctx, req: IncomingMessage): Read;
  /** The answer to a request that uses none of the route's ways, when this is the route's first. */
  absent(): ApiError;
}

const WAYS_IN = {
  /** Zulip's HTTP Basic: the account's email and API key. An explicit header wins over a cookie. */
  basic: {
    read(_ctx, req) {
      const header = req.headers.authorization;
      if (header === undefined || header.trim() === '') return undefined;
      const { email, apiKey } = parseBasicAuth(header);
      return { kind: 'apiKey', email, apiKey };
    },
    absent: () => unauthorized('Missing authorization header for basic auth'),
  },
  /**
   * The web client's session cookie (lib/accounts/sessions.ts). A cookie of no unexpired session
   * is as good as none (a signed-out browser may still send it); a state-changing request must
   * come from parley's own origin.
   */
  session: {
    read(ctx, req) {
      const token = readCookie(req, SESSION_COOKIE);
      if (token === undefined) return undefined;
      const session = sessionOfToken(ctx, token);
      if (session === undefined) return undefined;
      checkSameOrigin(req, () => ownOrigins(ctx));
      return { kind: 'session', userId: session.userId, sessionId: session.sessionId };
    },
    absent: () => unauthorized('Not logged in: API authentication or user session required'),
  },
  /**
   * The embedding application's own sign-in (options.authenticate), asked only when the request
   * brings neither an Authorization header nor a session: Basic-auth requests never wait for it.
   */
  host: {
    read(ctx, req) {
      const hook = ctx.options.authenticate;
      if (hook === undefined) return undefined;
      const named = hook(req);
      const credential = (value: HostSignIn) => {
        const found = hostCredential(value);
        if (found !== undefined) checkSameOrigin(req, () => ownOrigins(ctx));
        return found;
      };
      return named instanceof Promise ? named.then(credential) : credential(named);
    },
    absent: () => unauthorized('Not logged in: API authentication or user session required'),
  },
  /**
   * Zulip's webhook_view: an API key alone, as the `api_key` query parameter of the URL a service is
   * given (stripped, as Zulip strips it). Read from the query string only, before the body; the
   * value goes no further than the credential (the route's parameters and logs leave it out).
   * Only routes that name it take it (not in ALL_WAYS_IN).
   */
  webhookKey: {
    read(_ctx, req) {
      const url = req.url ?? '';
      const queryAt = url.indexOf('?');
      if (queryAt < 0) return undefined;
      const apiKey = new URLSearchParams(url.slice(queryAt + 1)).get('api_key');
      return apiKey === null ? undefined : { kind: 'webhookKey', apiKey: apiKey.trim() };
    },
    absent: () => missing('api_key'),
  },
} satisfies Record<string, WayInReader>;

export type WayIn = keyof typeof WAYS_IN;

/** Every way in, in the order they are tried. */
export const ALL_WAYS_IN: readonly WayIn[] = ['basic', 'session', 'host'];

/** The organization URL's origin: a proxy may present parley's pages under another Host. */
function ownOrigins(ctx: Ctx): string[] {
  return [new URL(getRealm(ctx).url).origin];
}

/** What the host's hook answered, as a credential; anything but a positive integer id is a bug of the host. */
function hostCredential(value: HostSignIn): Credential | undefined {
  if (value === null || value === undefined) return undefined;
  const userId = typeof value === 'number' ? value : value.userId;
  if (!Number.isSafeInteger(userId) || userId <= 0) {
    throw new Error('options.authenticate must answer a user id, { userId, bot }, or nothing');
  }
  return { kind: 'host', userId, bot: typeof value === 'object' && value.bot === true };
}

/**
 * The credential of the first of the route's ways in that the request uses, or the refusal of
 * the route's first way; a promise only when a way had to wait.
 */
export function credentialOf(ctx: Ctx, req: IncomingMessage, waysIn: readonly WayIn[] = ALL_WAYS_IN): Credential | Promise<Credential> {
  const from = (index: number): Credential | Promise<Credential> => {
    for (let i = index; i < waysIn.length; i += 1) {
      const read = WAYS_IN[waysIn[i]!].read(ctx, req);
      if (read instanceof Promise) return read.then((credential) => credential ?? from(i + 1));
      if (read !== undefined) return read;
    }
    throw WAYS_IN[waysIn[0] ?? 'basic'].absent();
  };
  return from(0);
}

/** Whether the organization is served over https: its session cookie is then `Secure`. */
function overHttps(ctx: Ctx): boolean {
  return getRealm(ctx).url.startsWith('https:');
}

/**
 * Refuses a public account request (a sign-in, a sign-up, a reset, a confirmation) from another
 * origin's page: forged logins, and emails sent at another site's bidding.
 */
export function checkPageOrigin(ctx: Ctx, request: RequestInfo): void {
  request.checkSameOrigin?.(() => ownOrigins(ctx));
}

function setSessionCookie(ctx: Ctx, request: RequestInfo, session: { token: string; maxAge: number }): void {
  request.setCookie?.(SESSION_COOKIE, session.token, { maxAge: session.maxAge, secure: overHttps(ctx) });
}

/**
 * A route that signs a browser in (a sign-in, a sign-up, a password reset): from parley's own
 * origin only, and the session it opens set as the answer's cookie.
 */
export async function signBrowserIn(ctx: Ctx, request: RequestInfo, open: () => Promise<SignedIn & { opened: OpenedSession }>): Promise<SignedIn> {
  checkPageOrigin(ctx, request);
  const { opened, ...signedIn } = await open();
  setSessionCookie(ctx, request, opened);
  return signedIn;
}

/** Signing out: the browser forgets the cookie. */
export function clearSessionCookie(ctx: Ctx, request: RequestInfo): void {
  request.setCookie?.(SESSION_COOKIE, '', { maxAge: 0, secure: overHttps(ctx) });
}
