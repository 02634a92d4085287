// Who a new message notifies, decided in its send transaction as Zulip's get_recipient_info and
// process_message_event do (zerver/actions/message_send.py, zerver/tornado/event_queue.py), and
// written as deliveries: one push delivery and one hook delivery per message, a missed-message
// email entry per emailed user. Set-based: a few indexed reads per send whatever the channel's
// size, nothing at all when no channel (push, email, the application's hook) is on.
import type { Ctx } from '../context.js';
import { FLAG } from '../domain/flags.js';
import { OFFLINE_THRESHOLD_SECONDS } from '../domain/presence_dicts.js';
import { getRealm, pushNotificationsEnabled } from '../domain/realm.js';
import { emailEnabled } from '../domain/email.js';
import type { StreamRow } from '../store/streams.js';
import {
  selectHasMessageQueue,
  selectLastActiveTime,
  selectSubscriptionNotificationRows,
  selectTopicPolicies,
  selectUsersActiveSince,
  selectUsersWithMessageQueues,
  selectUsersWithPushDevices,
} from '../store/notifications.js';
import { queueMissedMessageEmails } from './email.js';
import { hookEnabled, queueHookNotifications } from './hook.js';
import { queuePushNotifications } from './push.js';
import { notificationSettings, type NotificationSettings } from './settings.js';
import { allowsInTopic, emailTrigger, pushTrigger, VISIBILITY, type Decision, type RecipientNotificationData } from './triggers.js';

/** A message just written, as its send transaction knows it. */
export interface SentMessage {
  id: number;
  senderId: number;
  /** The channel of a channel message; undefined for a direct message. */
  stream: StreamRow | undefined;
  topic: string;
  recipients: readonly number[];
  /** Each recipient's flag bits, as written. */
  flags: readonly number[];
  /** Recipients that are bots: never notified. */
  bots: ReadonlySet<number>;
  /** Recipients who muted the sender. */
  mutingSender: ReadonlySet<number>;
  /** Users mentioned by name, and the groups mentioned with their members. */
  directMentions: ReadonlySet<number>;
  mentionedGroups: readonly { id: number; name: string; memberIds: readonly number[] }[];
}

/** Above this many users, one scan of a table beats a lookup per user. */
const SCAN_THRESHOLD = 32;

const WILDCARD = FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/** Zulip's get_user_group_mentions_data: the smallest mentioned group of each member not mentioned by name. */
function mentionedGroupOf(message: SentMessage): Map<number, { id: number; size: number }> {
  const byUser = new Map<number, { id: number; size: number }>();
  for (const group of message.mentionedGroups) {
    for (const userId of group.memberIds) {
      if (message.directMentions.has(userId)) continue;
      const previous = byUser.get(userId);
      if (!previous || previous.size > group.memberIds.length) byUser.set(userId, { id: group.id, size: group.memberIds.length });
    }
  }
  return byUser;
}

/** The recipients a channel message could notify if they were idle, before their settings are read. */
function channelCandidates(message: SentMessage, settings: NotificationSettings, policies: Map<number, number>, subRows: Map<number, { push_notifications: number | null; email_notifications: number | null }>): Set<number> {
  const flagsOf = new Map<number, number>();
  message.recipients.forEach((userId, i) => flagsOf.set(userId, message.flags[i]!));
  const candidates = new Set<number>();
  message.recipients.forEach((userId, i) => {
    if ((message.flags[i]! & (FLAG.mentioned | WILDCARD)) !== 0) candidates.add(userId);
  });
  for (const [userId, policy] of policies) if (policy === VISIBILITY.followed && flagsOf.has(userId)) candidates.add(userId);
  for (const name of ['enable_stream_push_notifications', 'enable_stream_email_notifications'] as const) {
    for (const userId of settings.usersWith(name, true)) if (flagsOf.has(userId)) candidates.add(userId);
  }
  for (const [userId, row] of subRows) if ((row.push_notifications === 1 || row.email_notifications === 1) && flagsOf.has(userId)) candidates.add(userId);
  return candidates;
}

/** Zulip's UserMessageNotificationsData.from_user_id_sets for one recipient. */
function recipientData(message: SentMessage, userId: number, flags: number, settings: NotificationSettings, policy: number, sub: { is_muted: number; push_notifications: number | null; email_notifications: number | null; wildcard_mentions_notify: number | null } | undefined): RecipientNotificationData {
  const pushOff = !settings.flag(userId, 'enable_offline_push_notifications');
  const emailOff = !settings.flag(userId, 'enable_offline_email_notifications');
  const direct = message.stream === undefined;
  const mentioned = (flags & FLAG.mentioned) !== 0;
  const channelMuted = sub?.is_muted === 1;
  const bit = (v: number | null | undefined) => (v === null || v === undefined ? null : v === 1);
  const allows = (own: number | null | undefined, global: boolean) => !direct && allowsInTopic(channelMuted, policy, bit(own), global);
  const followed = !direct && policy === VISIBILITY.followed;
  const wildcard = allows(sub?.wildcard_mentions_notify, settings.flag(userId, 'wildcard_mentions_notify'));
  const followedWildcard = followed && settings.flag(userId, 'enable_followed_topic_wildcard_mentions_notify');
  const topicWildcard = (flags & FLAG.topic_wildcard_mentioned) !== 0;
  const streamWildcard = (flags & FLAG.stream_wildcard_mentioned) !== 0;
  return {
    onlinePushEnabled: settings.flag(userId, 'enable_online_push_notifications'),
    dmPush: direct && !pushOff,
    dmEmail: direct && !emailOff,
    mentionPush: mentioned && !pushOff,
    mentionEmail: mentioned && !emailOff,
    topicWildcardInFollowedPush: topicWildcard && followedWildcard && !pushOff,
    topicWildcardInFollowedEmail: topicWildcard && followedWildcard && !emailOff,
    streamWildcardInFollowedPush: streamWildcard && followedWildcard && !pushOff,
    streamWildcardInFollowedEmail: streamWildcard && followedWildcard && !emailOff,
    topicWildcardPush: topicWildcard && wildcard && !pushOff,
    topicWildcardEmail: topicWildcard && wildcard && !emailOff,
    streamWildcardPush: streamWildcard && wildcard && !pushOff,
    streamWildcardEmail: streamWildcard && wildcard && !emailOff,
    followedTopicPush: followed && settings.flag(userId, 'enable_followed_topic_push_notifications'),
    followedTopicEmail: followed && settings.flag(userId, 'enable_followed_topic_email_notifications'),
    streamPush: allows(sub?.push_notifications, settings.flag(userId, 'enable_stream_push_notifications')),
    streamEmail: allows(sub?.email_notifications, settings.flag(userId, 'enable_stream_email_notifications')),
  };
}

