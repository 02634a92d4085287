// Missed-message emails, batched as Zulip's MissedMessageWorker does: per user, until their
// batching period has passed; then one email per conversation (https://zulip.com/help/email-notifications).
import type { Ctx } from '../context.js';
import { enqueueDelivery, type DeliveryKind } from '../deliveries/outbox.js';
import { sendEmail } from '../domain/email.js';
import { FLAG } from '../domain/flags.js';
import { getRealm } from '../domain/realm.js';
import {
  deleteMissedMessageEmails,
  insertMissedMessageEmail,
  selectHasMissedMessageEmails,
  selectMissedMessageEmails,
} from '../store/notifications.js';
import { selectUserMessageFlags } from '../store/user_message.js';
import { selectUserById } from '../store/users.js';
import { missedMessageEmail, type EmailedMessage } from './email_content.js';
import { groupName, notifiedMessage } from './message_view.js';
import { notificationSettings } from './settings.js';
import type { Decision, NotificationTrigger } from './triggers.js';

interface BatchPayload {
  user_id: number;
}

/** Zulip's realm_name_in_email_notifications_policy: 2 always names the organization; 1 (automatic) only for people in several, never here. */
const ALWAYS = 2;

function batchDelayMs(ctx: Ctx, userId: number): number {
  return (notificationSettings(ctx).of(userId).email_notifications_batching_period_seconds as number) * 1000;
}

/**
 * Adds a message to each emailed user's next missed-message email (call in the send
 * transaction): the user's pending batch, or a new one due after their batching period.
 */
export function queueMissedMessageEmails(ctx: Ctx, messageId: number, decisions: readonly Decision[]): void {
  const settings = notificationSettings(ctx);
  for (const d of decisions) {
    // Zulip's handle_missedmessage_emails sends nothing to a user with offline email off.
    if (!settings.of(d.userId).enable_offline_email_notifications === true) continue;
    insertMissedMessageEmail(ctx.store, d.userId, messageId, d.email!, d.mentionedGroupId);
    enqueueDelivery(ctx, missedMessageEmailDelivery, { user_id: d.userId }, { key: String(d.userId), delayMs: batchDelayMs(ctx, d.userId) });
  }
}

/** Zulip's buckets: a 1:1 conversation per sender, a group conversation, a channel's topic. */
function bucketKey(m: EmailedMessage): string {
  const row = m.message.row;
  if (row.stream_id !== null) return `c:${row.stream_id}:${row.topic.toLowerCase()}`;
  return m.message.directUserIds.length > 2 ? `g:${row.direct_group_id}` : `d:${row.direct_group_id}:${row.sender_id}`;
}

/** The batch's emails, written as email deliveries; the batch's rows are consumed. */
function sendBatch(ctx: Ctx, userId: number): void {
  const rows = selectMissedMessageEmails(ctx.store, userId);
  deleteMissedMessageEmails(ctx.store, userId);
  const user = selectUserById(ctx.store, userId);
  const settings = notificationSettings(ctx);
  if (!user || user.is_active !== 1 || user.bot_type !== null || settings.of(userId).enable_offline_email_notifications !== true) return;
  const realm = getRealm(ctx);
  const buckets = new Map<string, EmailedMessage[]>();
  for (const row of rows) {
    // Only messages that still exist and are still unread.
    const flags = selectUserMessageFlags(ctx.store, userId, row.message_id);
    if (flags === undefined || (flags & FLAG.read) !== 0) continue;
    const message = notifiedMessage(ctx, row.message_id, realm.url);
    if (!message) continue;
    const group = row.mentioned_group_id === null ? null : (groupName(ctx, row.mentioned_group_id) ?? null);
    const emailed = { message, trigger: row.trigger as NotificationTrigger, group };
    const key = bucketKey(emailed);
    buckets.set(key, [...(buckets.get(key) ?? []), emailed]);
  }
  const recipient = {
    user,
    showContent: settings.of(userId).message_content_in_email_notifications === true,
    realmNameInSubject: settings.of(userId).realm_name_in_email_notifications_policy === ALWAYS,
  };
  const names = new Map<number, string>();
  // Zulip sends the least recently active conversation first.
  const ordered = [...buckets.values()].sort((a, b) => a.at(-1)!.message.row.id - b.at(-1)!.message.row.id);
  for (const messages of ordered) {
    for (const id of messages[0]!.message.directUserIds) if (!names.has(id)) names.set(id, selectUserById(ctx.store, id)?.full_name ?? '');
    const content = missedMessageEmail(recipient, messages, realm, names);
    sendEmail(ctx, { to: user.email, ...content });
  }
}

/** A user's batch: due when their batching period has passed; composes the emails, the email deliveries send them. */
export const missedMessageEmailDelivery: DeliveryKind<BatchPayload> = {
  name: 'missed_message_email',
  enabled: () => true,
  timeoutMs: () => 10_000,
  retryDelaysMs: () => [1_000, 5_000, 30_000],
  async send(ctx, { payload }) {
    ctx.tx(() => sendBatch(ctx, payload.user_id));
    return { status: 'sent' };
  },
  succeeded(ctx, payload) {
    // A message decided while this batch was being sent starts the next one.
    if (selectHasMissedMessageEmails(ctx.store, payload.user_id)) {
      enqueueDelivery(ctx, missedMessageEmailDelivery, payload, { key: String(payload.user_id), delayMs: batchDelayMs(ctx, payload.user_id) });
    }
  },
};
