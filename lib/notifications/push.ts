// Mobile push notifications of messages through the push bouncer (Zulip's handle_push_notification,
// handle_remove_push_notification; https://zulip.com/api/mobile-notifications): the deliveries.
import type { Ctx } from '../context.js';
import { enqueueDelivery, type DeliveryKind, type DeliveryOutcome } from '../deliveries/outbox.js';
import { FLAG } from '../domain/flags.js';
import { bouncerConfig } from '../domain/push_bouncer.js';
import { applyNotifyReply, encryptedRequests, isPushable, noteBouncerRefusal, type PushableDevice } from '../domain/push_notify.js';
import { getRealm, type Realm } from '../domain/realm.js';
import { gravatarUrl } from '../domain/avatars.js';
import { BouncerFailure, DEFAULT_BOUNCER_TIMEOUT_MS, notifyThroughBouncer, type PushRequest } from '../push/bouncer.js';
import { sodiumReady } from '../push/crypto.js';
import { selectPushableDevices } from '../store/devices.js';
import { clearPushed, markPushedIfUnread, selectPushedReadMessageIds, selectPushedUserIds } from '../store/notifications.js';
import { selectUserMessageFlags } from '../store/user_message.js';
import { selectUserById } from '../store/users.js';
import { groupName, notifiedMessage, topicDisplayName, type NotifiedMessage } from './message_view.js';
import { truncateContent } from './content.js';
import type { Decision } from './triggers.js';

/** Zulip's default delays between attempts at a bouncer request. */
const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000];
/** Push requests per bouncer request: more recipients go in further requests. */
const MAX_PUSH_REQUESTS = 200;
/** Zulip's MAX_APNS_MESSAGE_IDS: a removal names the newest 200 messages. */
const MAX_REMOVED_IDS = 200;

interface PushMessagePayload {
  message_id: number;
  /** The users to notify, in the order they are sent. */
  users: number[];
  /** The mentioned group to name, by user (those mentioned through a group only). */
  groups?: Record<string, number>;
}

interface PushRemovePayload {
  user_id: number;
  message_ids: number[];
}

const enabled = (ctx: Ctx) => bouncerConfig(ctx) !== undefined;

/** What every push delivery shares: sent while a bouncer is configured, with its timeout and retries. */
const bouncerDelivery = {
  enabled,
  timeoutMs: (ctx: Ctx) => ctx.options.push?.timeoutMs ?? DEFAULT_BOUNCER_TIMEOUT_MS,
  retryDelaysMs: (ctx: Ctx) => ctx.options.push?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
};

/** The organization, once libsodium is ready to encrypt for it. */
async function encryptingFor(ctx: Ctx): Promise<Realm> {
  await sodiumReady();
  return getRealm(ctx);
}

/** JSON with its keys sorted, as Zulip's payloads are. */
function sortedJson(value: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))));
}

/** Zulip's get_message_payload for E2EE (NotifPayloadNewMessage in the app). */
function messagePayload(realm: Realm, userId: number, m: NotifiedMessage, group: { id: number; name: string } | undefined, redact: boolean): string {
  const conversation = m.stream
    ? { recipient_type: 'channel', channel_id: m.stream.id, channel_name: m.stream.name, topic: topicDisplayName(m.row.topic) }
    : { recipient_type: 'direct', recipient_user_ids: m.directUserIds };
  return sortedJson({
    type: 'message',
    realm_url: realm.url,
    realm_name: realm.name,
    user_id: userId,
    sender_id: m.sender.id,
    sender_avatar_url: gravatarUrl(m.sender.email),
    sender_full_name: m.sender.full_name,
    message_id: m.row.id,
    time: m.row.date_sent,
    content: redact ? 'New message' : truncateContent(m.text),
    ...conversation,
    ...(group ? { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name } : {}),
  });
}

function pushableDevices(ctx: Ctx, userId: number): PushableDevice[] {
  return selectPushableDevices(ctx.store, userId, null).filter(isPushable);
}

/** Zulip's reading of a bouncer failure for a notification: retry what may pass later, drop the rest. */
function failureOutcome<P>(ctx: Ctx, error: unknown, rest: P): DeliveryOutcome<P> {
  if (!(error instanceof BouncerFailure)) throw error;
  noteBouncerRefusal(ctx, error);
  if (error.kind === 'network' || error.kind === 'server' || error.kind === 'credentials') {
    return { status: 'retry', reason: `push bouncer: ${error.kind}`, code: error.code, payload: rest };
  }
  return { status: 'failed', reason: `push bouncer refused the notification (${error.kind})`, code: error.code };
}

/** Writes the push delivery of a message's notified users (call in the send transaction). */
export function queuePushNotifications(ctx: Ctx, messageId: number, decisions: readonly Decision[]): void {
  if (decisions.length === 0) return;
  const groups: Record<string, number> = {};
  for (const d of decisions) if (d.mentionedGroupId !== null) groups[d.userId] = d.mentionedGroupId;
  const payload: PushMessagePayload = { message_id: messageId, users: decisions.map((d) => d.userId) };
  if (Object.keys(groups).length > 0) payload.groups = groups;
  enqueueDelivery(ctx, pushMessageDelivery, payload);
}

