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

/** What decides one recipient's notifications, each already combined with its settings. */
export interface RecipientNotificationData {
  onlinePushEnabled: boolean;
  dmPush: boolean;
  dmEmail: boolean;
  mentionPush: boolean;
  mentionEmail: boolean;
  topicWildcardInFollowedPush: boolean;
  topicWildcardInFollowedEmail: boolean;
  streamWildcardInFollowedPush: boolean;
  streamWildcardInFollowedEmail: boolean;
  topicWildcardPush: boolean;
  topicWildcardEmail: boolean;
  streamWildcardPush: boolean;
  streamWildcardEmail: boolean;
  followedTopicPush: boolean;
  followedTopicEmail: boolean;
  streamPush: boolean;
  streamEmail: boolean;
}

/**
 * Zulip's get_push_notification_trigger (the sender, a muted sender and bots are left out
 * before): an active user is pushed to only with enable_online_push_notifications.
 */
export function pushTrigger(d: RecipientNotificationData, idle: boolean): NotificationTrigger | null {
  if (!idle && !d.onlinePushEnabled) return null;
  if (d.dmPush) return 'direct_message';
  if (d.mentionPush) return 'mentioned';
  if (d.topicWildcardInFollowedPush) return 'topic_wildcard_mentioned_in_followed_topic';
  if (d.streamWildcardInFollowedPush) return 'stream_wildcard_mentioned_in_followed_topic';
  if (d.topicWildcardPush) return 'topic_wildcard_mentioned';
  if (d.streamWildcardPush) return 'stream_wildcard_mentioned';
  if (d.followedTopicPush) return 'followed_topic_push_notify';
  if (d.streamPush) return 'stream_push_notify';
  return null;
}

/** Zulip's get_email_notification_trigger: only an idle user is emailed. */
export function emailTrigger(d: RecipientNotificationData, idle: boolean): NotificationTrigger | null {
  if (!idle) return null;
  if (d.dmEmail) return 'direct_message';
  if (d.mentionEmail) return 'mentioned';
  if (d.topicWildcardInFollowedEmail) return 'topic_wildcard_mentioned_in_followed_topic';
  if (d.streamWildcardInFollowedEmail) return 'stream_wildcard_mentioned_in_followed_topic';
  if (d.topicWildcardEmail) return 'topic_wildcard_mentioned';
  if (d.streamWildcardEmail) return 'stream_wildcard_mentioned';
  if (d.followedTopicEmail) return 'followed_topic_email_notify';
  if (d.streamEmail) return 'stream_email_notify';
  return null;
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
