// The `reactions` of Zulip's message objects, read per message or for a page of messages at once,
// and the `reaction` event.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { groupBy } from '../group.js';
import { selectReactionsOfMessage, selectReactionsOfMessages, type ReactionRow } from '../store/reactions.js';

/** A reaction in a message object (Zulip's EmojiReaction; the `user` object went at feature level 328). */
export const reactionSchema = z
  .object({ emoji_name: z.string(), emoji_code: z.string(), reaction_type: z.string(), user_id: z.int() })
  .strict();
export type Reaction = z.infer<typeof reactionSchema>;

/** The `reaction` event (Zulip still sends the deprecated `user` object in it). */
const reactionEvent = z.strictObject({
  type: z.literal('reaction'),
  user_id: z.int(),
  user: z.strictObject({ user_id: z.int(), email: z.string(), full_name: z.string() }),
  message_id: z.int(),
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.string(),
});
export const reactionEventSchemas = [reactionEvent.extend({ op: z.literal('add') }), reactionEvent.extend({ op: z.literal('remove') })] as const;
export type ReactionEvent = z.infer<(typeof reactionEventSchemas)[number]>;

function reactionOf(row: ReactionRow): Reaction {
  return { emoji_name: row.emoji_name, emoji_code: row.emoji_code, reaction_type: row.reaction_type, user_id: row.user_id };
}

/** The reactions of one message object. */
export function messageReactions(ctx: Ctx, messageId: number): Reaction[] {
  return selectReactionsOfMessage(ctx.store, messageId).map(reactionOf);
}

/** The reactions of many message objects, read in one statement. */
export function reactionsByMessage(ctx: Ctx, messageIds: readonly number[]): Map<number, Reaction[]> {
  if (messageIds.length === 0) return new Map();
  return groupBy(selectReactionsOfMessages(ctx.store, messageIds), (row) => row.message_id, reactionOf);
}
