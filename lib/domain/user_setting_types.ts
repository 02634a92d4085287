// The personal settings of Zulip's user_settings object that PATCH /settings changes and the
// user_setting table stores (Zulip's UserBaseSettings.property_types): each one's default, and the
// values it takes; the user_settings state and event. https://zulip.com/api/update-settings
import { z } from 'zod';
import type { Ctx } from '../context.js';

export type SettingValue = boolean | number | string;

export type SettingKind =
  | { type: 'bool' }
  /** choices: the values allowed (absent: any integer). */
  | { type: 'int'; choices?: readonly number[] }
  | { type: 'string'; choices?: readonly string[] };

export interface SettingSpec {
  default: SettingValue;
  kind: SettingKind;
}

const bool = (value: boolean): SettingSpec => ({ default: value, kind: { type: 'bool' } });
const int = (value: number, choices?: readonly number[]): SettingSpec => ({ default: value, kind: choices ? { type: 'int', choices } : { type: 'int' } });
const str = (value: string, choices?: readonly string[]): SettingSpec => ({ default: value, kind: choices ? { type: 'string', choices } : { type: 'string' } });
const ONE_TO_THREE = [1, 2, 3] as const;

/** Zulip's EMOJISET_CHOICES, as /register's emojiset_choices lists them. */
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
] as const;

/** Zulip's available notification sounds (static/audio/notification_sounds), and "none". */
export const NOTIFICATION_SOUNDS = ['bark', 'bells', 'chime', 'chirp', 'ding', 'glass', 'knock', 'ping', 'pop', 'stretch', 'swoosh', 'tick', 'zulip', 'none'] as const;

/** Zulip's language codes (locale/language_options.json); a name comes from Intl.DisplayNames. */
export const LANGUAGE_CODES = [
  'ar', 'be', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'en_GB', 'eo', 'es', 'fa', 'fi', 'fr', 'gl', 'gu', 'hi', 'hu', 'id',
  'it', 'ja', 'ko', 'lt', 'lv', 'ml', 'mn', 'nl', 'no', 'pl', 'pt', 'pt_BR', 'pt_PT', 'ro', 'ru', 'si', 'sr', 'sv', 'ta', 'te', 'tl', 'tr',
  'uk', 'uz', 'vi', 'zh-hans', 'zh-hant', 'zh_TW',
] as const;

/** Zulip's largest email batching period: one week. */
export const MAX_EMAIL_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;

/** The settings stored in user_setting, in /register's order (Zulip's defaults). */
export const USER_SETTINGS: Readonly<Record<string, SettingSpec>> = {
  twenty_four_hour_time: bool(false),
  web_mark_read_on_scroll_policy: int(1, ONE_TO_THREE),
  web_channel_default_view: int(1, [1, 2, 3, 4]),
  starred_message_counts: bool(true),
  receives_typing_notifications: bool(true),
  web_suggest_update_timezone: bool(true),
  fluid_layout_width: bool(false),
  high_contrast_mode: bool(false),
  web_font_size_px: int(16),
  web_line_height_percent: int(140),
  color_scheme: int(1, ONE_TO_THREE),
  translate_emoticons: bool(false),
  display_emoji_reaction_users: bool(true),
  default_language: str('en'),
  web_home_view: str('inbox', ['recent_topics', 'inbox', 'all_messages']),
  web_escape_navigates_to_home_view: bool(true),
  left_side_userlist: bool(false),
  emojiset: str('google', EMOJISET_CHOICES.map((choice) => choice.key)),
  demote_inactive_streams: int(1, ONE_TO_THREE),
  user_list_style: int(3, ONE_TO_THREE),
  web_animate_image_previews: str('on_hover', ['always', 'on_hover', 'never']),
  web_stream_unreads_count_display_policy: int(2, ONE_TO_THREE),
  hide_ai_features: bool(false),
  web_left_sidebar_unreads_count_summary: bool(true),
  enter_sends: bool(false),
  enable_stream_desktop_notifications: bool(false),
  enable_stream_email_notifications: bool(false),
  enable_stream_push_notifications: bool(false),
  enable_stream_audible_notifications: bool(false),
  notification_sound: str('zulip'),
  enable_desktop_notifications: bool(true),
  enable_sounds: bool(true),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_audible_notifications: bool(true),
  email_notifications_batching_period_seconds: int(120),
  enable_offline_email_notifications: bool(true),
  enable_offline_push_notifications: bool(true),
  enable_online_push_notifications: bool(true),
  enable_digest_emails: bool(true),
  enable_marketing_emails: bool(true),
  enable_login_emails: bool(true),
  message_content_in_email_notifications: bool(true),
  pm_content_in_desktop_notifications: bool(true),
  wildcard_mentions_notify: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
  desktop_icon_count_display: int(1, ONE_TO_THREE),
  realm_name_in_email_notifications_policy: int(1, ONE_TO_THREE),
  automatically_follow_topics_policy: int(3, [1, 2, 3, 4]),
  automatically_unmute_topics_in_muted_streams_policy: int(2, [1, 2, 3, 4]),
  automatically_follow_topics_where_mentioned: bool(true),
  resolved_topic_notice_auto_read_policy: str('except_followed', ['always', 'except_followed', 'never']),
  send_private_typing_notifications: bool(true),
  send_stream_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  allow_private_data_export: bool(false),
  web_navigate_to_sent_message: bool(true),
};

/**
 * A setting's default on this server: Zulip's, but for email_notifications_batching_period_seconds,
 * which options.email.batchingSeconds may set (tests and small installs).
 */
export function settingDefault(ctx: Ctx, name: string): SettingValue | undefined {
  if (name === 'email_notifications_batching_period_seconds' && ctx.options.email?.batchingSeconds !== undefined) return ctx.options.email.batchingSeconds;
  return USER_SETTINGS[name]?.default;
}

/** A setting's values as a schema: the closed list where Zulip has one. */
export function settingValueSchema(kind: SettingKind): z.ZodType<SettingValue> {
  if (kind.type === 'bool') return z.boolean();
  if (kind.type === 'int') return kind.choices ? z.literal(kind.choices) : z.int();
  return kind.choices ? z.literal(kind.choices) : z.string();
}

/** The user_settings object of POST /register (lib/domain/user_settings.ts fetchUserSettingsState). */
export const userSettingsStateSchema = z.object({
  user_settings: z.object({
    ...Object.fromEntries(Object.entries(USER_SETTINGS).map(([name, spec]) => [name, settingValueSchema(spec.kind)])),
    presence_enabled: z.boolean(),
    enable_drafts_synchronization: z.boolean(),
    timezone: z.string(),
    email_address_visibility: z.int(),
    emojiset_choices: z.array(z.object({ key: z.string(), text: z.string() })),
  }),
});
export type UserSettingsState = z.infer<typeof userSettingsStateSchema>;

export const realmUserSettingsDefaultsStateSchema = z.object({
  realm_user_settings_defaults: z.object({ email_address_visibility: z.int() }),
});
export type RealmUserSettingsDefaultsState = z.infer<typeof realmUserSettingsDefaultsStateSchema>;

export const userSettingsEventSchemas = [
  z.object({
    type: z.literal('user_settings'),
    op: z.literal('update'),
    property: z.string(),
    value: z.union([z.boolean(), z.int(), z.string()]),
    language_name: z.string().optional().describe('With default_language: the language\'s name'),
  }),
] as const;
