// Channels: GET /streams, GET /streams/{stream_id}, GET /get_stream_id, GET /users/me/{stream_id}/topics,
// and the `subscriptions`, `unsubscribed`, `never_subscribed` and `streams` state of POST /register.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import type { StateOptions } from './state_options.js';
import {
  selectDefaultStreamIds,
  selectFormerSubscriptionStreamIds,
  selectIsSubscribed,
  selectStreamById,
  selectStreamByName,
  selectStreams,
  selectSubscribedStreamIds,
  selectSubscriberCount,
  selectSubscriberCounts,
  selectSubscriptionsOfUser,
  type StreamRow,
} from '../store/streams.js';
import { selectTopicHistory } from '../store/messages.js';
import { canAccessStreamContent, canSeeStream } from './stream_access.js';
import { subscriberFieldsFor } from './subscribers.js';
import {
  byName,
  neverSubscribedStreamSchema,
  streamDict,
  streamSchema,
  subscriptionDict,
  subscriptionSchema,
  type NeverSubscribedStreamDict,
} from './stream_dicts.js';
import { renderDescription } from './descriptions.js';
import { isAdmin, type Actor } from './roles.js';

/** Zulip's render_stream_description. */
export function renderStreamDescription(ctx: Ctx, description: string): string {
  return renderDescription(ctx, description);
}

/**
 * Channels that are not archived: archived ones leave every list of POST /register (Zulip's state
 * for clients without the archived_channels capability, which parley does not offer).
 */
function activeStreams(ctx: Ctx): StreamRow[] {
  return selectStreams(ctx.store).filter((stream) => stream.is_archived === 0);
}

/** POST /register's `subscription` state. */
export const subscriptionStateSchema = z.object({
  subscriptions: z.array(subscriptionSchema),
  unsubscribed: z.array(subscriptionSchema),
  never_subscribed: z.array(neverSubscribedStreamSchema),
});

/**
 * POST /register: the user's subscriptions, former subscriptions, and the other channels the user
 * can see; with include_subscribers, each with its active subscribers, all or partial
 * (lib/domain/subscribers.ts; every listed channel is one whose subscribers the user may see:
 * Zulip's validate_user_access_to_subscribers_helper).
 */
export function fetchSubscriptionState(ctx: Ctx, actor: Actor, options: StateOptions): z.infer<typeof subscriptionStateSchema> {
  const counts = selectSubscriberCounts(ctx.store);
  const streams = new Map(activeStreams(ctx).map((stream) => [stream.id, stream]));
  const subs = selectSubscriptionsOfUser(ctx.store, actor.id).filter((sub) => streams.has(sub.stream_id));
  const subscribedIds = new Set(subs.map((sub) => sub.stream_id));
  const formerIds = new Set(selectFormerSubscriptionStreamIds(ctx.store, actor.id).filter((id) => streams.has(id)));
  // A private channel one left drops out of every list with its `stream` delete event.
  const unsubscribedStreams = [...formerIds].map((id) => streams.get(id)!).filter((stream) => canSeeStream(actor, stream, false));
  const neverSubscribedStreams = [...streams.values()].filter(
    (stream) => !subscribedIds.has(stream.id) && !formerIds.has(stream.id) && canSeeStream(actor, stream, false),
  );
  const listed = [...subs.map((sub) => sub.stream_id), ...unsubscribedStreams.map((stream) => stream.id), ...neverSubscribedStreams.map((stream) => stream.id)];
  const subscribersOf = subscriberFieldsFor(ctx, options.includeSubscribers, listed, counts);
  const subscriptions = subs.map((sub) => {
    const stream = streams.get(sub.stream_id)!;
    return subscriptionDict(stream, sub, counts.get(stream.id) ?? 0, subscribersOf(stream.id));
  });
  const unsubscribed = unsubscribedStreams.map((stream) => subscriptionDict(stream, undefined, counts.get(stream.id) ?? 0, subscribersOf(stream.id)));
  const neverSubscribed = neverSubscribedStreams.map((stream): NeverSubscribedStreamDict => ({ ...streamDict(stream, counts.get(stream.id) ?? 0), ...subscribersOf(stream.id) }));
  return {
    subscriptions: subscriptions.sort(byName),
    unsubscribed: unsubscribed.sort(byName),
    never_subscribed: neverSubscribed.sort(byName),
  };
}

export const streamStateSchema = z.object({ streams: z.array(streamSchema) });

/** POST /register: every channel the user can see (administrators: all of them). */
export function fetchStreamState(ctx: Ctx, actor: Actor, _options: StateOptions): z.infer<typeof streamStateSchema> {
  const counts = selectSubscriberCounts(ctx.store);
  const subscribed = new Set(selectSubscribedStreamIds(ctx.store, actor.id));
  const streams = activeStreams(ctx)
    .filter((stream) => canSeeStream(actor, stream, subscribed.has(stream.id)))
    .map((stream) => streamDict(stream, counts.get(stream.id) ?? 0));
  return { streams: streams.sort(byName) };
}

export interface GetStreamsInput {
  includePublic?: boolean | undefined;
  includeWebPublic?: boolean | undefined;
  includeSubscribed?: boolean | undefined;
  excludeArchived?: boolean | undefined;
  includeAllActive?: boolean | undefined;
  includeAll?: boolean | undefined;
  includeDefault?: boolean | undefined;
  includeOwnerSubscribed?: boolean | undefined;
}

