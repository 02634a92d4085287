// The requests of Web Push (parley's own: GET /web_push/key, POST and DELETE
// /web_push/subscriptions); components reach them as `client.webPush`, through web_push.ts.
import type { Api } from '../api.js';
import type { WebPushKey } from '../types.js';

/** A PushSubscription as the server takes it: its endpoint and keys, base64url. */
export interface BrowserSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export class WebPushRequests {
  constructor(private readonly api: Api) {}

  /** The server's VAPID public key (base64url), PushManager.subscribe's applicationServerKey. */
  async key(): Promise<string> {
    return (await this.api.get<WebPushKey>('web_push/key')).public_key;
  }

  subscribe(subscription: BrowserSubscription): Promise<unknown> {
    return this.api.post('web_push/subscriptions', { ...subscription });
  }

  unsubscribe(endpoint: string): Promise<unknown> {
    return this.api.delete('web_push/subscriptions', { endpoint });
  }
}
