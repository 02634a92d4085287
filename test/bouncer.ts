// A push bouncer stand-in for tests: a real HTTP server on 127.0.0.1 speaking Zulip's
// remotes/push/e2ee/{register,notify} protocol. It checks the server's Basic credentials, opens
// each registration sealed to its own key, plays the phone by decrypting every payload with the
// device's push key (libsodium crypto_secretbox_open_easy) and parsing it as Zulip's mobile app
// does, and can be told to fail in each way docs/push.md lists. Also: phone-side helpers to
// register devices.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sodium from 'libsodium-wrappers';
import { z } from 'zod';

/** How the stand-in answers one request. */
export type BouncerMode =
  | 'ok'
  | 'server_error' // 500
  | 'invalid_server' // 401 INVALID_ZULIP_SERVER (also what wrong credentials get)
  | 'missing_realm' // 400 MISSING_REMOTE_REALM
  | 'disallowed' // 403 PUSH_NOTIFICATIONS_DISALLOWED
  | 'delete_all' // 200, every token of the request in delete_token_ids
  | 'hang' // never answers
  | { status: number; body: unknown };

export type Endpoint = 'register' | 'notify';

export interface Registration {
  realm_uuid: string;
  token_id: string;
  token: string;
  token_kind: 'fcm' | 'apns';
}

export interface Delivery {
  token_id: string;
  push_key_id: number;
  kind: 'fcm' | 'apns';
  /** The decrypted payload. */
  payload: Record<string, unknown>;
}

export interface StandInBouncer {
  url: string;
  serverId: string;
  serverKey: string;
  /** Base64 of the stand-in's X25519 public key (the `bouncer_public_key` clients seal to). */
  publicKey: string;
  /** Default answer per endpoint; `script` entries are used first, one per request. */
  mode: Record<Endpoint, BouncerMode>;
  script: Record<Endpoint, BouncerMode[]>;
  /** realm_push_status.can_push in notify replies. */
  canPush: boolean;
  /** Tokens the next notify replies report deleted (as FCM/APNs would for uninstalled apps). */
  deleteTokenIds: Set<string>;
  /** The phone side: the push keys the phones hold, by push_key_id. */
  phoneKeys: Map<number, Uint8Array>;
  registrations: Map<string, Registration>;
  /** Every request, in order, after the credentials check. */
  requests: { endpoint: Endpoint; body: any }[];
  deliveries: Delivery[];
  /** Protocol violations the stand-in saw; a test ends by asserting there are none. */
  problems: string[];
  /** Called at the start of each request (e.g. to check the server holds no transaction). */
  onRequest?: (endpoint: Endpoint) => void;
  close(): Promise<void>;
}

const TEST_PAYLOAD_KEYS = ['realm_url', 'realm_name', 'user_id', 'type', 'time'];

// What the app (zulip-flutter, lib/api/notifications.dart) parses a decrypted payload as:
// NotifPayloadNewMessage or NotifPayloadRemove, each with the account's identity.
const identity = { realm_url: z.url(), realm_name: z.string().nullable(), user_id: z.int() };
const newMessagePayload = z
  .object({
    ...identity,
    type: z.literal('message'),
    sender_id: z.int(),
    sender_avatar_url: z.url(),
    sender_full_name: z.string(),
    message_id: z.int(),
    time: z.int(),
    content: z.string(),
    recipient_type: z.enum(['channel', 'direct']),
    channel_id: z.int().optional(),
    channel_name: z.string().optional(),
    topic: z.string().optional(),
    recipient_user_ids: z.array(z.int()).optional(),
    mentioned_user_group_id: z.int().optional(),
    mentioned_user_group_name: z.string().optional(),
  })
  .strict()
  .refine((p) => (p.channel_id !== undefined ? p.topic !== undefined && p.recipient_user_ids === undefined : p.recipient_user_ids !== undefined), 'a channel with a topic, or recipient_user_ids')
  .refine((p) => p.recipient_user_ids === undefined || (p.recipient_user_ids.includes(p.user_id) && p.recipient_user_ids.includes(p.sender_id) && p.recipient_user_ids.join() === [...p.recipient_user_ids].sort((a, b) => a - b).join()), 'recipient_user_ids sorted, with the user and the sender');
const removePayload = z.object({ ...identity, type: z.literal('remove'), message_ids: z.array(z.int()).min(1) }).strict();

