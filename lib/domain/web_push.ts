// Web Push subscriptions (parley's own; Zulip's web app has none): GET /web_push/key, POST and
// DELETE /web_push/subscriptions, and the server's VAPID key pair (RFC 8292), made once and kept
// in the database. What is sent to them: lib/notifications/web_push.ts.
import { createECDH, createPublicKey } from 'node:crypto';
import { z } from 'zod';
import type { Ctx, WebPushOptions } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import {
  deleteOldestWebPushSubscriptions,
  deleteWebPushSubscription,
  insertVapidKey,
  selectFirstOwnerEmail,
  selectVapidKey,
  upsertWebPushSubscription,
  type VapidKeyRow,
} from '../store/web_push.js';
import { getRealm } from './realm.js';
import type { Actor } from './roles.js';

/** A user's browsers: registering one more drops the oldest (a browser given up long ago). */
export const MAX_WEB_PUSH_SUBSCRIPTIONS = 20;
/** Push services' subscription URLs are a few hundred characters. */
export const MAX_ENDPOINT_LENGTH = 2048;

export const webPushKeySchema = z.object({
  public_key: z.string().describe("The server's VAPID public key, base64url: PushManager.subscribe's applicationServerKey"),
});

/** The server's Web Push options, or undefined when it is off (`webPush: false`). */
export function webPushOptions(ctx: Ctx): WebPushOptions | undefined {
  const option = ctx.options.webPush;
  return option === false ? undefined : (option ?? {});
}

export function webPushEnabled(ctx: Ctx): boolean {
  return webPushOptions(ctx) !== undefined;
}

function webPushOff(): ApiError {
  return new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Web Push is not enabled on this server.');
}

/** The server's VAPID key pair, made on first use from the context's random source. */
export function vapidKey(ctx: Ctx): VapidKeyRow {
  const stored = selectVapidKey(ctx.store);
  if (stored) return stored;
  const ecdh = createECDH('prime256v1');
  // Random 32 bytes are a valid P-256 private key but for a chance of about 2^-32 (zero, or past
  // the curve's order): a few tries, so that a broken random source fails rather than loops.
  for (let tries = 0; ; tries++) {
    try {
      ecdh.setPrivateKey(ctx.random(32));
      break;
    } catch (error) {
      if (tries === 4) throw error;
    }
  }
  return ctx.tx(() => {
    insertVapidKey(ctx.store, { public_key: ecdh.getPublicKey().toString('base64url'), private_key: ecdh.getPrivateKey().toString('base64url') });
    // Another process may have stored its pair first: that one stands.
    return selectVapidKey(ctx.store)!;
  });
}

/** Who push services may contact: WebPushOptions.subject, else the https: organization URL, else mailto: the first owner. */
export function vapidSubject(ctx: Ctx): string {
  const configured = webPushOptions(ctx)?.subject;
  if (configured !== undefined) return configured;
  const url = getRealm(ctx).url;
  if (url.startsWith('https://')) return url;
  return `mailto:${selectFirstOwnerEmail(ctx.store) ?? 'postmaster@localhost'}`;
}

/** GET /web_push/key: the public key a browser subscribes with. */
export function getWebPushKey(ctx: Ctx, _actor: Actor): z.infer<typeof webPushKeySchema> {
  if (!webPushEnabled(ctx)) throw webPushOff();
  return { public_key: vapidKey(ctx).public_key };
}

function decodeBase64Url(value: string): Buffer | undefined {
  return /^[A-Za-z0-9_-]*={0,2}$/.test(value) ? Buffer.from(value.replace(/=+$/, ''), 'base64url') : undefined;
}

/** An https: URL that is no more than a URL (no credentials, no fragment). */
function checkEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw badRequest('Invalid endpoint: not a URL');
  }
  if (url.protocol !== 'https:') throw badRequest('Invalid endpoint: not an https: URL');
  if (url.username !== '' || url.password !== '' || url.hash !== '') throw badRequest('Invalid endpoint: a push service URL has no credentials or fragment');
  return url.href;
}

/** The browser's P-256 public key: 65 bytes, an uncompressed point on the curve. */
function checkP256dh(p256dh: string): string {
  const key = decodeBase64Url(p256dh);
  if (key?.length !== 65 || key[0] !== 4) throw badRequest('Invalid p256dh: not a base64url P-256 public key');
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: key.subarray(1, 33).toString('base64url'), y: key.subarray(33).toString('base64url') }, format: 'jwk' });
  } catch {
    throw badRequest('Invalid p256dh: not a point of P-256');
  }
  return key.toString('base64url');
}

function checkAuth(auth: string): string {
  const secret = decodeBase64Url(auth);
  if (secret?.length !== 16) throw badRequest('Invalid auth: not a base64url 16-byte secret');
  return secret.toString('base64url');
}

/**
 * POST /web_push/subscriptions: this browser's push subscription, for the caller. The same
 * endpoint again replaces its keys (and moves to the caller if another user had it: one browser
 * profile, one subscription); past MAX_WEB_PUSH_SUBSCRIPTIONS the caller's oldest goes.
 */
export function addWebPushSubscription(ctx: Ctx, actor: Actor, input: { endpoint: string; p256dh: string; auth: string }): Record<string, never> {
  if (!webPushEnabled(ctx)) throw webPushOff();
  const endpoint = checkEndpoint(input.endpoint);
  const p256dh = checkP256dh(input.p256dh);
  const auth = checkAuth(input.auth);
  return ctx.tx(() => {
    upsertWebPushSubscription(ctx.store, { user_id: actor.id, endpoint, p256dh, auth, created_at: ctx.clock() });
    deleteOldestWebPushSubscriptions(ctx.store, actor.id, MAX_WEB_PUSH_SUBSCRIPTIONS);
    return {};
  });
}

/** DELETE /web_push/subscriptions: the caller's subscription at this endpoint (the browser turned it off, or signed out). */
export function removeWebPushSubscription(ctx: Ctx, actor: Actor, input: { endpoint: string }): Record<string, never> {
  let endpoint = input.endpoint;
  try {
    endpoint = new URL(endpoint).href;
  } catch {
    // Not a URL: no subscription has it.
  }
  return ctx.tx(() => {
    if (!deleteWebPushSubscription(ctx.store, actor.id, endpoint)) throw badRequest('Subscription does not exist');
    return {};
  });
}
