// The route entry's half of POST /api/v1/external/{integration}, ready for the request pipeline:
// the raw request (query string, form fields, headers, body bytes) turned into the WebhookRequest
// the integrations read, as Zulip's webhook views see it. The pipeline authenticates the caller
// (the `api_key` parameter, or HTTP Basic auth) and then calls receiveWebhook.
import type { IncomingHttpHeaders } from 'node:http';
import type { WebhookRequest } from './webhook.js';

/** What the route needs the pipeline to hand over, before any body parsing of its own. */
export interface RawWebhookRequest {
  /** The query string's parameters. */
  query: URLSearchParams;
  /** A form-urlencoded or multipart body's fields; undefined for other bodies (JSON, text). */
  form: ReadonlyMap<string, string> | undefined;
  headers: IncomingHttpHeaders;
  /** The body's bytes as received (within the body limit), whatever its content type. */
  body: Buffer;
}

/** Parameters the pipeline consumes: never passed on to an integration. */
const CREDENTIALS = new Set(['api_key']);

/**
 * Zulip reads a webhook's parameters from the form body first, then the query string (Django's
 * request.POST before request.GET); JSON bodies carry none. Headers keep Node's lower-case names
 * (repeated ones joined by ", "); the body is decoded as UTF-8.
 */
export function toWebhookRequest(raw: RawWebhookRequest): WebhookRequest {
  const params = new Map<string, string>();
  // A repeated parameter: its last value, as Django's QueryDict gives it.
  for (const [key, value] of raw.query) if (!CREDENTIALS.has(key)) params.set(key, value);
  for (const [key, value] of raw.form ?? []) if (!CREDENTIALS.has(key)) params.set(key, value);
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw.headers)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return { params, headers, contentType, body: raw.body.toString('utf8') };
}