export const pushMessageDelivery: DeliveryKind<PushMessagePayload> = {
  name: 'push_message',
  ...bouncerDelivery,
  async send(ctx, { payload, signal }) {
    const realm = await encryptingFor(ctx);
    // One read transaction: the message and each user's state as of one moment.
    const batch = ctx.tx(() => {
      const message = notifiedMessage(ctx, payload.message_id, realm.url);
      const requests: PushRequest[] = [];
      const sent: { userId: number; tokenId: string }[] = [];
      const users: number[] = [];
      let next = 0;
      for (; next < payload.users.length && requests.length < MAX_PUSH_REQUESTS; next++) {
        const userId = payload.users[next]!;
        const groupId = payload.groups?.[userId] ?? null;
        if (!message) break;
        const flags = selectUserMessageFlags(ctx.store, userId, message.row.id);
        // Zulip: not for a message read meanwhile, nor one already pushed, nor to a deactivated user.
        if (flags === undefined || (flags & (FLAG.read | FLAG.active_mobile_push_notification)) !== 0) continue;
        if (selectUserById(ctx.store, userId)?.is_active !== 1) continue;
        const devices = pushableDevices(ctx, userId);
        if (devices.length === 0) continue;
        const name = groupId === null ? undefined : groupName(ctx, groupId);
        const plaintext = messagePayload(realm, userId, message, name === undefined ? undefined : { id: groupId!, name }, ctx.options.push?.redactContent === true);
        for (const request of encryptedRequests(ctx, devices, plaintext)) {
          requests.push(request);
          sent.push({ userId, tokenId: request.token_id });
        }
        users.push(userId);
      }
      return { message, requests, sent, users, rest: { ...payload, users: payload.users.slice(next) } };
    });
    if (!batch.message) return { status: 'sent' };
    if (batch.requests.length > 0) {
      let reply;
      try {
        reply = await notifyThroughBouncer(bouncerConfig(ctx)!, { realm_uuid: realm.uuid, push_requests: batch.requests }, signal);
      } catch (error) {
        return failureOutcome(ctx, error, payload);
      }
      applyNotifyReply(ctx, batch.sent, reply);
      ctx.tx(() => {
        for (const userId of batch.users) {
          // Read while the request was on its way: the phone must drop what it just showed.
          if (!markPushedIfUnread(ctx.store, userId, payload.message_id)) queuePushRemoval(ctx, userId, [payload.message_id]);
        }
      });
    }
    return batch.rest.users.length > 0 ? { status: 'later', dueAt: ctx.clock(), payload: batch.rest } : { status: 'sent' };
  },
};

function queuePushRemoval(ctx: Ctx, userId: number, messageIds: number[]): void {
  if (enabled(ctx)) enqueueDelivery(ctx, pushRemoveDelivery, { user_id: userId, message_ids: messageIds });
}

/**
 * Withdraws the push notifications of the user's messages that are read now (call in the
 * transaction that marked them read): Zulip's do_clear_mobile_push_notifications_for_ids.
 */
export function withdrawReadPushNotifications(ctx: Ctx, userId: number): void {
  const ids = selectPushedReadMessageIds(ctx.store, userId);
  if (ids.length === 0) return;
  clearPushed(ctx.store, userId, ids);
  queuePushRemoval(ctx, userId, ids);
}

/** Withdraws a message's push notifications from every phone showing it (call before deleting it). */
export function withdrawDeletedPushNotifications(ctx: Ctx, messageId: number): void {
  for (const userId of selectPushedUserIds(ctx.store, messageId)) queuePushRemoval(ctx, userId, [messageId]);
}

export const pushRemoveDelivery: DeliveryKind<PushRemovePayload> = {
  name: 'push_remove',
  ...bouncerDelivery,
  async send(ctx, { payload, signal }) {
    const realm = await encryptingFor(ctx);
    const devices = pushableDevices(ctx, payload.user_id);
    if (devices.length === 0) return { status: 'sent' };
    const messageIds = [...payload.message_ids].sort((a, b) => a - b).slice(-MAX_REMOVED_IDS);
    const plaintext = sortedJson({ type: 'remove', realm_url: realm.url, realm_name: realm.name, user_id: payload.user_id, message_ids: messageIds });
    const requests = encryptedRequests(ctx, devices, plaintext, true);
    try {
      const reply = await notifyThroughBouncer(bouncerConfig(ctx)!, { realm_uuid: realm.uuid, push_requests: requests }, signal);
      applyNotifyReply(ctx, requests.map((r) => ({ userId: payload.user_id, tokenId: r.token_id })), reply);
    } catch (error) {
      return failureOutcome(ctx, error, payload);
    }
    return { status: 'sent' };
  },
};
