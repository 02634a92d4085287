// GET /web_push/key, POST /web_push/subscriptions, DELETE /web_push/subscriptions: Web Push to
// browsers whose tab is closed (parley's own, docs/notifications.md).
import { addWebPushSubscription, getWebPushKey, MAX_ENDPOINT_LENGTH, removeWebPushSubscription, webPushKeySchema } from '../domain/web_push.js';
import { maxCodePoints, str } from '../http/params.js';
import { noFields, route } from './route.js';

const endpoint = () => str(maxCodePoints(MAX_ENDPOINT_LENGTH)).describe("The PushSubscription's endpoint: the push service's https: URL");

export const webPushRoutes = {
  key: route({
    method: 'GET',
    path: '/web_push/key',
    access: 'human',
    summary: "The server's VAPID public key, for PushManager.subscribe",
    params: {},
    response: webPushKeySchema,
    errors: ['PUSH_SERVICE_NOT_CONFIGURED'],
    handler: (ctx, { actor }) => getWebPushKey(ctx, actor),
  }),
  subscribe: route({
    method: 'POST',
    path: '/web_push/subscriptions',
    access: 'human',
    summary: "Notify this browser (its PushSubscription) of the caller's messages when the tab is closed",
    params: {
      endpoint: endpoint(),
      p256dh: str(maxCodePoints(200)).describe("The subscription's P-256 public key, base64url (PushSubscription.getKey('p256dh'))"),
      auth: str(maxCodePoints(100)).describe("The subscription's authentication secret, base64url (PushSubscription.getKey('auth'))"),
    },
    response: noFields,
    errors: ['BAD_REQUEST', 'PUSH_SERVICE_NOT_CONFIGURED'],
    handler: (ctx, { actor }, p) => addWebPushSubscription(ctx, actor, p),
  }),
  unsubscribe: route({
    method: 'DELETE',
    path: '/web_push/subscriptions',
    transactional: true,
    access: 'human',
    summary: 'Stop notifying this browser (turned off, or signing out)',
    params: { endpoint: endpoint() },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => removeWebPushSubscription(ctx, actor, p),
  }),
};
