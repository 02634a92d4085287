// DELETE /messages/{message_id}: Zulip's validate_can_delete_message and do_delete_messages. The
// message goes with its rows (user_message, reactions, edit history); drafts are untouched. Emits
// delete_message (and stream/update first_message_id when the channel's first message goes).
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { deleteMessageRow, selectFirstStreamMessageId, type MessageRow } from '../store/messages.js';
import { replaceStreamFirstMessageId, type StreamRow } from '../store/streams.js';
import { deleteUserMessagesOfMessage } from '../store/user_message.js';
import { selectUserById } from '../store/users.js';
import { emit } from './event_types.js';
import { newDictCache, streamOf } from './message_dicts.js';
import type { DeleteMessageEvent } from './message_event_dicts.js';
import { accessMessage } from './message_fetch.js';
import { releaseClaims } from './attachments.js';
import { isAdmin, type Actor } from './roles.js';
import { messageActionAudience } from './stream_access.js';
import { withdrawDeletedPushNotifications } from '../notifications/push.js';
import { DELETE_LIMIT_SECONDS } from './message_delete_settings.js';

export { DELETE_LIMIT_SECONDS };


const denied = (): Error => badRequest("You don't have permission to delete this message");

/**
 * Zulip's validate_can_delete_message with its default settings: can_delete_any_message_group is
 * administrators (any message, any time); can_delete_own_message_group is everyone, for messages
 * they or their bots sent, within message_content_delete_limit_seconds. Channels' own delete
 * groups default to nobody, so they add no one.
 */
function checkCanDelete(ctx: Ctx, actor: Actor, row: MessageRow): void {
  if (isAdmin(actor)) return;
  if (row.sender_id !== actor.id && selectUserById(ctx.store, row.sender_id)?.bot_owner_id !== actor.id) throw denied();
  if (ctx.now() - row.date_sent > DELETE_LIMIT_SECONDS) throw badRequest('The time limit for deleting this message has passed');
}

/** Zulip's check_update_first_message_id: the channel's oldest remaining message, told to the same audience. */
function updateFirstMessageId(ctx: Ctx, stream: StreamRow, deletedId: number, audience: readonly number[]): void {
  if (stream.first_message_id !== deletedId) return;
  const first = selectFirstStreamMessageId(ctx.store, stream.id);
  replaceStreamFirstMessageId(ctx.store, stream.id, first);
  emit(ctx, audience, { type: 'stream', op: 'update', property: 'first_message_id', value: first, stream_id: stream.id, name: stream.name });
}

/** DELETE /messages/{message_id}. */
export function deleteMessage(ctx: Ctx, actor: Actor, input: { messageId: number }): Record<string, never> {
  return ctx.tx(() => {
    const cache = newDictCache();
    const { row } = accessMessage(ctx, actor, input.messageId, cache);
    checkCanDelete(ctx, actor, row);
    const stream = row.stream_id === null ? undefined : streamOf(ctx, cache, row.stream_id);
    // Read before the rows go: Zulip's event_recipient_ids_for_action_on_messages, and always the deleter.
    const audience = [...new Set([...messageActionAudience(ctx, row, stream), actor.id])].sort((a, b) => a - b);
    releaseClaims(ctx, row.id);
    withdrawDeletedPushNotifications(ctx, row.id);
    deleteUserMessagesOfMessage(ctx.store, row.id);
    deleteMessageRow(ctx.store, row.id);
    if (stream) updateFirstMessageId(ctx, stream, row.id, audience);
    const event: DeleteMessageEvent = stream
      ? { type: 'delete_message', message_ids: [row.id], message_type: 'stream', stream_id: stream.id, topic: row.topic.toLowerCase() }
      : { type: 'delete_message', message_ids: [row.id], message_type: 'private' };
    emit(ctx, audience, event);
    return {};
  });
}
