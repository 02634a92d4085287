// The personal settings parley stores: Zulip's `user_settings` object (Zulip's defaults for the ones
// parley does not store, fixed), the organization's `realm_user_settings_defaults` in POST /register,
// and PATCH /settings (email_address_visibility).
// The user_settings update event is sent where a setting changes (user_status.ts: away).
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import { selectActiveUserRoles, selectUserById, updateUserEmailAddressVisibility } from '../store/users.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { getRealm } from './realm.js';
import { EMAIL_VISIBILITY, canAccessDeliveryEmail, type Actor } from './roles.js';

/** Zulip's UserBaseSettings defaults for the settings parley does not store. */
const zulipDefaultSettings = (): Record<string, unknown> => ({
  twenty_four_hour_time: false,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_suggest_update_timezone: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  web_home_view: 'inbox',
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 3,
  web_animate_image_previews: 'on_hover',
  web_stream_unreads_count_display_policy: 2,
  hide_ai_features: false,
  web_left_sidebar_unreads_count_summary: true,
  enter_sends: false,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  resolved_topic_notice_auto_read_policy: 'except_followed',
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  allow_private_data_export: false,
  email_address_visibility: 1,
  web_navigate_to_sent_message: true,
  emojiset_choices: [
    { key: 'google', text: 'Google' },
    { key: 'twitter', text: 'Twitter' },
    { key: 'text', text: 'Plain text' },
    { key: 'google-blob', text: 'Google blobs' },
  ],
});

export function fetchUserSettingsState(ctx: Ctx, actor: Actor, _options: StateOptions): Record<string, unknown> {
  const row = selectUserById(ctx.store, actor.id)!;
  return {
    user_settings: {
      ...zulipDefaultSettings(),
      presence_enabled: row.presence_enabled === 1,
      enable_drafts_synchronization: row.enable_drafts_synchronization === 1,
      timezone: row.timezone,
      email_address_visibility: row.email_address_visibility,
    },
  };
}

export function fetchRealmUserSettingsDefaultsState(ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { realm_user_settings_defaults: { email_address_visibility: getRealm(ctx).defaultEmailAddressVisibility } };
}

/** PATCH /settings: the caller's own settings; a value equal to the current one changes nothing. */
export function updateSettings(ctx: Ctx, actor: Actor, input: { emailAddressVisibility?: number | undefined }): Record<string, never> {
  return ctx.tx(() => {
    if (input.emailAddressVisibility !== undefined) setEmailAddressVisibility(ctx, actor, input.emailAddressVisibility);
    return {};
  });
}

/**
 * Zulip's do_change_user_setting for email_address_visibility: the user_settings event to the
 * user; a realm_user update with the real email (or null) to each user whose access changed
 * (send_delivery_email_update_events); and, when the API email changes (to or from "everyone"),
 * a realm_user update with `new_email` to everyone.
 */
function setEmailAddressVisibility(ctx: Ctx, actor: Actor, visibility: number): void {
  const before = selectUserById(ctx.store, actor.id)!;
  if (before.email_address_visibility === visibility) return;
  updateUserEmailAddressVisibility(ctx.store, actor.id, visibility);
  const after = { ...before, email_address_visibility: visibility };
  ctx.events.append([actor.id], { type: 'user_settings', op: 'update', property: 'email_address_visibility', value: visibility });

  const nowSeeing: number[] = [];
  const noLongerSeeing: number[] = [];
  for (const viewer of selectActiveUserRoles(ctx.store)) {
    const saw = canAccessDeliveryEmail(viewer, before);
    const sees = canAccessDeliveryEmail(viewer, after);
    if (sees && !saw) nowSeeing.push(viewer.id);
    if (saw && !sees) noLongerSeeing.push(viewer.id);
  }
  if (nowSeeing.length > 0) {
    ctx.events.append(nowSeeing, { type: 'realm_user', op: 'update', person: { user_id: actor.id, delivery_email: before.email } });
  }
  if (noLongerSeeing.length > 0) {
    ctx.events.append(noLongerSeeing, { type: 'realm_user', op: 'update', person: { user_id: actor.id, delivery_email: null } });
  }

  const domain = fakeEmailDomain(ctx);
  if (apiEmail(domain, before) !== apiEmail(domain, after)) {
    ctx.events.append(null, { type: 'realm_user', op: 'update', person: { user_id: actor.id, new_email: apiEmail(domain, after) } });
  }
}
