// Who a new message notifies, decided in its send transaction as Zulip does (get_recipient_info,
// process_message_event), and written as deliveries: a few indexed reads per send.
import type { Ctx } from '../context.js';
import { FLAG } from '../domain/flags.js';
import { OFFLINE_THRESHOLD_SECONDS } from '../domain/presence_dicts.js';
import { getRealm, pushConfigured, pushNotificationsEnabled } from '../domain/realm.js';
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
import { selectBotIds } from '../store/users.js';
import { selectUsersWithWebPush } from '../store/web_push.js';
import { queueMissedMessageEmails } from './email.js';
import { hookEnabled, queueHookNotifications } from './hook.js';
import { queuePushNotifications } from './push.js';
import { queueWebPushNotifications } from './web_push.js';
import { webPushEnabled } from '../domain/web_push.js';
import { notificationSettings, type NotificationSettings, type UserNotificationSettings } from './settings.js';
import type { SettingValue } from '../domain/user_setting_types.js';
import { allowsInTopic, emailTrigger, pushTrigger, VISIBILITY, type Decision, type NotificationTrigger, type RecipientNotificationData } from './triggers.js';

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
  /**
   * For a big channel's message, whether a user receives it by a subscription period (with the
   * default flags and no row, so not in `recipients`): such a user is a recipient too when the
   * settings name them (lib/domain/message_send.ts).
   */
  receivesByPeriod?: ((userId: number) => boolean) | undefined;
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

/**
 * The recipients of a channel message who could be notified if they were idle beyond those its
 * flags name (mentions, wildcards): followers of the topic, and who turned the channel's or all
 * channels' notifications on. Usually none.
 */
function settingCandidates(settings: NotificationSettings, policies: Map<number, number>, subRows: Map<number, SubscriptionSettings>): Set<number> {
  const candidates = new Set<number>();
  for (const [userId, policy] of policies) if (policy === VISIBILITY.followed) candidates.add(userId);
  for (const name of ['enable_stream_push_notifications', 'enable_stream_email_notifications'] as const) {
    for (const userId of settings.usersWith(name, true)) candidates.add(userId);
  }
  for (const [userId, row] of subRows) if (row.push_notifications === 1 || row.email_notifications === 1) candidates.add(userId);
  return candidates;
}

type SubscriptionSettings = { is_muted: number; push_notifications: number | null; email_notifications: number | null; wildcard_mentions_notify: number | null };

