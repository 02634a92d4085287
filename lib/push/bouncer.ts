// The push bouncer client: JSON POSTs to {bouncer}/api/v1/remotes/push/e2ee/{register,notify}
// with the server's Basic credentials and a timeout, and the classification of every reply into
// the cases Zulip's send_to_push_bouncer distinguishes (BouncerFailure.kind).
import nodeFetch from 'node-fetch';

export interface BouncerConfig {
  url: string;
  serverId: string;
  serverKey: string;
  fetch?: typeof nodeFetch | undefined;
  /** Zulip: 15 s. */
  timeoutMs?: number | undefined;
  userAgent: string;
}

/**
 * network: connection refused, DNS failure, timeout. server: any 5xx. credentials: the bouncer
 * rejects the server (INVALID_ZULIP_SERVER) or answered an unexpected status. missing_realm:
 * MISSING_REMOTE_REALM. disallowed: PUSH_NOTIFICATIONS_DISALLOWED. client: any other 4xx, with
 * the bouncer's code and message.
 */
export type BouncerFailureKind = 'network' | 'server' | 'credentials' | 'missing_realm' | 'disallowed' | 'client';

export class BouncerFailure extends Error {
  readonly kind: BouncerFailureKind;
  /** The bouncer's error code (client failures), or a description of what went wrong. */
  readonly code: string;
  readonly status: number | null;

  constructor(kind: BouncerFailureKind, code: string, message: string, status: number | null = null) {
    super(message);
    this.name = 'BouncerFailure';
    this.kind = kind;
    this.code = code;
    this.status = status;
  }

  /** Network errors and 5xx: worth retrying unchanged. */
  get transient(): boolean {
    return this.kind === 'network' || this.kind === 'server';
  }
}

/** Zulip's timeout of a bouncer request. */
export const DEFAULT_BOUNCER_TIMEOUT_MS = 15_000;

/** A JSON object the bouncer answered with, checked field by field where it is read. */
type BouncerReply = Record<string, unknown>;

/** Apple's `aps` dictionary of a notification: the alert shown until the app decrypts the payload, or a background push. */
interface ApsFields {
  'mutable-content'?: number;
  'content-available'?: number;
  alert?: { title?: string; body?: string };
}

export interface PushRequest {
  token_id: string;
  fcm_priority?: 'high' | 'normal';
  http_headers?: { apns_priority: number; apns_push_type: string };
  payload: { push_key_id: number; encrypted_data: string; aps?: ApsFields };
}

export interface NotifyReply {
  android_successfully_sent_count?: number;
  apple_successfully_sent_count?: number;
  delete_token_ids: string[];
  realm_push_status?: { can_push?: boolean; expected_end_timestamp?: number | null } | undefined;
}

export interface RegisterRequest {
  realm_uuid: string;
  token_id: string;
  bouncer_public_key: string;
  encrypted_push_registration: string;
}

/** POST push/e2ee/register; resolves when the bouncer accepted the registration. */
export async function registerWithBouncer(
  config: BouncerConfig,
  request: RegisterRequest,
  signal?: AbortSignal,
): Promise<BouncerReply> {
  return postToBouncer(config, 'push/e2ee/register', request, signal);
}

/** POST push/e2ee/notify. */
export async function notifyThroughBouncer(
  config: BouncerConfig,
  request: { realm_uuid: string; push_requests: PushRequest[] },
  signal?: AbortSignal,
): Promise<NotifyReply> {
  const reply = await postToBouncer(config, 'push/e2ee/notify', request, signal);
  const deleted = Array.isArray(reply.delete_token_ids) ? reply.delete_token_ids.filter((id): id is string => typeof id === 'string') : [];
  const status = reply.realm_push_status;
  return {
    ...reply,
    delete_token_ids: deleted,
    realm_push_status: status !== null && typeof status === 'object' ? (status as NotifyReply['realm_push_status']) : undefined,
  };
}

/** `signal` lets the caller give up early (server shutdown); it counts as a network failure. */
async function postToBouncer(
  config: BouncerConfig,
  endpoint: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<BouncerReply> {
  const fetch = config.fetch ?? nodeFetch;
  const url = `${config.url.replace(/\/+$/, '')}/api/v1/remotes/${endpoint}`;
  const authorization = 'Basic ' + Buffer.from(`${config.serverId}:${config.serverKey}`).toString('base64');
  const timeoutMs = config.timeoutMs ?? DEFAULT_BOUNCER_TIMEOUT_MS;
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', 'user-agent': config.userAgent },
      body: JSON.stringify(body),
      // Covers the body as well: a bouncer that sends headers and then stalls also times out.
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const reason = signal?.aborted ? 'cancelled' : (error as { name?: string }).name === 'AbortError' ? 'timeout' : 'connection';
    throw new BouncerFailure('network', reason, `push bouncer ${reason}`);
  }
  return classifyReply(status, text);
}

function parseObject(text: string): BouncerReply | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as BouncerReply) : undefined;
  } catch {
    return undefined;
  }
}

/** Zulip's send_to_push_bouncer, reply by reply. */
function classifyReply(status: number, text: string): BouncerReply {
  if (status >= 500) throw new BouncerFailure('server', `HTTP_${status}`, `push bouncer answered HTTP ${status}`, status);
  const body = parseObject(text);
  if (status >= 400) {
    const code = typeof body?.code === 'string' ? body.code : '';
    const msg = typeof body?.msg === 'string' ? body.msg : '';
    if (code === 'INVALID_ZULIP_SERVER') throw new BouncerFailure('credentials', code, 'push bouncer rejected the server credentials', status);
    if (code === 'PUSH_NOTIFICATIONS_DISALLOWED') throw new BouncerFailure('disallowed', code, 'push bouncer: plan does not allow push', status);
    if (code === 'MISSING_REMOTE_REALM') throw new BouncerFailure('missing_realm', code, 'push bouncer does not know this organization', status);
    if (!body || msg === '') throw new BouncerFailure('credentials', `HTTP_${status}`, `push bouncer answered HTTP ${status} without an error body`, status);
    throw new BouncerFailure('client', code || 'BAD_REQUEST', msg, status);
  }
  if (status !== 200) throw new BouncerFailure('credentials', `HTTP_${status}`, `push bouncer answered unexpected HTTP ${status}`, status);
  // A 200 that is not a JSON object is the bouncer misbehaving, like a 5xx.
  if (!body) throw new BouncerFailure('server', 'INVALID_JSON', 'push bouncer answered 200 with a body that is not a JSON object', status);
  return body;
}