export const getStreamsAnswerSchema = z.object({
  streams: z.array(streamSchema.extend({ is_default: z.boolean().optional().describe('With include_default') })),
});

/** GET /streams: Zulip's do_get_streams. */
export function getStreams(ctx: Ctx, actor: Actor, input: GetStreamsInput): z.infer<typeof getStreamsAnswerSchema> {
  const includeAll = (input.includeAll ?? false) || (input.includeAllActive ?? false);
  if (includeAll && !isAdmin(actor)) throw badRequest('User not authorized for this query');
  const includePublic = (input.includePublic ?? true) && actor.role !== 600;
  const includeSubscribed = input.includeSubscribed ?? true;
  const excludeArchived = input.excludeArchived ?? true;
  const subscribed = new Set(selectSubscribedStreamIds(ctx.store, actor.id));
  const ownerSubscribed = new Set<number>();
  if ((input.includeOwnerSubscribed ?? false) && actor.isBot && actor.botOwnerId !== null) {
    for (const id of selectSubscribedStreamIds(ctx.store, actor.botOwnerId)) ownerSubscribed.add(id);
  }
  const counts = selectSubscriberCounts(ctx.store);
  const defaults = new Set(input.includeDefault ? selectDefaultStreamIds(ctx.store) : []);
  const chosen = selectStreams(ctx.store).filter((stream) => {
    if (excludeArchived && stream.is_archived === 1) return false;
    if (includeAll) return true;
    return (
      (includeSubscribed && subscribed.has(stream.id)) ||
      (includePublic && stream.invite_only === 0) ||
      ownerSubscribed.has(stream.id)
    );
  });
  const streams = chosen.map((stream) => {
    const dict = streamDict(stream, counts.get(stream.id) ?? 0);
    return input.includeDefault ? { ...dict, is_default: defaults.has(stream.id) } : dict;
  });
  return { streams: streams.sort(byName) };
}

/** Zulip's access_stream_by_id for metadata: the channel if the user may see it. */
export function accessStreamById(ctx: Ctx, actor: Actor, streamId: number): StreamRow {
  const stream = selectStreamById(ctx.store, streamId);
  if (!stream || !canSeeStream(actor, stream, selectIsSubscribed(ctx.store, actor.id, stream.id))) {
    throw badRequest('Invalid channel ID');
  }
  return stream;
}

/** Whether the user may read the channel's messages (Zulip's check_basic_stream_access). */
export function canReadStream(ctx: Ctx, actor: Actor, stream: StreamRow): boolean {
  return canAccessStreamContent(actor, stream, selectIsSubscribed(ctx.store, actor.id, stream.id));
}

/**
 * Zulip's access_stream_by_id with content access: the channel if the user may read it;
 * archived channels too only with `requireActive: false`.
 */
export function accessStreamContentById(ctx: Ctx, actor: Actor, streamId: number, options: { requireActive?: boolean } = {}): StreamRow {
  const stream = selectStreamById(ctx.store, streamId);
  const archived = stream?.is_archived === 1 && (options.requireActive ?? true);
  if (!stream || archived || !canReadStream(ctx, actor, stream)) throw badRequest('Invalid channel ID');
  return stream;
}

export const getStreamAnswerSchema = z.object({ stream: streamSchema });

/** GET /streams/{stream_id}. */
export function getStream(ctx: Ctx, actor: Actor, input: { streamId: number }): z.infer<typeof getStreamAnswerSchema> {
  const stream = accessStreamById(ctx, actor, input.streamId);
  return { stream: streamDict(stream, selectSubscriberCount(ctx.store, stream.id)) };
}

export const getStreamIdAnswerSchema = z.object({ stream_id: z.int() });

/** GET /get_stream_id: Zulip's access_stream_by_name (content access; the same error for a channel that does not exist). */
export function getStreamId(ctx: Ctx, actor: Actor, input: { stream: string }): z.infer<typeof getStreamIdAnswerSchema> {
  const stream = selectStreamByName(ctx.store, input.stream);
  if (!stream || !canAccessStreamContent(actor, stream, selectIsSubscribed(ctx.store, actor.id, stream.id))) {
    throw badRequest(`Invalid channel name '${input.stream}'`);
  }
  return { stream_id: stream.id };
}

const topicSchema = z.object({ name: z.string(), max_id: z.int() });
export const getTopicsAnswerSchema = z.object({ topics: z.array(topicSchema) });

/**
 * GET /users/me/{stream_id}/topics: Zulip's get_topic_history_for_stream. Topics that differ only
 * in case are one topic, named as in its newest message; newest first.
 */
export function getTopics(ctx: Ctx, actor: Actor, input: { streamId: number }): z.infer<typeof getTopicsAnswerSchema> {
  const stream = accessStreamContentById(ctx, actor, input.streamId, { requireActive: false });
  const rows = selectTopicHistory(ctx.store, stream.id, stream.history_public_to_subscribers === 1 ? null : actor.id);
  const canonical = new Map<string, z.infer<typeof topicSchema>>();
  for (const [name, maxId] of [...rows].sort((a, b) => a[1] - b[1])) canonical.set(name.toLowerCase(), { name, max_id: maxId });
  return { topics: [...canonical.values()].sort((a, b) => b.max_id - a.max_id) };
}
