// The route's half of POST /api/v1/external/{integration}: the request as sent (query string, form
// fields, headers, body bytes) turned into the WebhookRequest the integrations read, as Zulip's
// webhook views see it. The ways in (lib/routes/ways_in.ts) have already taken the `api_key`.
import type { RawRequest } from '../http/request.js';
import type { WebhookRequest } from './webhook.js';

/** Parameters the ways in consume: never passed on to an integration. */
const CREDENTIALS = new Set(['api_key']);

/**
 * Zulip reads a webhook's parameters from the form body first, then the query string (Django's
 * request.POST before request.GET); JSON bodies carry none. `declared`: the route's own parameters
 * as validated (over HTTP they come from the same query and form). Headers keep Node's lower-case
 * names (repeated ones joined by ", "); the body is decoded as UTF-8.
 */
export function toWebhookRequest(raw: RawRequest, declared: Readonly<Record<string, string | undefined>> = {}): WebhookRequest {
  const params = new Map<string, string>();
  for (const [key, value] of Object.entries(declared)) if (value !== undefined) params.set(key, value);
  // A repeated parameter: its last value, as Django's QueryDict gives it.
  for (const [key, value] of raw.query) if (!CREDENTIALS.has(key)) params.set(key, value);
  for (const [key, value] of raw.form) if (!CREDENTIALS.has(key)) params.set(key, value);
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw.headers)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return { params, headers, contentType, body: raw.body.toString('utf8') };
}