export async function startBouncer(options: { serverId?: string; serverKey?: string } = {}): Promise<StandInBouncer> {
  await sodium.ready;
  const keyPair = sodium.crypto_box_keypair();
  const hanging = new Set<http.ServerResponse>();
  const bouncer: StandInBouncer = {
    url: '',
    serverId: options.serverId ?? 'a2b7c3d4-0000-4000-8000-00000000000a',
    serverKey: options.serverKey ?? randomBytes(24).toString('hex'),
    publicKey: Buffer.from(keyPair.publicKey).toString('base64'),
    mode: { register: 'ok', notify: 'ok' },
    script: { register: [], notify: [] },
    canPush: true,
    deleteTokenIds: new Set(),
    phoneKeys: new Map(),
    registrations: new Map(),
    requests: [],
    deliveries: [],
    problems: [],
    close: async () => {},
  };

  const reply = (res: http.ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, code: string, msg: string): void =>
    reply(res, status, { result: 'error', code, msg });

  function register(body: any, res: http.ServerResponse): void {
    if (body.bouncer_public_key !== bouncer.publicKey) return error(res, 400, 'INVALID_BOUNCER_PUBLIC_KEY', 'Invalid bouncer_public_key');
    let opened: any;
    try {
      const sealed = Buffer.from(String(body.encrypted_push_registration), 'base64');
      opened = JSON.parse(Buffer.from(sodium.crypto_box_seal_open(sealed, keyPair.publicKey, keyPair.privateKey)).toString('utf8'));
    } catch {
      return error(res, 400, 'INVALID_ENCRYPTED_PUSH_REGISTRATION', 'Invalid encrypted_push_registration');
    }
    if (Math.abs(Date.now() / 1000 - Number(opened.timestamp)) > 86400) return error(res, 400, 'REQUEST_EXPIRED', 'Request expired');
    if (tokenIdOf(String(opened.token)) !== body.token_id) bouncer.problems.push(`register: token_id ${body.token_id} is not the token's`);
    bouncer.registrations.set(body.token_id, { realm_uuid: body.realm_uuid, token_id: body.token_id, token: opened.token, token_kind: opened.token_kind });
    reply(res, 200, { result: 'success', msg: '', device_id: bouncer.registrations.size });
  }

  function deliver(request: any): void {
    const registration: Registration | undefined = bouncer.registrations.get(request.token_id);
    if (!registration) return;
    const { payload } = request;
    const problem = (text: string): void => void bouncer.problems.push(`notify ${request.token_id}: ${text}`);
    const key = bouncer.phoneKeys.get(payload.push_key_id);
    if (!key) return problem(`the phone has no key ${payload.push_key_id}`);
    const data = Buffer.from(String(payload.encrypted_data), 'base64');
    let plaintext: string;
    try {
      plaintext = Buffer.from(sodium.crypto_secretbox_open_easy(data.subarray(24), data.subarray(0, 24), key.subarray(1))).toString('utf8');
    } catch {
      return problem('payload does not decrypt with the device key');
    }
    const decrypted = JSON.parse(plaintext);
    if (JSON.stringify(decrypted) !== plaintext) problem('payload is not compact JSON');
    if (decrypted.type === 'test') {
      if (Object.keys(decrypted).join() !== TEST_PAYLOAD_KEYS.join()) problem(`payload keys ${Object.keys(decrypted)}`);
      if (!Number.isInteger(decrypted.time) || !Number.isInteger(decrypted.user_id)) problem('payload fields');
    } else {
      const parsed = (decrypted.type === 'remove' ? removePayload : newMessagePayload).safeParse(decrypted);
      if (!parsed.success) problem(`the app would not parse the payload: ${parsed.error.message}`);
      if (Object.keys(decrypted).join() !== Object.keys(decrypted).sort().join()) problem('payload keys not sorted');
    }
    // A removal goes at the lower priority (FCM normal; APNs 5, a background push).
    const removal = decrypted.type === 'remove';
    if (registration.token_kind === 'fcm') {
      if (request.fcm_priority !== (removal ? 'normal' : 'high') || 'http_headers' in request) problem('FCM request priority or http_headers');
      if (Object.keys(payload).join() !== 'push_key_id,encrypted_data') problem(`FCM payload keys ${Object.keys(payload)}`);
    } else {
      const headers = request.http_headers;
      const expected = removal ? { apns_priority: 5, apns_push_type: 'background' } : { apns_priority: 10, apns_push_type: 'alert' };
      if (JSON.stringify(headers) !== JSON.stringify(expected) || 'fcm_priority' in request) problem('APNs headers');
      const aps = removal ? { 'content-available': 1 } : { 'mutable-content': 1, alert: { title: 'New notification' } };
      if (JSON.stringify(payload.aps) !== JSON.stringify(aps)) problem('APNs aps');
    }
    bouncer.deliveries.push({ token_id: request.token_id, push_key_id: payload.push_key_id, kind: registration.token_kind, payload: decrypted });
  }

  function notify(body: any, res: http.ServerResponse, mode: BouncerMode): void {
    const requests: any[] = Array.isArray(body.push_requests) ? body.push_requests : [];
    const deleted = requests.map((r) => r.token_id).filter((id) => mode === 'delete_all' || bouncer.deleteTokenIds.has(id) || !bouncer.registrations.has(id));
    for (const request of requests) if (!deleted.includes(request.token_id)) deliver(request);
    const sent = (kind: string) => requests.filter((r) => !deleted.includes(r.token_id) && bouncer.registrations.get(r.token_id)?.token_kind === kind).length;
    reply(res, 200, {
      result: 'success',
      msg: '',
      android_successfully_sent_count: sent('fcm'),
      apple_successfully_sent_count: sent('apns'),
      delete_token_ids: deleted,
      realm_push_status: { can_push: bouncer.canPush, expected_end_timestamp: null },
    });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const endpoint: Endpoint | undefined =
      req.url === '/api/v1/remotes/push/e2ee/register' ? 'register' : req.url === '/api/v1/remotes/push/e2ee/notify' ? 'notify' : undefined;
    if (req.method !== 'POST' || !endpoint) return error(res, 404, 'BAD_REQUEST', 'Not found');
    bouncer.onRequest?.(endpoint);
    const expected = 'Basic ' + Buffer.from(`${bouncer.serverId}:${bouncer.serverKey}`).toString('base64');
    if (req.headers.authorization !== expected) {
      return error(res, 401, 'INVALID_ZULIP_SERVER', `Zulip server auth failure: key does not match role ${bouncer.serverId}`);
    }
    if (req.headers['content-type'] !== 'application/json') bouncer.problems.push(`${endpoint}: content-type ${req.headers['content-type']}`);
    if (!String(req.headers['user-agent']).startsWith('ZulipServer/')) bouncer.problems.push(`${endpoint}: user-agent ${req.headers['user-agent']}`);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!/^[0-9a-f-]{36}$/.test(String(body.realm_uuid))) bouncer.problems.push(`${endpoint}: realm_uuid ${body.realm_uuid}`);
    bouncer.requests.push({ endpoint, body });
    const mode = bouncer.script[endpoint].shift() ?? bouncer.mode[endpoint];
    if (mode === 'hang') return void hanging.add(res);
    if (mode === 'server_error') return error(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
    if (mode === 'invalid_server') return error(res, 401, 'INVALID_ZULIP_SERVER', 'Zulip server auth failure');
    if (mode === 'missing_realm') return error(res, 400, 'MISSING_REMOTE_REALM', 'Organization not registered');
    if (mode === 'disallowed') return error(res, 403, 'PUSH_NOTIFICATIONS_DISALLOWED', 'Your plan doesn\'t allow sending push notifications.');
    if (typeof mode === 'object') return reply(res, mode.status, mode.body);
    if (endpoint === 'register') return register(body, res);
    return notify(body, res, mode);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      bouncer.problems.push(`stand-in crashed: ${String(e)}`);
      if (!res.headersSent) error(res, 500, 'INTERNAL_SERVER_ERROR', 'stand-in crashed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bouncer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed: Promise<void> | undefined;
  bouncer.close = () => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
    });
    return closed;
  };
  return bouncer;
}

