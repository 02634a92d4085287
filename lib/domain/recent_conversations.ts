// The message-derived lists of POST /register: `starred_messages` (kept current by the
// update_message_flags events of the starred flag) and `recent_private_conversations` (kept
// current by message events): Zulip's get_starred_message_ids and get_recent_private_conversations.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import { selectRecentDirectConversations, selectStarredMessageIds } from '../store/user_message.js';
import type { Actor } from './roles.js';

/** Zulip's RECENT_CONVERSATIONS_LIMIT: the conversations of the user's newest this many direct messages. */
const RECENT_CONVERSATIONS_LIMIT = 1000;

export const starredMessagesStateSchema = z.object({ starred_messages: z.array(z.int()) });

export function fetchStarredMessagesState(ctx: Ctx, actor: Actor, _options: StateOptions): z.infer<typeof starredMessagesStateSchema> {
  return { starred_messages: selectStarredMessageIds(ctx.store, actor.id) };
}

/** Newest first; `user_ids` are the other participants, sorted (empty for messages to oneself). */
export const recentPrivateConversationsStateSchema = z.object({
  recent_private_conversations: z.array(z.strictObject({ max_message_id: z.int(), user_ids: z.array(z.int()) })),
});

export function fetchRecentPrivateConversationsState(
  ctx: Ctx,
  actor: Actor,
  _options: StateOptions,
): z.infer<typeof recentPrivateConversationsStateSchema> {
  const conversations = selectRecentDirectConversations(ctx.store, actor.id, RECENT_CONVERSATIONS_LIMIT);
  return {
    recent_private_conversations: conversations.map(({ memberKey, maxMessageId }) => ({
      max_message_id: maxMessageId,
      user_ids: memberKey
        .split(',')
        .map(Number)
        .filter((id) => id !== actor.id),
    })),
  };
}