/**
 * Zulip's idleness: no event queue that receives messages (receiver_is_off_zulip), or presence
 * not active within OFFLINE_THRESHOLD_SECONDS (filter_presence_idle_user_ids).
 */
function idleUsers(ctx: Ctx, userIds: readonly number[]): Set<number> {
  const since = ctx.now() - OFFLINE_THRESHOLD_SECONDS;
  if (userIds.length > SCAN_THRESHOLD) {
    const queued = selectUsersWithMessageQueues(ctx.store);
    const active = selectUsersActiveSince(ctx.store, since);
    return new Set(userIds.filter((id) => !queued.has(id) || !active.has(id)));
  }
  return new Set(userIds.filter((id) => !selectHasMessageQueue(ctx.store, id) || (selectLastActiveTime(ctx.store, id) ?? -Infinity) < since));
}

/** Who has a phone to push to, kept until any process changes a device's token. */
function usersWithPushDevices(ctx: Ctx): ReadonlySet<number> {
  return ctx.cached('device', () => selectUsersWithPushDevices(ctx.store));
}

/**
 * Decides a new message's notifications and writes their deliveries. Call in the send
 * transaction, after the message's user_message rows.
 */
export function decideMessageNotifications(ctx: Ctx, message: SentMessage): void {
  const push = pushNotificationsEnabled(ctx, getRealm(ctx));
  const email = emailEnabled(ctx);
  const hook = hookEnabled(ctx);
  if (!push && !email && !hook) return;
  const decisions = decide(ctx, message, { email: email || hook });
  if (decisions.length === 0) return;
  if (push) {
    const phones = usersWithPushDevices(ctx);
    queuePushNotifications(ctx, message.id, decisions.filter((d) => d.push !== null && phones.has(d.userId)));
  }
  if (email) queueMissedMessageEmails(ctx, message.id, decisions.filter((d) => d.email !== null));
  if (hook) queueHookNotifications(ctx, message.id, decisions);
}

/** Every recipient's push and email triggers (email only when `email` is wanted). */
function decide(ctx: Ctx, message: SentMessage, wanted: { email: boolean }): Decision[] {
  const settings = notificationSettings(ctx);
  const stream = message.stream;
  const policies = stream ? selectTopicPolicies(ctx.store, stream.id, message.topic) : new Map<number, number>();
  const subRows = stream ? selectSubscriptionNotificationRows(ctx.store, stream.id) : new Map();
  const candidates = stream ? channelCandidates(message, settings, policies, subRows) : new Set(message.recipients);
  if (candidates.size === 0) return [];
  const flagsOf = new Map<number, number>();
  message.recipients.forEach((userId, i) => flagsOf.set(userId, message.flags[i]!));
  const groups = message.mentionedGroups.length > 0 ? mentionedGroupOf(message) : new Map<number, { id: number }>();

  // Zulip's trivially_should_not_notify: the sender, who muted the sender; and bots are never notified.
  const eligible: { userId: number; data: RecipientNotificationData }[] = [];
  for (const userId of candidates) {
    if (userId === message.senderId || message.bots.has(userId) || message.mutingSender.has(userId)) continue;
    const data = recipientData(message, userId, flagsOf.get(userId)!, settings, policies.get(userId) ?? VISIBILITY.inherit, subRows.get(userId));
    const wouldPush = pushTrigger(data, true) !== null;
    const wouldEmail = wanted.email && emailTrigger(data, true) !== null;
    if (wouldPush || wouldEmail) eligible.push({ userId, data });
  }
  // Idleness costs queries: only for those whose notification depends on it.
  const needIdle = eligible.filter(({ data }) => wanted.email || !data.onlinePushEnabled).map((e) => e.userId);
  const idle = needIdle.length > 0 ? idleUsers(ctx, needIdle) : new Set<number>();
  const decisions: Decision[] = [];
  for (const { userId, data } of eligible) {
    const isIdle = idle.has(userId);
    const pushed = pushTrigger(data, isIdle);
    const emailed = wanted.email ? emailTrigger(data, isIdle) : null;
    if (pushed === null && emailed === null) continue;
    const group = pushed === 'mentioned' || emailed === 'mentioned' ? (groups.get(userId)?.id ?? null) : null;
    decisions.push({ userId, push: pushed, email: emailed, mentionedGroupId: group });
  }
  return decisions.sort((a, b) => a.userId - b.userId);
}