/** Base64 of the first 8 bytes of SHA-256(token): the id the server and bouncer know a token by. */
export function tokenIdOf(token: string): string {
  return createHash('sha256').update(token).digest().subarray(0, 8).toString('base64');
}

/** The phone side of a device: its FCM/APNs token and its push keys. */
export interface Phone {
  kind: 'fcm' | 'apns';
  token: string;
  tokenId: string;
  pushKey: Buffer;
  pushKeyId: number;
}

export function newPushKey(): Buffer {
  return Buffer.concat([Buffer.from([0x31]), randomBytes(32)]);
}

export function newPhone(kind: 'fcm' | 'apns' = 'fcm'): Phone {
  const token = kind === 'apns' ? randomBytes(32).toString('hex') : `fcm:${randomBytes(40).toString('base64url')}`;
  return { kind, token, tokenId: tokenIdOf(token), pushKey: newPushKey(), pushKeyId: randomBytes(4).readUInt32BE() };
}

/** What the phone seals to the bouncer's public key: Zulip's encrypted_push_registration. */
export function sealRegistration(bouncer: StandInBouncer, phone: Phone, timestamp = Math.floor(Date.now() / 1000)): string {
  const registration: Record<string, unknown> = { token: phone.token, token_kind: phone.kind, timestamp };
  if (phone.kind === 'apns') registration.ios_app_id = 'org.zulip.Zulip';
  const sealed = sodium.crypto_box_seal(JSON.stringify(registration), Buffer.from(bouncer.publicKey, 'base64'));
  return Buffer.from(sealed).toString('base64');
}

/** The four token fields of POST /mobile_push/register. */
export function tokenParams(bouncer: StandInBouncer, phone: Phone): Record<string, string> {
  return {
    token_kind: phone.kind,
    token_id: phone.tokenId,
    bouncer_public_key: bouncer.publicKey,
    encrypted_push_registration: sealRegistration(bouncer, phone),
  };
}

/** The two key fields; the phone starts holding the key it hands over. */
export function keyParams(bouncer: StandInBouncer, phone: Phone): Record<string, string | number> {
  bouncer.phoneKeys.set(phone.pushKeyId, phone.pushKey);
  return { push_key: phone.pushKey.toString('base64'), push_key_id: phone.pushKeyId };
}
