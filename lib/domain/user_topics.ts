// Topic visibility (Zulip's UserTopic): POST /user_topics and the legacy PATCH
// /users/me/subscriptions/muted_topics (Zulip's views/user_topics.py and
// actions/user_topics.py), the user_topic and muted_topics events and their /register state.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { selectIsSubscribed, selectStreamById, selectStreamByName, type StreamRow } from '../store/streams.js';
import { deleteUserTopic, insertUserTopic, selectUserTopic, selectUserTopicsOfUser, updateUserTopicPolicy } from '../store/user_topics.js';
import type { Actor } from './roles.js';
import type { StateOptions } from './state_options.js';
import { canAccessStreamContent } from './stream_access.js';
import { mutedTopicSchema, userTopicSchema } from './channel_event_dicts.js';
import { emit } from './event_types.js';

/** Zulip's UserTopic.VisibilityPolicy. */
export const VISIBILITY_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** Zulip's get_user_topics and get_topic_mutes leave out archived channels. */
function liveUserTopics(ctx: Ctx, userId: number) {
  return selectUserTopicsOfUser(ctx.store, userId).flatMap((row) => {
    const stream = selectStreamById(ctx.store, row.stream_id);
    return stream && stream.is_archived === 0 ? [{ row, stream }] : [];
  });
}

export const userTopicStateSchema = z.object({ user_topics: z.array(userTopicSchema) });

export function fetchUserTopicState(ctx: Ctx, actor: Actor, _options: StateOptions): z.infer<typeof userTopicStateSchema> {
  return {
    user_topics: liveUserTopics(ctx, actor.id).map(({ row }) => ({
      stream_id: row.stream_id,
      topic_name: row.topic,
      last_updated: row.last_updated,
      visibility_policy: row.visibility_policy,
    })),
  };
}

/** The legacy muted_topics list: [channel name, topic, date muted] of the muted topics. */
function mutedTopics(ctx: Ctx, userId: number): z.infer<typeof mutedTopicSchema>[] {
  return liveUserTopics(ctx, userId)
    .filter(({ row }) => row.visibility_policy === VISIBILITY_POLICY.muted)
    .map(({ row, stream }) => [stream.name, row.topic, row.last_updated]);
}

export const mutedTopicsStateSchema = z.object({ muted_topics: z.array(mutedTopicSchema) });

export function fetchMutedTopicsState(ctx: Ctx, actor: Actor, _options: StateOptions): z.infer<typeof mutedTopicsStateSchema> {
  return { muted_topics: mutedTopics(ctx, actor.id) };
}

type StreamRef = { streamId?: number | undefined; stream?: string | undefined };

/** The channel a request names by `stream` or, without it, by `streamId`. */
function streamOfRef(ctx: Ctx, ref: StreamRef): StreamRow | undefined {
  if (ref.stream !== undefined) return selectStreamByName(ctx.store, ref.stream);
  return ref.streamId === undefined ? undefined : selectStreamById(ctx.store, ref.streamId);
}

/** Zulip's access_stream_by_id / access_stream_by_name for setting a policy: a channel whose messages the user may read. */
function accessStream(ctx: Ctx, actor: Actor, ref: StreamRef): StreamRow {
  const stream = streamOfRef(ctx, ref);
  if (!stream || !canAccessStreamContent(actor, stream, selectIsSubscribed(ctx.store, actor.id, stream.id))) {
    throw badRequest(ref.stream !== undefined ? `Invalid channel name '${ref.stream}'` : 'Invalid channel ID');
  }
  return stream;
}

/** Zulip's access_stream_to_remove_visibility_policy_by_*: any existing channel, so policies outlive access. */
function streamToClear(ctx: Ctx, ref: StreamRef, error: string): StreamRow {
  const stream = streamOfRef(ctx, ref);
  if (!stream) throw badRequest(error);
  return stream;
}

/**
 * Zulip's do_set_user_topic_visibility_policy: nothing for a request that changes nothing;
 * otherwise the muted_topics event, then the user_topic event (naming the topic as stored).
 */
function setPolicy(ctx: Ctx, userId: number, stream: StreamRow, topic: string, policy: number): void {
  const existing = selectUserTopic(ctx.store, userId, stream.id, topic);
  const now = ctx.now();
  if (policy === VISIBILITY_POLICY.inherit) {
    if (!existing) return;
    deleteUserTopic(ctx.store, userId, stream.id, topic);
  } else if (!existing) {
    insertUserTopic(ctx.store, { user_id: userId, stream_id: stream.id, topic, visibility_policy: policy, last_updated: now });
  } else {
    if (existing.visibility_policy === policy) return;
    updateUserTopicPolicy(ctx.store, userId, stream.id, topic, policy, now);
  }
  emit(ctx, [userId], { type: 'muted_topics', muted_topics: mutedTopics(ctx, userId) });
  const topicName = existing?.topic ?? topic;
  emit(ctx, [userId], { type: 'user_topic', stream_id: stream.id, topic_name: topicName, last_updated: now, visibility_policy: policy });
}

/** POST /user_topics. */
export function updateUserTopic(ctx: Ctx, actor: Actor, input: { streamId: number; topic: string; visibilityPolicy: number }): Record<string, never> {
  return ctx.tx(() => {
    const stream =
      input.visibilityPolicy === VISIBILITY_POLICY.inherit
        ? streamToClear(ctx, { streamId: input.streamId }, 'Invalid channel ID')
        : accessStream(ctx, actor, { streamId: input.streamId });
    setPolicy(ctx, actor.id, stream, input.topic, input.visibilityPolicy);
    return {};
  });
}

/** PATCH /users/me/subscriptions/muted_topics: Zulip's update_muted_topic (exactly one of stream and stream_id). */
export function updateMutedTopic(
  ctx: Ctx,
  actor: Actor,
  input: { stream?: string | undefined; streamId?: number | undefined; topic: string; op: 'add' | 'remove' },
): Record<string, never> {
  return ctx.tx(() => {
    if (input.stream === undefined && input.streamId === undefined) throw badRequest("Missing 'stream_id' argument");
    if (input.stream !== undefined && input.streamId !== undefined) throw badRequest('Unsupported parameter combination: stream_id, stream');
    const ref = { stream: input.stream, streamId: input.streamId };
    if (input.op === 'add') setPolicy(ctx, actor.id, accessStream(ctx, actor, ref), input.topic, VISIBILITY_POLICY.muted);
    else setPolicy(ctx, actor.id, streamToClear(ctx, ref, 'Topic is not muted'), input.topic, VISIBILITY_POLICY.inherit);
    return {};
  });
}
