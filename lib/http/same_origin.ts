// Cross-site request forgery protection for the ways in a browser sends by itself (a cookie): a
// request that changes state must come from parley's own origin. Browsers say where a request
// comes from (Sec-Fetch-Site, else Origin); a request that says neither comes from no browser
// page, and is not forgeable that way. The approach of Go's net/http CrossOriginProtection and
// OWASP's "Fetch Metadata" and "Verifying Origin" defences.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Throws 403 CSRF_FAILED when a state-changing request comes from a page of another origin.
 * `ownOrigins` gives the origins parley is served at besides the request's own Host (the
 * organization URL's, which a proxy may present under another Host), asked only when needed.
 */
export function checkSameOrigin(req: IncomingMessage, ownOrigins: () => readonly string[]): void {
  if (SAFE_METHODS.has((req.method ?? 'GET').toUpperCase())) return;
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== '') {
    if (site === 'same-origin' || site === 'none') return;
    throw csrfFailed('the request came from another site');
  }
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw csrfFailed('the request came from another site');
  }
  if (parsed.host === req.headers.host || ownOrigins().includes(parsed.origin)) return;
  throw csrfFailed('the request came from another site');
}

/** Zulip's csrf_failure answer: 403 with code CSRF_FAILED. */
function csrfFailed(reason: string): ApiError {
  return new ApiError('CSRF_FAILED', `CSRF error: ${reason}`);
}
