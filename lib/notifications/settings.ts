// The personal settings that decide notifications, for every user at once, kept in memory until
// any process writes user_setting (ctx.cached 'user_setting'): no query per recipient.
import type { Ctx } from '../context.js';
import { settingDefault, type SettingValue } from '../domain/user_setting_types.js';
import type { Store } from '../store/db.js';

const NOTIFICATION_SETTINGS = [
  'enable_stream_push_notifications',
  'enable_stream_email_notifications',
  'enable_followed_topic_push_notifications',
  'enable_followed_topic_email_notifications',
  'enable_followed_topic_wildcard_mentions_notify',
  'wildcard_mentions_notify',
  'enable_offline_push_notifications',
  'enable_offline_email_notifications',
  'enable_online_push_notifications',
  'email_notifications_batching_period_seconds',
  'message_content_in_email_notifications',
  'realm_name_in_email_notifications_policy',
] as const;
type NotificationSetting = (typeof NOTIFICATION_SETTINGS)[number];

/** One user's notification settings, by name. */
export type UserNotificationSettings = Readonly<Record<NotificationSetting, SettingValue>>;

export interface NotificationSettings {
  /** The user's settings; users who changed none share one object. */
  of(userId: number): UserNotificationSettings;
  /** Whether the user changed any of these settings. */
  changedBy(userId: number): boolean;
  /** The users whose stored value of `name` is `value` (a setting turned away from its default). */
  usersWith(name: NotificationSetting, value: SettingValue): Iterable<number>;
}

function load(ctx: Ctx, store: Store): NotificationSettings {
  const defaults = Object.freeze(Object.fromEntries(NOTIFICATION_SETTINGS.map((name) => [name, settingDefault(ctx, name)!])) as Record<NotificationSetting, SettingValue>);
  const byUser = new Map<number, Record<NotificationSetting, SettingValue>>();
  const rows = store.prepare(`SELECT user_id, name, value FROM user_setting WHERE name IN (${NOTIFICATION_SETTINGS.map(() => '?').join(', ')})`).raw().all(...NOTIFICATION_SETTINGS) as [number, NotificationSetting, string][];
  for (const [userId, name, value] of rows) {
    let own = byUser.get(userId);
    if (!own) byUser.set(userId, (own = { ...defaults }));
    own[name] = JSON.parse(value) as SettingValue;
  }
  return {
    of: (userId) => byUser.get(userId) ?? defaults,
    changedBy: (userId) => byUser.has(userId),
    *usersWith(name, wanted) {
      for (const [userId, own] of byUser) if (own[name] === wanted && defaults[name] !== wanted) yield userId;
    },
  };
}

export function notificationSettings(ctx: Ctx): NotificationSettings {
  return ctx.cached('user_setting', () => load(ctx, ctx.store));
}
