// Web Push in this browser: "Notify this browser when the tab is closed" (Settings →
// Notifications), off unless turned on. On: the Notification permission, the service worker
// (sw.ts, at the page's own address so that its scope is the client), a PushSubscription with the
// server's VAPID key, registered with the server. Off, or signing out: unregistered and
// unsubscribed. The server then pushes what Zulip's rules push to phones (docs/notifications.md).
import type { BrowserSubscription, WebPushRequests } from './requests/web_push.js';

/** The service worker, next to the page (web/build.mjs writes it; lib/http/web_client.ts serves it). */
const SERVICE_WORKER = 'sw.js';

export const webPushSupported = (): boolean =>
  typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof PushManager !== 'undefined' && typeof Notification !== 'undefined';

const serviceWorkerUrl = () => new URL(SERVICE_WORKER, document.baseURI).href;

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return webPushSupported() ? navigator.serviceWorker.getRegistration(serviceWorkerUrl()) : undefined;
}

/** This browser's push subscription, if it has one. */
export async function browserSubscription(): Promise<PushSubscription | null> {
  return (await registration())?.pushManager.getSubscription() ?? null;
}

const toBase64Url = (bytes: ArrayBuffer | null): string =>
  btoa(String.fromCharCode(...new Uint8Array(bytes ?? new ArrayBuffer(0)))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

function asServerSubscription(s: PushSubscription): BrowserSubscription {
  return { endpoint: s.endpoint, p256dh: toBase64Url(s.getKey('p256dh')), auth: toBase64Url(s.getKey('auth')) };
}

/** Why turning it on failed, in the user's words. */
export class WebPushRefused extends Error {}

/** Turns it on: asks for the permission, subscribes this browser, tells the server. */
export async function turnOnWebPush(requests: WebPushRequests): Promise<void> {
  if (!webPushSupported()) throw new WebPushRefused('This browser cannot be notified with the tab closed.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new WebPushRefused("This browser blocks notifications from parley: allow them in the browser's site settings.");
  await navigator.serviceWorker.register(serviceWorkerUrl(), { scope: './' });
  const ready = await navigator.serviceWorker.ready;
  const key = fromBase64Url(await requests.key());
  let subscription: PushSubscription;
  try {
    subscription = (await ready.pushManager.getSubscription()) ?? (await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  } catch {
    throw new WebPushRefused("This browser's push service cannot be reached.");
  }
  try {
    await requests.subscribe(asServerSubscription(subscription));
  } catch (error) {
    // Not on for the server: not on for the browser either.
    await subscription.unsubscribe();
    throw error;
  }
}

/** Turns it off: the server forgets this browser, and the browser its subscription. */
export async function turnOffWebPush(requests: WebPushRequests | undefined): Promise<void> {
  const subscription = await browserSubscription();
  if (!subscription) return;
  // Without a session (it stopped working) only the browser forgets: the push service then
  // answers the server that the subscription is gone, and the server deletes it.
  await requests?.unsubscribe(subscription.endpoint).catch(() => undefined);
  await subscription.unsubscribe();
}
