// Emoji reactions: POST and DELETE /messages/{message_id}/reactions (Zulip's check_add_reaction
// and remove_reaction) and the `reaction` event; message objects' `reactions` are in reaction_dicts.ts.
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { deleteReactionRow, insertReaction, selectReactionName, selectUserReaction, type ReactionRow } from '../store/reactions.js';
import { insertUserMessageIfAbsent } from '../store/user_message.js';
import type { Caller } from './callers.js';
import { callerApiEmail } from './email_visibility.js';
import { checkEmojiRequest, getEmojiData, isExtraEmojiType, REACTION_TYPE, ZULIP_EXTRA_EMOJI } from './emoji.js';
import { emit } from './event_types.js';
import { HISTORICAL_FLAGS } from './flags.js';
import { newDictCache, streamOf } from './message_dicts.js';
import type { ReactionEvent } from './reaction_dicts.js';
import { accessMessage } from './message_fetch.js';
import { messageActionAudience } from './stream_access.js';

export interface ReactionInput {
  messageId: number;
  emojiName?: string | undefined;
  emojiCode?: string | undefined;
  reactionType?: string | undefined;
}

/**
 * Reactions are stored and reported with Zulip's type names, so Zulip clients parse them; the
 * extra emoji's other spelling (`service_extra_emoji`) is accepted as input.
 */
function storedType(reactionType: string): string {
  return isExtraEmojiType(reactionType) ? ZULIP_EXTRA_EMOJI : reactionType;
}

function notify(ctx: Ctx, caller: Caller, messageId: number, audience: readonly number[], reaction: ReactionRow, op: 'add' | 'remove'): void {
  const event: ReactionEvent = {
    type: 'reaction',
    op,
    user_id: caller.actor.id,
    user: { user_id: caller.actor.id, email: callerApiEmail(ctx, caller), full_name: caller.actor.fullName },
    message_id: messageId,
    emoji_name: reaction.emoji_name,
    emoji_code: reaction.emoji_code,
    reaction_type: reaction.reaction_type,
  };
  emit(ctx, audience, event);
}

/** POST /messages/{message_id}/reactions. */
export function addReaction(ctx: Ctx, caller: Caller, input: ReactionInput): Record<string, never> {
  const { actor } = caller;
  return ctx.tx(() => {
    const cache = newDictCache();
    const { row } = accessMessage(ctx, actor, input.messageId, cache);
    const emojiName = input.emojiName ?? '';
    let { emojiCode, reactionType } = input;
    if (emojiCode === undefined || reactionType === undefined) {
      const data = getEmojiData(ctx, emojiName);
      emojiCode ??= data.emojiCode;
      reactionType ??= data.reactionType;
    }
    const type = storedType(reactionType);
    if (selectUserReaction(ctx.store, row.id, actor.id, type, emojiCode)) {
      throw new ApiError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
    }
    // Someone reacted with this emoji already: a vote for that reaction, under its name, even if
    // the emoji has since been deactivated.
    const existingName = selectReactionName(ctx.store, row.id, type, emojiCode);
    if (existingName === undefined) checkEmojiRequest(ctx, emojiName, emojiCode, type === ZULIP_EXTRA_EMOJI ? REACTION_TYPE.extra : type);
    const reaction: ReactionRow = { message_id: row.id, user_id: actor.id, emoji_name: existingName ?? emojiName, emoji_code: emojiCode, reaction_type: type };
    // A channel message the user never received enters their history (Zulip's historical rows).
    insertUserMessageIfAbsent(ctx.store, actor.id, row.id, HISTORICAL_FLAGS);
    insertReaction(ctx.store, reaction);
    notify(ctx, caller, row.id, messageActionAudience(ctx, row, row.stream_id === null ? undefined : streamOf(ctx, cache, row.stream_id)), reaction, 'add');
    return {};
  });
}

/** DELETE /messages/{message_id}/reactions: by code, or by name looked up as it is now. */
export function removeReaction(ctx: Ctx, caller: Caller, input: ReactionInput): Record<string, never> {
  const { actor } = caller;
  return ctx.tx(() => {
    const cache = newDictCache();
    const { row } = accessMessage(ctx, actor, input.messageId, cache);
    let emojiCode = input.emojiCode;
    if (emojiCode === undefined) {
      if (input.emojiName === undefined) {
        throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
      }
      emojiCode = getEmojiData(ctx, input.emojiName).emojiCode;
    }
    const type = storedType(input.reactionType ?? REACTION_TYPE.unicode);
    // Not validated again: the row proves the emoji was valid when the reaction was added.
    const reaction = selectUserReaction(ctx.store, row.id, actor.id, type, emojiCode);
    if (!reaction) throw new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    deleteReactionRow(ctx.store, row.id, actor.id, type, emojiCode);
    notify(ctx, caller, row.id, messageActionAudience(ctx, row, row.stream_id === null ? undefined : streamOf(ctx, cache, row.stream_id)), reaction, 'remove');
    return {};
  });
}
