// Web Push notifications of messages: to the browsers (web_push_subscription) of the users the
// rules push to, the decision mobile push follows (decide.ts). Encrypted to each browser with
// aes128gcm (RFC 8291) and signed with the server's VAPID key (RFC 8292) by the web-push package,
// posted with node-fetch to the push service under the rule for URLs users supply (no private
// addresses, no redirects, a time limit); a subscription its push service says is gone (404,
// 410) is deleted.
import https from 'node:https';
import nodeFetch from 'node-fetch';
import webpush from 'web-push';
import { z } from 'zod';
import type { Ctx, WebPushOptions } from '../context.js';
import { enqueueDelivery, type DeliveryKind, type DeliveryOutcome } from '../deliveries/outbox.js';
import { FLAG } from '../domain/flags.js';
import { getRealm } from '../domain/realm.js';
import { userSetting } from '../domain/user_settings.js';
import { vapidKey, vapidSubject, webPushEnabled, webPushOptions } from '../domain/web_push.js';
import { isPrivateAddress, PRIVATE_ADDRESS, publicOnlyLookup } from '../proxy/addresses.js';
import { selectUserMessageFlags } from '../store/user_message.js';
import { selectUserById } from '../store/users.js';
import { deleteExpiredWebPushSubscription, selectWebPushSubscriptionsOf, type WebPushSubscriptionRow } from '../store/web_push.js';
import { truncateContent } from './content.js';
import { conversationHash, notifiedMessage, topicDisplayName, type NotifiedMessage } from './message_view.js';
import type { Decision } from './triggers.js';

const DEFAULT_TIMEOUT_MS = 10_000;
/** The notification delivery's waits between attempts, as mobile push's. */
const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000];
/** A notification a day old is no longer news. */
const DEFAULT_TTL_SECONDS = 86_400;
/** Requests to push services per attempt (more go in the next round), and at once. */
const MAX_REQUESTS = 50;
const CONCURRENT_REQUESTS = 10;

/** What a browser's service worker shows (web/src/sw.ts): the payload, encrypted to the browser. */
export const webPushNotificationSchema = z.object({
  type: z.literal('message'),
  message_id: z.int(),
  title: z.string().describe("As Zulip's desktop notifications: the sender and the conversation"),
  body: z.string().describe("The message as a phone shows it, cut to 200 characters (Zulip's get_mobile_push_content)"),
  tag: z.string().describe("The conversation: the browser shows one notification per tag, the open tab's included"),
  url: z.string().describe("The conversation in the web client, below the page's address (#channel/5/topic/lunch)"),
});
export type WebPushNotification = z.infer<typeof webPushNotificationSchema>;

interface WebPushPayload {
  message_id: number;
  /** Users whose browsers were not tried yet. */
  users: number[];
  /** Browsers whose push service did not take the notification: tried again. */
  retry?: { user_id: number; subscription_id: number }[];
}

/** Writes the Web Push delivery of a message's notified users with browsers (call in the send transaction). */
export function queueWebPushNotifications(ctx: Ctx, messageId: number, decisions: readonly Decision[]): void {
  if (decisions.length === 0) return;
  enqueueDelivery(ctx, webPushMessageDelivery, { message_id: messageId, users: decisions.map((d) => d.userId) });
}

/** The in-tab notification's tag for the same conversation (web/src/notify.ts), so that neither doubles the other. */
function tagOf(m: NotifiedMessage): string {
  return m.stream ? `channel:${m.stream.id}\u0000${m.row.topic.toLowerCase()}` : `dm:${m.directUserIds.join(',')}`;
}

/** Zulip's desktop notification wording (the web app's notification title and body). */
function notificationOf(ctx: Ctx, userId: number, m: NotifiedMessage): WebPushNotification {
  const text = ctx.options.push?.redactContent === true ? 'New message' : truncateContent(m.text);
  const common = { type: 'message' as const, message_id: m.row.id, tag: tagOf(m), url: conversationHash(m) };
  if (m.stream) return { ...common, title: `${m.sender.full_name} (#${m.stream.name} > ${topicDisplayName(m.row.topic)})`, body: text };
  const others = m.directUserIds.length - 2;
  const title = `${m.sender.full_name} ${others > 0 ? `(to you and ${others} more)` : '(to you)'}`;
  const body = userSetting(ctx, userId, 'pm_content_in_desktop_notifications') === false ? `New direct message from ${m.sender.full_name}` : text;
  return { ...common, title, body };
}

interface Target {
  userId: number;
  subscription: WebPushSubscriptionRow;
  notification: WebPushNotification;
}

