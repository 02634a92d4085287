// The ways into a route over HTTP: each reads its own credential from the request, and
// lib/domain/callers.ts makes the same Caller whichever way it came. A route declares
// the ways it accepts (`waysIn`, HTTP Basic by default); rate limits, deactivation and roles then
// apply the same to all of them.
import type { IncomingMessage } from 'node:http';
import type { Credential } from '../domain/callers.js';
import { unauthorized, type ApiError } from '../errors.js';
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
