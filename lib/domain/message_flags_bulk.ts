// Flags on many messages in bounded batches: POST /messages/flags/narrow (a range of a narrow
// around an anchor, at most MAX_MESSAGES_PER_UPDATE per request) and POST /mark_all_as_read
// (every unread message, MARK_ALL_BATCH_SIZE per transaction); a channel's or a topic's unread
// messages: POST /mark_stream_as_read, POST /mark_topic_as_read, and leaving a channel.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { selectNewestUnreadMessageIds } from '../store/message_flags.js';
import {
  READ_BIT,
  selectHasMessageInTopic,
  selectUnreadMessageIdsInStream,
  selectUnreadMessageIdsInTopic,
  setUserMessageFlagBits,
} from '../store/user_message.js';
import { accessStreamContentById } from './streams.js';
import { emit } from './event_types.js';
import { changeMessageFlag, checkFlagChange, ignoredChannelsField, ignoredChannelsSchema } from './message_flags.js';
import { parseAnchor, selectAnchoredRange } from './message_fetch.js';
import type { NarrowTerm } from './narrow.js';
import type { Actor } from './roles.js';
import { withdrawReadPushNotifications } from '../notifications/push.js';

/** Zulip's MAX_MESSAGES_PER_UPDATE: num_before + num_after are clamped to this. */
export const MAX_MESSAGES_PER_UPDATE = 5000;

export interface FlagsForNarrowInput {
  anchor: string | number;
  includeAnchor?: boolean | undefined;
  numBefore: number;
  numAfter: number;
  narrow: readonly NarrowTerm[] | null;
  op: string;
  flag: string;
}

/** POST /messages/flags/narrow. */
export const updateMessageFlagsForNarrowAnswerSchema = z.object({
  processed_count: z.int(),
  updated_count: z.int(),
  first_processed_id: z.int().nullable(),
  last_processed_id: z.int().nullable(),
  found_oldest: z.boolean(),
  found_newest: z.boolean(),
  ignored_because_not_subscribed_channels: ignoredChannelsSchema,
});
type FlagsForNarrowResult = z.infer<typeof updateMessageFlagsForNarrowAnswerSchema>;

/**
 * POST /messages/flags/narrow (Zulip's update_message_flags_for_narrow): the messages GET
 * /messages would return for the same anchor and narrow, then the change of POST /messages/flags.
 * Checks in Zulip's order: anchor, the excluded anchor, the narrow, then flag and operation.
 */
export function updateMessageFlagsForNarrow(ctx: Ctx, actor: Actor, input: FlagsForNarrowInput): FlagsForNarrowResult {
  return ctx.tx(() => {
    const anchorValue = parseAnchor(input.anchor, false);
    const includeAnchor = input.includeAnchor ?? true;
    if (input.numBefore > 0 && input.numAfter > 0 && !includeAnchor) throw badRequest('The anchor can only be excluded at an end of the range');
    // Clamped so that one request stays one bounded transaction; found_* tell the client to go on.
    const numBefore = Math.min(input.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - input.numAfter, MAX_MESSAGES_PER_UPDATE / 2));
    const numAfter = Math.min(input.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
    const range = selectAnchoredRange(ctx, actor, { anchorValue, includeAnchor, numBefore, numAfter, narrow: input.narrow });
    const ids = range.rows.map((row) => row.id);

    const result = changeMessageFlag(ctx, actor, checkFlagChange(input.flag, input.op), ids);
    return {
      processed_count: ids.length,
      updated_count: result.changed.length,
      first_processed_id: ids[0] ?? null,
      last_processed_id: ids.at(-1) ?? null,
      found_oldest: range.foundOldest,
      found_newest: range.foundNewest,
      ...ignoredChannelsField(result),
    };
  });
}

/** Unread messages marked read per transaction by POST /mark_all_as_read (Zulip's batch size). */
export const MARK_ALL_BATCH_SIZE = 2000;
/** After this long POST /mark_all_as_read answers `complete: false` and the client repeats it (Zulip: 50 s). */
const MARK_ALL_TIME_LIMIT_MS = 50_000;

/** POST /mark_all_as_read's answer: false when it stopped early and the client repeats it. */
export const markAllAsReadAnswerSchema = z.object({ complete: z.boolean() });

/**
 * POST /mark_all_as_read: newest first, one transaction per batch so other writers get the lock
 * in between. Each batch's event lists its messages; the last batch (the one that finds fewer
 * than a batch left) sends Zulip's `all: true` event instead, so a client's unread state stays
 * right even when the request stops early.
 */
export async function markAllAsRead(ctx: Ctx, actor: Actor): Promise<z.infer<typeof markAllAsReadAnswerSchema>> {
  const start = ctx.clock();
  for (;;) {
    if (ctx.clock() - start >= MARK_ALL_TIME_LIMIT_MS) return { complete: false };
    const done = ctx.tx(() => {
      const ids = selectNewestUnreadMessageIds(ctx.store, actor.id, MARK_ALL_BATCH_SIZE);
      setUserMessageFlagBits(ctx.store, actor.id, ids, READ_BIT);
      if (ids.length > 0) withdrawReadPushNotifications(ctx, actor.id);
      const last = ids.length < MARK_ALL_BATCH_SIZE;
      const messages = last ? [] : ids.sort((a, b) => a - b);
      emit(ctx, [actor.id], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all: last });
      return last;
    });
    if (done) return { complete: true };
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * In the caller's transaction: the user's unread messages of a channel (or one of its topics)
 * become read, with one update_message_flags event (Zulip's do_mark_stream_messages_as_read).
 */
export function markStreamMessagesRead(ctx: Ctx, userId: number, streamId: number, topic?: string): void {
  const unread = topic === undefined ? selectUnreadMessageIdsInStream(ctx.store, userId, streamId) : selectUnreadMessageIdsInTopic(ctx.store, userId, streamId, topic);
  if (unread.length === 0) return;
  setUserMessageFlagBits(ctx.store, userId, unread, READ_BIT);
  withdrawReadPushNotifications(ctx, userId);
  emit(ctx, [userId], { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: unread, all: false });
}

/** POST /mark_stream_as_read. */
export function markStreamAsRead(ctx: Ctx, actor: Actor, input: { streamId: number }): Record<string, never> {
  return ctx.tx(() => {
    markStreamMessagesRead(ctx, actor.id, accessStreamContentById(ctx, actor, input.streamId).id);
    return {};
  });
}

/** POST /mark_topic_as_read: a topic the user has no message of is Zulip's "No such topic". */
export function markTopicAsRead(ctx: Ctx, actor: Actor, input: { streamId: number; topicName: string }): Record<string, never> {
  return ctx.tx(() => {
    const streamId = accessStreamContentById(ctx, actor, input.streamId).id;
    if (input.topicName !== '' && !selectHasMessageInTopic(ctx.store, actor.id, streamId, input.topicName)) {
      throw badRequest(`No such topic '${input.topicName}'`);
    }
    markStreamMessagesRead(ctx, actor.id, streamId, input.topicName === '' ? undefined : input.topicName);
    return {};
  });
}
