// What an outgoing webhook bot posts when its delivery ends (Zulip's send_response_message,
// fail_with_message and notify_bot_owner): the reply, or "Failure! ..." in the conversation that
// triggered it, and the notice to its owner, each as the bot, in the transaction that ends the delivery.
import type { Ctx } from '../context.js';
import { toActor } from '../domain/callers.js';
import { sendMessage } from '../domain/message_send.js';
import type { Actor } from '../domain/roles.js';
import { selectDirectGroupMemberIds, selectMessageById } from '../store/messages.js';
import { selectUserById } from '../store/users.js';

/** Zulip's client of the bot's answers. */
const CLIENT = 'OutgoingWebhookResponse';

/**
 * Runs one post in a savepoint: a post that cannot be made (the channel archived, a participant
 * deactivated) is logged and dropped, and the delivery still ends.
 */
function postQuietly(ctx: Ctx, what: string, botId: number, post: () => void): void {
  try {
    ctx.db.transaction(post)();
  } catch (error) {
    ctx.logger.warn('outgoing webhook: could not post', { what, bot_id: botId, error: error instanceof Error ? error.message : String(error) });
  }
}

function activeBot(ctx: Ctx, botId: number): Actor | undefined {
  const row = selectUserById(ctx.store, botId);
  return row && row.is_active === 1 ? toActor(row) : undefined;
}

/**
 * Posts `content` as the bot where the message was: its channel and topic (whether or not the bot
 * may send there, as Zulip's skip_stream_access_check), or its direct message conversation.
 */
export function postInConversation(ctx: Ctx, botId: number, messageId: number, content: string, what: string): void {
  const bot = activeBot(ctx, botId);
  const message = selectMessageById(ctx.store, messageId);
  if (!bot || !message) return;
  postQuietly(ctx, what, botId, () => {
    if (message.stream_id !== null) {
      sendMessage(ctx, bot, { type: 'stream', to: message.stream_id, topic: message.topic, content }, CLIENT, { skipStreamAccessCheck: true });
    } else {
      const others = selectDirectGroupMemberIds(ctx.store, message.direct_group_id!).filter((id) => id !== botId);
      sendMessage(ctx, bot, { type: 'private', to: others.length > 0 ? others : [botId], content }, CLIENT);
    }
  });
}

/** Zulip's notify_bot_owner: a direct message from the bot to its owner, when it has an active one. */
export function postToOwner(ctx: Ctx, botId: number, content: string): void {
  const bot = activeBot(ctx, botId);
  if (!bot || bot.botOwnerId === null) return;
  const owner = selectUserById(ctx.store, bot.botOwnerId);
  if (!owner || owner.is_active === 0) return;
  postQuietly(ctx, 'owner notice', botId, () => sendMessage(ctx, bot, { type: 'private', to: [owner.id], content }, CLIENT));
}