/** Zulip's UserMessageNotificationsData.from_user_id_sets for one recipient. */
function recipientData(direct: boolean, flags: number, s: UserNotificationSettings, policy: number, sub: SubscriptionSettings | undefined): RecipientNotificationData {
  const bit = (v: number | null | undefined) => (v === null || v === undefined ? null : v === 1);
  const allows = (own: number | null | undefined, global: SettingValue) => !direct && allowsInTopic(sub?.is_muted === 1, policy, bit(own), global === true);
  const followed = !direct && policy === VISIBILITY.followed;
  const wildcard = allows(sub?.wildcard_mentions_notify, s.wildcard_mentions_notify);
  const followedWildcard = followed && s.enable_followed_topic_wildcard_mentions_notify === true;
  const topicWildcard = (flags & FLAG.topic_wildcard_mentioned) !== 0;
  const streamWildcard = (flags & FLAG.stream_wildcard_mentioned) !== 0;
  // Direct messages and every kind of mention need the offline setting of their channel.
  const reasons = (offline: SettingValue, followedTopic: SettingValue, stream: boolean) => ({
    dm: direct && offline === true,
    mention: (flags & FLAG.mentioned) !== 0 && offline === true,
    topicWildcardInFollowed: topicWildcard && followedWildcard && offline === true,
    streamWildcardInFollowed: streamWildcard && followedWildcard && offline === true,
    topicWildcard: topicWildcard && wildcard && offline === true,
    streamWildcard: streamWildcard && wildcard && offline === true,
    followedTopic: followed && followedTopic === true,
    stream,
  });
  return {
    onlinePushEnabled: s.enable_online_push_notifications === true,
    push: reasons(s.enable_offline_push_notifications, s.enable_followed_topic_push_notifications, allows(sub?.push_notifications, s.enable_stream_push_notifications)),
    email: reasons(s.enable_offline_email_notifications, s.enable_followed_topic_email_notifications, allows(sub?.email_notifications, s.enable_stream_email_notifications)),
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

/** The bots, never notified (nor able to trigger outgoing webhooks): kept until any process adds one. */
export function botIds(ctx: Ctx): ReadonlySet<number> {
  return ctx.cached('bot', () => selectBotIds(ctx.store));
}

/** Who has a phone to push to, kept until any process changes a device's token. */
function usersWithPushDevices(ctx: Ctx): ReadonlySet<number> {
  return ctx.cached('device', () => selectUsersWithPushDevices(ctx.store));
}

/** Who has a browser to notify (Web Push), kept until any process changes a subscription. */
function usersWithBrowsers(ctx: Ctx): ReadonlySet<number> {
  return webPushEnabled(ctx) ? ctx.cached('web_push', () => selectUsersWithWebPush(ctx.store)) : NOBODY;
}
const NOBODY: ReadonlySet<number> = new Set();

/**
 * Decides a new message's notifications and writes their deliveries (one push delivery, one Web
 * Push delivery and one hook delivery per message, a missed-message email entry per emailed
 * user). Call in the send transaction, after the message's user_message rows. Nothing happens
 * when no channel (push, Web Push, email, the application's hook) is on.
 */
export function decideMessageNotifications(ctx: Ctx, message: SentMessage, options: DecideOptions = {}): void {
  const pushable = pushConfigured(ctx);
  const email = emailEnabled(ctx);
  const hook = hookEnabled(ctx);
  const browsers = usersWithBrowsers(ctx);
  if (!pushable && !email && !hook && browsers.size === 0) return;
  const decisions = decide(ctx, message, { email: email || hook, edit: options.edit === true });
  if (decisions.length === 0) return;
  if (pushable && pushNotificationsEnabled(ctx, getRealm(ctx))) {
    const phones = usersWithPushDevices(ctx);
    queuePushNotifications(ctx, message.id, decisions.filter((d) => d.push !== null && phones.has(d.userId)));
  }
  // The browsers of those the rules push to, as their phones.
  if (browsers.size > 0) queueWebPushNotifications(ctx, message.id, decisions.filter((d) => d.push !== null && browsers.has(d.userId)));
  if (email) queueMissedMessageEmails(ctx, message.id, decisions.filter((d) => d.email !== null));
  if (hook) queueHookNotifications(ctx, message.id, decisions);
}

export interface DecideOptions {
  /**
   * The recipients are those an edit newly mentions (lib/domain/message_edit.ts): one whom the
   * channel's or the followed topic's settings notify was notified of the message already, and is
   * not again (Zulip's maybe_enqueue_notifications_for_message_update).
   */
  edit?: boolean;
}

/** Whether the channel's or the followed topic's settings notify the recipient of every message. */
const notifiedOfEveryMessage = (data: RecipientNotificationData): boolean =>
  data.push.stream || data.push.followedTopic || data.email.stream || data.email.followedTopic;

/** A recipient's data and triggers if idle: shared by recipients who differ in nothing that decides them. */
interface Assessed {
  data: RecipientNotificationData;
  push: NotificationTrigger | null;
  email: NotificationTrigger | null;
}

/** Every recipient's push and email triggers (email only when `email` is wanted), in recipient order. */
function decide(ctx: Ctx, message: SentMessage, wanted: { email: boolean; edit: boolean }): Decision[] {
  const settings = notificationSettings(ctx);
  const { stream, recipients, flags } = message;
  const policies = stream ? selectTopicPolicies(ctx.store, stream.id, message.topic) : new Map<number, number>();
  const subRows = stream ? selectSubscriptionNotificationRows(ctx.store, stream.id) : new Map<number, SubscriptionSettings>();
  const extra = stream ? settingCandidates(settings, policies, subRows) : undefined;
  const groups = message.mentionedGroups.length > 0 ? mentionedGroupOf(message) : new Map<number, { id: number }>();
  const bots = botIds(ctx);

  // Recipients with Zulip's defaults everywhere are decided by their flags alone (the @all case).
  const byFlags = new Map<number, Assessed>();
  const assess = (userId: number, bits: number): Assessed => {
    const data = recipientData(stream === undefined, bits, settings.of(userId), policies.get(userId) ?? VISIBILITY.inherit, subRows.get(userId));
    return { data, push: pushTrigger(data, true), email: wanted.email ? emailTrigger(data, true) : null };
  };
  const eligibleIds: number[] = [];
  const eligible: Assessed[] = [];
  const consider = (userId: number, bits: number): void => {
    // A direct message may notify anyone; a channel message who its flags or settings name.
    if (stream && (bits & (FLAG.mentioned | WILDCARD)) === 0 && !extra!.has(userId)) return;
    // Zulip's trivially_should_not_notify: the sender, who muted the sender; and bots are never notified.
    if (userId === message.senderId || bots.has(userId) || message.mutingSender.has(userId)) return;
    const plain = !settings.changedBy(userId) && !subRows.has(userId) && !policies.has(userId);
    let assessed = plain ? byFlags.get(bits) : undefined;
    if (!assessed) {
      assessed = assess(userId, bits);
      if (plain) byFlags.set(bits, assessed);
    }
    if (assessed.push === null && assessed.email === null) return;
    if (wanted.edit && notifiedOfEveryMessage(assessed.data)) return;
    eligibleIds.push(userId);
    eligible.push(assessed);
  };
  recipients.forEach((userId, i) => consider(userId, flags[i]!));
  // Who the settings name among a big channel's receivers by period: the few, not the channel.
  if (extra && message.receivesByPeriod) {
    const listed = new Set(recipients);
    for (const userId of [...extra].sort((a, b) => a - b)) if (!listed.has(userId) && message.receivesByPeriod(userId)) consider(userId, 0);
  }
  // Idleness costs queries: only for those whose notification depends on it.
  const needIdle = eligibleIds.filter((_, i) => wanted.email || !eligible[i]!.data.onlinePushEnabled);
  const idle = needIdle.length > 0 ? idleUsers(ctx, needIdle) : new Set<number>();
  const decisions: Decision[] = [];
  eligibleIds.forEach((userId, i) => {
    const assessed = eligible[i]!;
    const isIdle = idle.has(userId);
    // Zulip's get_push_notification_trigger: the idle, or anyone with online push on.
    const pushed = isIdle || assessed.data.onlinePushEnabled ? assessed.push : null;
    const emailed = isIdle ? assessed.email : null;
    if (pushed === null && emailed === null) return;
    const group = pushed === 'mentioned' || emailed === 'mentioned' ? (groups.get(userId)?.id ?? null) : null;
    decisions.push({ userId, push: pushed, email: emailed, mentionedGroupId: group });
  });
  return decisions;
}
