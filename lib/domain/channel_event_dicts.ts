// The events of channels, subscriptions, default channels, user groups and topic visibility, as
// Zulip's GET /events documents them (https://zulip.com/api/get-events): `stream` (create,
// delete, update), `subscription` (add, remove, update, peer_add, peer_remove), `default_streams`,
// `user_group` (add, add_members, remove_members), `user_topic` and `muted_topics`.
import { z } from 'zod';
import { streamSchema, subscriptionSchema } from './stream_dicts.js';
import { userGroupSchema } from './user_group_dicts.js';

const id = z.int();
const ids = z.array(id);
const stream = z.literal('stream');
const subscription = z.literal('subscription');
const userGroup = z.literal('user_group');

/** The fields every `stream` update event carries besides property and value. */
const streamUpdate = { type: stream, op: z.literal('update'), stream_id: id, name: z.string() };

/** A subscription property of POST /users/me/subscriptions/properties whose value is a boolean. */
export const BOOLEAN_SUBSCRIPTION_PROPERTIES = [
  'in_home_view',
  'is_muted',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

/** One entry of /register's user_topics, and the user_topic event's fields. */
export const userTopicSchema = z.object({
  stream_id: id,
  topic_name: z.string(),
  last_updated: z.int(),
  visibility_policy: z.int(),
});

/** The legacy muted_topics entry: [channel name, topic, when muted]. */
export const mutedTopicSchema = z.tuple([z.string(), z.string(), z.int()]);

export const channelEventSchemas = [
  z.object({ type: stream, op: z.literal('create'), streams: z.array(streamSchema) }),
  // `streams` is Zulip's deprecated form of `stream_ids` (feature level 343).
  z.object({ type: stream, op: z.literal('delete'), streams: z.array(z.object({ stream_id: id })), stream_ids: ids }),
  z.object({ ...streamUpdate, property: z.literal('name'), value: z.string() }),
  z.object({ ...streamUpdate, property: z.literal('description'), value: z.string(), rendered_description: z.string() }),
  z.object({
    ...streamUpdate,
    property: z.literal('invite_only'),
    value: z.boolean(),
    history_public_to_subscribers: z.boolean(),
    is_web_public: z.boolean(),
  }),
  z.object({ ...streamUpdate, property: z.literal('history_public_to_subscribers'), value: z.boolean() }),
  z.object({ ...streamUpdate, property: z.literal('first_message_id'), value: id.nullable() }),
  z.object({ type: subscription, op: z.literal('add'), subscriptions: z.array(subscriptionSchema) }),
  z.object({ type: subscription, op: z.literal('remove'), subscriptions: z.array(z.object({ name: z.string(), stream_id: id })) }),
  z.object({ type: subscription, op: z.literal('update'), stream_id: id, property: z.enum(BOOLEAN_SUBSCRIPTION_PROPERTIES), value: z.boolean() }),
  z.object({ type: subscription, op: z.literal('update'), stream_id: id, property: z.literal('color'), value: z.string() }),
  z.object({ type: subscription, op: z.literal('peer_add'), stream_ids: ids, user_ids: ids }),
  z.object({ type: subscription, op: z.literal('peer_remove'), stream_ids: ids, user_ids: ids }),
  // The ids of the default channels (Zulip sends them since feature level 330).
  z.object({ type: z.literal('default_streams'), default_streams: ids }),
  z.object({ type: userGroup, op: z.literal('add'), group: userGroupSchema }),
  z.object({ type: userGroup, op: z.literal('add_members'), group_id: id, user_ids: ids }),
  z.object({ type: userGroup, op: z.literal('remove_members'), group_id: id, user_ids: ids }),
  userTopicSchema.extend({ type: z.literal('user_topic') }),
  z.object({ type: z.literal('muted_topics'), muted_topics: z.array(mutedTopicSchema) }),
] as const;
