// The embedding application's hook: every notification parley decides on, after its message
// commits, to options.notify (a delivery, retried) and chat.notifications.subscribe's listeners.
import type { Ctx } from '../context.js';
import { enqueueDelivery, type DeliveryKind } from '../deliveries/outbox.js';
import { wakeDeliveries } from '../deliveries/runner.js';
import { getRealm } from '../domain/realm.js';
import { selectUserMessageFlags } from '../store/user_message.js';
import { selectUserById } from '../store/users.js';
import { conversationUrl, groupName, notifiedMessage, topicDisplayName } from './message_view.js';
import type { ChatNotification } from './notification.js';
import type { Decision, NotificationTrigger } from './triggers.js';

export type NotificationListener = (notification: ChatNotification) => void;

/** The recipients who share a decision. */
interface HookGroup {
  push: NotificationTrigger | null;
  email: NotificationTrigger | null;
  group: number | null;
  user_ids: number[];
}

interface HookPayload {
  message_id: number;
  recipients: HookGroup[];
}

const LISTENERS = Symbol('parley.notificationListeners');
const listeners = (ctx: Ctx): Set<NotificationListener> => ctx.once(LISTENERS, () => new Set<NotificationListener>());

export function hookEnabled(ctx: Ctx): boolean {
  return ctx.options.notify !== undefined || listeners(ctx).size > 0;
}

/** How many chat.notifications.subscribe listeners there are (a host keeps their organization open). */
export function notificationListenerCount(ctx: Ctx): number {
  return listeners(ctx).size;
}

/** chat.notifications.subscribe: returns the function that unsubscribes. */
export function subscribeToNotifications(ctx: Ctx, listener: NotificationListener): () => void {
  listeners(ctx).add(listener);
  wakeDeliveries(ctx);
  return () => void listeners(ctx).delete(listener);
}

/** Writes the hook delivery of a message's decisions (call in the send transaction). */
export function queueHookNotifications(ctx: Ctx, messageId: number, decisions: readonly Decision[]): void {
  if (decisions.length === 0) return;
  const groups = new Map<string, HookGroup>();
  for (const d of decisions) {
    const key = `${d.push}|${d.email}|${d.mentionedGroupId}`;
    const group = groups.get(key);
    if (group) group.user_ids.push(d.userId);
    else groups.set(key, { push: d.push, email: d.email, group: d.mentionedGroupId, user_ids: [d.userId] });
  }
  enqueueDelivery(ctx, notificationHookDelivery, { message_id: messageId, recipients: [...groups.values()] });
}

/** What is left of a payload once the first `done` recipients were handed over. */
function remaining(payload: HookPayload, done: number): HookPayload {
  const recipients: HookGroup[] = [];
  let skip = done;
  for (const group of payload.recipients) {
    if (skip >= group.user_ids.length) {
      skip -= group.user_ids.length;
      continue;
    }
    recipients.push({ ...group, user_ids: group.user_ids.slice(skip) });
    skip = 0;
  }
  return { ...payload, recipients };
}

/** The notifications of a payload whose recipients can still see the message, each with its position in the payload. */
function notificationsOf(ctx: Ctx, payload: HookPayload): { index: number; notification: ChatNotification }[] {
  const realm = getRealm(ctx);
  const message = notifiedMessage(ctx, payload.message_id, realm.url);
  if (!message) return [];
  const out: { index: number; notification: ChatNotification }[] = [];
  const flat = payload.recipients.flatMap(({ push, email, group, user_ids }) => user_ids.map((userId) => [userId, push, email, group] as const));
  flat.forEach(([userId, push, email, groupId], index) => {
    const user = selectUserById(ctx.store, userId);
    if (user?.is_active !== 1 || selectUserMessageFlags(ctx.store, userId, message.row.id) === undefined) return;
    const group = groupId === null ? undefined : groupName(ctx, groupId);
    out.push({
      index,
      notification: {
        recipient: { user_id: user.id, email: user.email, full_name: user.full_name },
        trigger: (push ?? email)!,
        push_trigger: push,
        email_trigger: email,
        message: {
          id: message.row.id,
          sender_id: message.sender.id,
          sender_full_name: message.sender.full_name,
          timestamp: message.row.date_sent,
          content: message.row.content,
          rendered_content: message.row.rendered_content,
          text: message.text,
        },
        conversation: message.stream
          ? { type: 'channel', channel_id: message.stream.id, channel_name: message.stream.name, topic: topicDisplayName(message.row.topic) }
          : { type: 'direct', user_ids: message.directUserIds },
        mentioned_user_group: group === undefined ? null : { id: groupId!, name: group },
        url: conversationUrl(realm.url, message),
      },
    });
  });
  return out;
}

export const notificationHookDelivery: DeliveryKind<HookPayload> = {
  name: 'notification_hook',
  enabled: hookEnabled,
  timeoutMs: () => 30_000,
  retryDelaysMs: () => [1_000, 5_000, 30_000, 120_000, 600_000],
  async send(ctx, { payload }) {
    const notify = ctx.options.notify;
    const pending = ctx.tx(() => notificationsOf(ctx, payload));
    for (const { index, notification } of pending) {
      if (notify) {
        try {
          await notify(notification);
        } catch (error) {
          ctx.logger.warn('notification hook failed', { message_id: payload.message_id, user_id: notification.recipient.user_id, error: String(error) });
          return { status: 'retry', reason: 'the notify hook threw', payload: remaining(payload, index) };
        }
      }
      for (const listener of listeners(ctx)) {
        try {
          listener(notification);
        } catch (error) {
          ctx.logger.warn('notification listener failed', { message_id: payload.message_id, error: String(error) });
        }
      }
    }
    return { status: 'sent' };
  },
};
