// Shapes of the answers several routes share (channels, messages, user groups), as zod
// schemas for the OpenAPI document. The conformance tests (test/conformance.ts) check real
// answers against it.
import { z } from 'zod';
import { editHistoryEntrySchema } from '../domain/edit_history_dicts.js';
import { reactionSchema } from '../domain/reaction_dicts.js';

const id = z.int();

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

const directRecipient = z.object({ id, email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() });

/** Zulip's message dictionary; edits, reactions and search add fields. */
export const messageSchema = z.looseObject({
  id,
  sender_id: id,
  content: z.string(),
  content_type: z.enum(['text/html', 'text/x-markdown']),
  recipient_id: id,
  timestamp: z.int(),
  client: z.string(),
  subject: z.string(),
  topic_links: z.array(z.object({ text: z.string(), url: z.string() })),
  is_me_message: z.boolean(),
  reactions: z.array(reactionSchema),
  submessages: z.array(z.unknown()),
  sender_full_name: z.string(),
  sender_email: z.string(),
  sender_realm_str: z.string(),
  avatar_url: z.string().nullable(),
  type: z.enum(['stream', 'private']),
  stream_id: id.optional().describe('Channel messages'),
  display_recipient: z.union([z.string(), z.array(directRecipient)]),
  flags: z.array(z.string()),
  last_edit_timestamp: z.int().optional().describe("When the message's content was last edited"),
  last_moved_timestamp: z.int().optional().describe('When the message last moved to another topic (not only resolved)'),
  edit_history: z.array(editHistoryEntrySchema).optional().describe('Edits and moves, newest first; absent when never edited'),
  match_content: z.string().optional().describe('Search narrows: the HTML content with matching words in <span class="highlight">'),
  match_subject: z.string().optional().describe('Search narrows: the HTML-escaped topic with matching words highlighted'),
});

/** Zulip's LARGER_THAN_MAX_MESSAGE_ID (anchor=newest) is above 2^53: a number, not an int. */
export const anchorSchema = z.number();
