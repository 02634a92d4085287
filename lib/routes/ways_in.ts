// The ways into a route over HTTP: each reads its own credential from the request, and
// lib/domain/callers.ts makes the same Caller whichever way it came. A route declares
// the ways it accepts (`waysIn`, HTTP Basic by default); rate limits, deactivation and roles then
// apply the same to all of them.
import type { IncomingMessage } from 'node:http';
import type { Credential } from '../domain/callers.js';
import { missing, unauthorized, type ApiError } from '../errors.js';
import { parseBasicAuth } from '../http/basic_auth.js';

interface WayInReader {
  /** The credential the request carries this way, or undefined when it does not use this way. */
  read(req: IncomingMessage): Credential | undefined;
  /** The answer to a request that uses none of the route's ways, when this is the route's first. */
  absent(): ApiError;
}

const WAYS_IN = {
  /** Zulip's HTTP Basic: the account's email and API key. */
  basic: {
    read(req) {
      const header = req.headers.authorization;
      if (header === undefined || header.trim() === '') return undefined;
      const { email, apiKey } = parseBasicAuth(header);
      return { kind: 'apiKey', email, apiKey };
    },
    absent: () => unauthorized('Missing authorization header for basic auth'),
  },
  /**
   * Zulip's webhook_view: an API key alone, as the `api_key` query parameter of the URL a service is
   * given (stripped, as Zulip strips it). Read from the query string only, before the body; the
   * value never goes further than the credential (the route's parameters and logs leave it out).
   */
  webhookKey: {
    read(req) {
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

const BASIC_ONLY: readonly WayIn[] = ['basic'];

/** The credential of the first of the route's ways in that the request uses. */
export function credentialOf(req: IncomingMessage, waysIn: readonly WayIn[] = BASIC_ONLY): Credential {
  for (const way of waysIn) {
    const credential = WAYS_IN[way].read(req);
    if (credential !== undefined) return credential;
  }
  throw WAYS_IN[waysIn[0] ?? 'basic'].absent();
}
