// Shapes of the answers several routes share (users, channels, user groups), as zod
// schemas for the OpenAPI document. The conformance tests (test/conformance.ts) check real
// answers against it.
import { z } from 'zod';

const id = z.int();

/** Zulip's user dictionary (lib/domain/users.ts formatUser). */
export const userSchema = z.object({
  email: z.string(),
  user_id: id,
  avatar_version: z.int(),
  avatar_url: z.string().nullable(),
  is_admin: z.boolean(),
  is_owner: z.boolean(),
  is_guest: z.boolean(),
  role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]),
  is_bot: z.boolean(),
  full_name: z.string(),
  timezone: z.string(),
  is_active: z.boolean(),
  date_joined: z.string(),
  delivery_email: z.string().nullable(),
  bot_type: z.int().optional().describe('Bots only'),
  bot_owner_id: id.nullable().optional().describe('Bots only'),
  profile_data: z.record(z.string(), z.unknown()).optional().describe('Users only'),
});

const groupSettingValue = z.object({ direct_members: z.array(id), direct_subgroups: z.array(id) });

/** Zulip's BasicChannel (lib/domain/stream_dicts.ts streamDict). */
export const streamSchema = z.object({
  stream_id: id,
  name: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  date_created: z.int(),
  creator_id: id.nullable(),
  invite_only: z.boolean(),
  is_web_public: z.boolean(),
  history_public_to_subscribers: z.boolean(),
  first_message_id: id.nullable(),
  folder_id: id.nullable(),
  is_recently_active: z.boolean(),
  message_retention_days: z.int().nullable(),
  stream_post_policy: z.int(),
  is_announcement_only: z.boolean(),
  is_archived: z.boolean(),
  topics_policy: z.string(),
  stream_weekly_traffic: z.int().nullable(),
  subscriber_count: z.int(),
  can_remove_subscribers_group: groupSettingValue,
  can_subscribe_group: groupSettingValue,
});

/** Zulip's Subscription: the channel and the caller's settings for it. */
export const subscriptionSchema = streamSchema.extend({
  color: z.string(),
  is_muted: z.boolean(),
  in_home_view: z.boolean(),
  pin_to_top: z.boolean(),
  audible_notifications: z.boolean().nullable(),
  desktop_notifications: z.boolean().nullable(),
  email_notifications: z.boolean().nullable(),
  push_notifications: z.boolean().nullable(),
  wildcard_mentions_notify: z.boolean().nullable(),
  subscribers: z.array(id).optional().describe('With include_subscribers'),
});

/** A user group (GET /user_groups). */
export const userGroupSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  members: z.array(id),
  direct_subgroup_ids: z.array(id),
  is_system_group: z.boolean(),
  creator_id: id.nullable(),
  date_created: z.int().nullable(),
  deactivated: z.boolean(),
});
