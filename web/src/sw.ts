// The service worker of Web Push (registered by web_push.ts only when the user turns it on): shows
// each notification the server pushes (lib/notifications/web_push.ts), and a click on one opens
// its conversation in a parley tab, an open one if there is one. It fetches nothing and caches
// nothing: the page works as without it.
import type { WebPushNotification } from './types.js';

// The web client is typed against the DOM library; what a service worker has besides, as used here.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ServiceWorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
}

const worker = globalThis as unknown as ServiceWorkerScope;

/** The payload, or what to show when it cannot be read (a push must show something). */
function notificationOf(event: PushEvent): Pick<WebPushNotification, 'title' | 'body' | 'tag' | 'url'> {
  try {
    const data = event.data?.json() as Partial<WebPushNotification> | undefined;
    if (data && typeof data.title === 'string' && typeof data.body === 'string' && typeof data.url === 'string' && data.url.startsWith('#')) {
      return { title: data.title, body: data.body, tag: typeof data.tag === 'string' ? data.tag : '', url: data.url };
    }
  } catch {
    // Not JSON: the generic notification below.
  }
  return { title: 'parley', body: 'New message', tag: '', url: '#' };
}

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
// Open tabs come under this worker at once: a click can then move one to its conversation.
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener('push', (event) => {
  const n = notificationOf(event);
  // The tag is the open tab's for the same conversation (web/src/notify.ts): one replaces the other.
  event.waitUntil(worker.registration.showNotification(n.title, { body: n.body, ...(n.tag ? { tag: n.tag } : {}), data: { url: n.url } }));
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { url } = (event.notification.data ?? {}) as { url?: string };
  // Only the client's own addresses: the page, at a view's # address.
  const target = new URL(typeof url === 'string' && url.startsWith('#') ? url : '#', worker.registration.scope).href;
  event.waitUntil(
    (async () => {
      const tabs = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = tabs.find((c) => c.url.startsWith(worker.registration.scope));
      // A tab this worker does not control cannot be moved: a new one then.
      const moved = tab && (await tab.navigate(target).catch(() => null));
      if (!moved) return void (await worker.clients.openWindow(target));
      // Only a real click lets a worker bring a window to the front.
      await moved.focus().catch(() => undefined);
    })(),
  );
});
