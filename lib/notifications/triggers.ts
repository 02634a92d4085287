// Zulip's UserMessageNotificationsData (zerver/lib/notification_data.py): for one recipient of a
// message, which of Zulip's notification triggers applies to a push notification and to an email,
// in Zulip's order of salience, and user_allows_notifications_in_StreamTopic.
// https://zulip.com/help/mention-a-user-or-group, https://zulip.com/help/follow-a-topic
import { z } from 'zod';

/** Zulip's NotificationTriggers values. */
export const notificationTriggerSchema = z.enum([
  'direct_message',
  'mentioned',
  'topic_wildcard_mentioned_in_followed_topic',
  'stream_wildcard_mentioned_in_followed_topic',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
  'followed_topic_push_notify',
  'followed_topic_email_notify',
  'stream_push_notify',
  'stream_email_notify',
]);
export type NotificationTrigger = z.infer<typeof notificationTriggerSchema>;

/** One recipient's decision: the trigger of each (null: not notified that way). */
export interface Decision {
  userId: number;
  push: NotificationTrigger | null;
  email: NotificationTrigger | null;
  /** The mentioned group a notification names instead of "you". */
  mentionedGroupId: number | null;
}

/** Which of Zulip's reasons hold for one recipient, through one channel, each with its settings. */
interface ChannelReasons {
  dm: boolean;
  mention: boolean;
  topicWildcardInFollowed: boolean;
  streamWildcardInFollowed: boolean;
  topicWildcard: boolean;
  streamWildcard: boolean;
  followedTopic: boolean;
  stream: boolean;
}

/** What decides one recipient's notifications (Zulip's UserMessageNotificationsData). */
export interface RecipientNotificationData {
  onlinePushEnabled: boolean;
  push: ChannelReasons;
  email: ChannelReasons;
}

/** Zulip's order of salience: a mention outranks a channel setting. */
const SALIENCE: readonly [keyof ChannelReasons, push: NotificationTrigger, email: NotificationTrigger][] = [
  ['dm', 'direct_message', 'direct_message'],
  ['mention', 'mentioned', 'mentioned'],
  ['topicWildcardInFollowed', 'topic_wildcard_mentioned_in_followed_topic', 'topic_wildcard_mentioned_in_followed_topic'],
  ['streamWildcardInFollowed', 'stream_wildcard_mentioned_in_followed_topic', 'stream_wildcard_mentioned_in_followed_topic'],
  ['topicWildcard', 'topic_wildcard_mentioned', 'topic_wildcard_mentioned'],
  ['streamWildcard', 'stream_wildcard_mentioned', 'stream_wildcard_mentioned'],
  ['followedTopic', 'followed_topic_push_notify', 'followed_topic_email_notify'],
  ['stream', 'stream_push_notify', 'stream_email_notify'],
];

function mostSalient(reasons: ChannelReasons, channel: 1 | 2): NotificationTrigger | null {
  for (const entry of SALIENCE) if (reasons[entry[0]]) return entry[channel];
  return null;
}

/**
 * Zulip's get_push_notification_trigger (the sender, a muted sender and bots are left out
 * before): an active user is pushed to only with enable_online_push_notifications.
 */
export function pushTrigger(d: RecipientNotificationData, idle: boolean): NotificationTrigger | null {
  return !idle && !d.onlinePushEnabled ? null : mostSalient(d.push, 1);
}

/** Zulip's get_email_notification_trigger: only an idle user is emailed. */
export function emailTrigger(d: RecipientNotificationData, idle: boolean): NotificationTrigger | null {
  return idle ? mostSalient(d.email, 2) : null;
}

/** Zulip's UserTopic.VisibilityPolicy. */
export const VISIBILITY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/**
 * Zulip's user_allows_notifications_in_StreamTopic: a muted channel silences its topics unless
 * the topic is unmuted; a muted topic is silent; otherwise the channel's own setting, else the
 * user's global one.
 */
export function allowsInTopic(channelMuted: boolean, policy: number, channelSetting: boolean | null, globalSetting: boolean): boolean {
  if (channelMuted && policy !== VISIBILITY.unmuted) return false;
  if (policy === VISIBILITY.muted) return false;
  return channelSetting ?? globalSetting;
}
