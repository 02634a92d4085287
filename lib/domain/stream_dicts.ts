// The channel and subscription objects of Zulip's API (BasicChannel, Subscription), as GET
// /streams, GET /users/me/subscriptions, /register and the stream/subscription events carry them:
// their schemas and builders, and the rules of channel names.
import { z } from 'zod';
import type { StreamRow, SubscriptionRow } from '../store/streams.js';
import { groupSettingValueSchema } from './user_group_dicts.js';

export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

const id = z.int();


/** Zulip's BasicChannel (https://zulip.com/api/get-streams#response). */
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
  can_remove_subscribers_group: groupSettingValueSchema,
  can_subscribe_group: groupSettingValueSchema,
});
export type StreamDict = z.infer<typeof streamSchema>;

const subscribers = z.array(id).optional().describe('With include_subscribers');
const partialSubscribers = z
  .array(id)
  .optional()
  .describe('With include_subscribers="partial", instead of subscribers for a big channel: its bots and recently active subscribers');

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
  subscribers,
  partial_subscribers: partialSubscribers,
});
export type SubscriptionDict = z.infer<typeof subscriptionSchema>;

/** Zulip's NeverSubscribedStream (/register's never_subscribed): the channel, with its subscribers if asked. */
export const neverSubscribedStreamSchema = streamSchema.extend({ subscribers, partial_subscribers: partialSubscribers });
export type NeverSubscribedStreamDict = z.infer<typeof neverSubscribedStreamSchema>;

export function streamDict(stream: StreamRow, subscriberCount: number): StreamDict {
  return {
    stream_id: stream.id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: stream.invite_only === 1,
    is_web_public: false,
    history_public_to_subscribers: stream.history_public_to_subscribers === 1,
    first_message_id: stream.first_message_id,
    folder_id: null,
    is_recently_active: true,
    message_retention_days: null,
    stream_post_policy: 1,
    is_announcement_only: false,
    is_archived: stream.is_archived === 1,
    topics_policy: 'inherit',
    stream_weekly_traffic: null,
    subscriber_count: subscriberCount,
    // Empty groups state parley's rules: only administrators unsubscribe others (they need not be
    // listed), and nobody subscribes themselves to a private channel.
    can_remove_subscribers_group: { direct_members: [], direct_subgroups: [] },
    can_subscribe_group: { direct_members: [], direct_subgroups: [] },
  };
}

export function subscriptionDict(
  stream: StreamRow,
  sub: SubscriptionRow | undefined,
  subscriberCount: number,
  subscribers: { subscribers?: readonly number[]; partial_subscribers?: readonly number[] } = {},
): SubscriptionDict {
  const dict: SubscriptionDict = {
    ...streamDict(stream, subscriberCount),
    color: sub?.color ?? '#76ce90',
    is_muted: sub?.is_muted === 1,
    in_home_view: sub?.is_muted !== 1,
    pin_to_top: sub?.pin_to_top === 1,
    audible_notifications: nullableBool(sub?.audible_notifications),
    desktop_notifications: nullableBool(sub?.desktop_notifications),
    email_notifications: nullableBool(sub?.email_notifications),
    push_notifications: nullableBool(sub?.push_notifications),
    wildcard_mentions_notify: nullableBool(sub?.wildcard_mentions_notify),
  };
  if (subscribers.subscribers !== undefined) dict.subscribers = [...subscribers.subscribers];
  if (subscribers.partial_subscribers !== undefined) dict.partial_subscribers = [...subscribers.partial_subscribers];
  return dict;
}

const nullableBool = (value: number | null | undefined): boolean | null => (value === null || value === undefined ? null : value === 1);

/** Zulip sorts channel lists by name. */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Zulip's check_stream_name. */
export function streamNameProblem(name: string): string | undefined {
  if (name.trim() === '') return "Channel name can't be empty.";
  if ([...name].length > MAX_STREAM_NAME_LENGTH) {
    return `Channel name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`;
  }
  const position = firstUnprintable(name);
  if (position !== undefined) return `Invalid character in channel name, at position ${position}.`;
  return undefined;
}

/** 1-based code-point position of the first control, surrogate or non-character (Zulip's check_string_is_printable). */
export function firstUnprintable(text: string): number | undefined {
  let position = 0;
  for (const char of text) {
    position += 1;
    const code = char.codePointAt(0)!;
    const control = code <= 0x1f || (code >= 0x7f && code <= 0x9f);
    const surrogate = code >= 0xd800 && code <= 0xdfff;
    const nonCharacter = (code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe;
    if (control || surrogate || nonCharacter) return position;
  }
  return undefined;
}