/** The targets of one attempt, read in one transaction: the browsers to try again, then the next users' browsers. */
function targetsOf(ctx: Ctx, payload: WebPushPayload): { targets: Target[]; rest: number[] } | undefined {
  const message = notifiedMessage(ctx, payload.message_id, getRealm(ctx).url);
  if (!message) return undefined;
  const targets: Target[] = [];
  const notifications = new Map<number, WebPushNotification | null>();
  const notificationFor = (userId: number): WebPushNotification | null => {
    let notification = notifications.get(userId);
    if (notification === undefined) {
      const flags = selectUserMessageFlags(ctx.store, userId, message.row.id);
      // Not for a message read meanwhile or no longer the user's, nor to a deactivated user.
      const wanted = flags !== undefined && (flags & FLAG.read) === 0 && selectUserById(ctx.store, userId)?.is_active === 1;
      notification = wanted ? notificationOf(ctx, userId, message) : null;
      notifications.set(userId, notification);
    }
    return notification;
  };
  const retried = new Set<number>();
  for (const { user_id: userId, subscription_id: id } of payload.retry ?? []) {
    const notification = notificationFor(userId);
    // A browser registered since by another user is that user's now.
    const subscription = notification && selectWebPushSubscriptionsOf(ctx.store, userId).find((s) => s.id === id);
    if (subscription) targets.push({ userId, subscription, notification });
    retried.add(id);
  }
  let next = 0;
  for (; next < payload.users.length && targets.length < MAX_REQUESTS; next++) {
    const userId = payload.users[next]!;
    const notification = notificationFor(userId);
    if (!notification) continue;
    for (const subscription of selectWebPushSubscriptionsOf(ctx.store, userId)) {
      if (!retried.has(subscription.id)) targets.push({ userId, subscription, notification });
    }
  }
  return { targets, rest: payload.users.slice(next) };
}

type Result = 'sent' | 'gone' | 'retry' | 'refused';
type Vapid = NonNullable<webpush.RequestOptions['vapidDetails']>;

/** One browser's notification, posted to its push service; what came of it. */
async function post(ctx: Ctx, options: WebPushOptions, target: Target, vapid: Vapid, signal: AbortSignal): Promise<Result> {
  const { subscription } = target;
  const endpoint = new URL(subscription.endpoint);
  const allowPrivate = options.allowPrivateAddresses === true;
  const log = (reason: string) => ctx.logger.warn('web push not taken', { subscription_id: subscription.id, host: endpoint.host, reason });
  if (endpoint.protocol !== 'https:' || (!allowPrivate && isPrivateAddress(endpoint.hostname))) {
    log('refused address');
    return 'refused';
  }
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(target.notification),
      { vapidDetails: vapid, TTL: options.ttlSeconds ?? DEFAULT_TTL_SECONDS, contentEncoding: 'aes128gcm', urgency: 'high' },
    );
  } catch {
    log('cannot encrypt to its keys');
    return 'refused';
  }
  const fetch = options.fetch ?? nodeFetch;
  // An agent for this request only: its socket resolves the host through the refusing lookup.
  const agent = new https.Agent({ ...(allowPrivate ? {} : { lookup: publicOnlyLookup }) });
  try {
    const response = await fetch(subscription.endpoint, {
      method: 'POST',
      headers: details.headers as Record<string, string>,
      body: details.body,
      redirect: 'manual',
      agent,
      signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)]),
    });
    // The answer's body says nothing parley needs: not read, whatever its size.
    (response.body as unknown as { destroy?: () => void } | null)?.destroy?.();
    if (response.status >= 200 && response.status < 300) return 'sent';
    if (response.status === 404 || response.status === 410) return 'gone';
    log(`status ${response.status}`);
    return response.status === 429 || response.status >= 500 ? 'retry' : 'refused';
  } catch (error) {
    if ((error as { code?: string }).code === PRIVATE_ADDRESS) {
      log('refused address');
      return 'refused';
    }
    log(signal.aborted ? 'stopped' : 'network');
    return 'retry';
  } finally {
    agent.destroy();
  }
}

export const webPushMessageDelivery: DeliveryKind<WebPushPayload> = {
  name: 'web_push_message',
  enabled: webPushEnabled,
  timeoutMs: (ctx) => (webPushOptions(ctx)?.timeoutMs ?? DEFAULT_TIMEOUT_MS) * Math.ceil(MAX_REQUESTS / CONCURRENT_REQUESTS) + 5_000,
  retryDelaysMs: (ctx) => webPushOptions(ctx)?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  async send(ctx, { payload, signal }): Promise<DeliveryOutcome<WebPushPayload>> {
    const options = webPushOptions(ctx)!;
    const key = vapidKey(ctx);
    const vapid = { subject: vapidSubject(ctx), publicKey: key.public_key, privateKey: key.private_key };
    const batch = ctx.tx(() => targetsOf(ctx, payload));
    if (!batch) return { status: 'sent' };
    const results: Result[] = [];
    for (let i = 0; i < batch.targets.length; i += CONCURRENT_REQUESTS) {
      results.push(...(await Promise.all(batch.targets.slice(i, i + CONCURRENT_REQUESTS).map((target) => post(ctx, options, target, vapid, signal)))));
    }
    const gone = batch.targets.filter((_, i) => results[i] === 'gone');
    if (gone.length > 0) ctx.tx(() => gone.forEach((t) => deleteExpiredWebPushSubscription(ctx.store, t.subscription)));
    const retry = batch.targets.filter((_, i) => results[i] === 'retry').map((t) => ({ user_id: t.userId, subscription_id: t.subscription.id }));
    const next: WebPushPayload = { message_id: payload.message_id, users: batch.rest, ...(retry.length > 0 ? { retry } : {}) };
    // More users: their round now (a browser to retry goes with it); else the back-off.
    if (batch.rest.length > 0) return { status: 'later', dueAt: ctx.clock(), payload: next };
    if (retry.length > 0) return { status: 'retry', reason: 'a push service did not take the notification', payload: next };
    return { status: 'sent' };
  },
};
