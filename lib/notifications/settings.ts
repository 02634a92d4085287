// The personal settings that decide notifications, for every user at once: the values that
// differ from the server's defaults, kept in memory until any process writes user_setting
// (ctx.cached 'user_setting'), so that a send reads them without a query per recipient.
import type { Ctx } from '../context.js';
import { settingDefault, type SettingValue } from '../domain/user_setting_types.js';
import type { Store } from '../store/db.js';

export const NOTIFICATION_SETTINGS = [
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
export type NotificationSetting = (typeof NOTIFICATION_SETTINGS)[number];

type BooleanSetting = Exclude<NotificationSetting, 'email_notifications_batching_period_seconds' | 'realm_name_in_email_notifications_policy'>;

export interface NotificationSettings {
  flag(userId: number, name: BooleanSetting): boolean;
  number(userId: number, name: 'email_notifications_batching_period_seconds' | 'realm_name_in_email_notifications_policy'): number;
  /** The users whose stored value of `name` is `value` (a setting turned away from its default). */
  usersWith(name: NotificationSetting, value: SettingValue): Iterable<number>;
}

function load(ctx: Ctx, store: Store): NotificationSettings {
  const stored = new Map<string, Map<number, SettingValue>>(NOTIFICATION_SETTINGS.map((name) => [name, new Map()]));
  const rows = store.prepare(`SELECT user_id, name, value FROM user_setting WHERE name IN (${NOTIFICATION_SETTINGS.map(() => '?').join(', ')})`).raw().all(...NOTIFICATION_SETTINGS) as [number, string, string][];
  for (const [userId, name, value] of rows) stored.get(name)!.set(userId, JSON.parse(value) as SettingValue);
  const defaults = new Map(NOTIFICATION_SETTINGS.map((name) => [name, settingDefault(ctx, name)!]));
  const value = (userId: number, name: NotificationSetting) => stored.get(name)!.get(userId) ?? defaults.get(name)!;
  return {
    flag: (userId, name) => value(userId, name) === true,
    number: (userId, name) => value(userId, name) as number,
    *usersWith(name, wanted) {
      for (const [userId, v] of stored.get(name)!) if (v === wanted) yield userId;
    },
  };
}

export function notificationSettings(ctx: Ctx): NotificationSettings {
  return ctx.cached('user_setting', () => load(ctx, ctx.store));
}
