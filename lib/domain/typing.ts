// Typing notifications: POST /typing (the typing event) and POST /messages/{message_id}/typing
// (the typing_edit_message event), Zulip's zerver/views/typing.py and zerver/actions/typing.py.
// Nothing is stored: the events go through the event log like any other (so queues served by
// other processes get them, with ids in sequence) and are pruned with it. They go to the other
// participants, not to the sender (Zulip also sends the sender its own). The same op again in a
// conversation within a few seconds is dropped (lib/domain/typing_throttle.ts).
import type { Ctx } from '../context.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { emit } from './event_types.js';
import type { TypingEditEvent, TypingEvent } from './message_event_dicts.js';
import { badRequest } from '../errors.js';
import { selectDirectGroupMemberIds } from '../store/messages.js';
import { selectIsSubscribed, selectActiveSubscriberIds, selectStreamById } from '../store/streams.js';
import { selectUserById, type UserRow } from '../store/users.js';
import { checkCanEditContent } from './message_edit.js';
import { accessMessage } from './message_fetch.js';
import { checkCanSendToStream } from './message_send.js';
import type { Actor } from './roles.js';
import { existingUser } from './users.js';
import { canAccessStreamContent } from './stream_access.js';
import { userSetting } from './user_settings.js';
import { typingPasses } from './typing_throttle.js';
import { selectUsersWithSetting } from '../store/user_settings.js';

/** Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: channels with more subscribers get no typing events. */
const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

export type TypingOp = 'start' | 'stop';

export interface TypingInput {
  /** direct (default), or stream / channel. */
  type?: 'direct' | 'stream' | 'channel' | undefined;
  op: TypingOp;
  to?: readonly number[] | undefined;
  streamId?: number | undefined;
  topic?: string | undefined;
}

/** A participant as events name them: the API email every viewer sees (email address visibility). */
function personOf(ctx: Ctx): (user: Pick<UserRow, 'id' | 'email' | 'email_address_visibility'>) => { user_id: number; email: string } {
  const domain = fakeEmailDomain(ctx);
  return (user) => ({ user_id: user.id, email: apiEmail(domain, user) });
}

/** Zulip's receives_typing_notifications: users who turned it off hear of no one typing. */
function receivingTyping(ctx: Ctx, userIds: readonly number[]): number[] {
  const refusing = selectUsersWithSetting(ctx.store, 'receives_typing_notifications', false);
  return userIds.filter((id) => !refusing.has(id));
}

/** Subscribers who hear of typing in a channel: none in a channel too big for it. */
function channelAudience(ctx: Ctx, streamId: number, senderId: number): number[] {
  const subscribers = selectActiveSubscriberIds(ctx.store, streamId);
  if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return [];
  return receivingTyping(ctx, subscribers.filter((id) => id !== senderId));
}

/** Zulip's access_stream_by_id_for_message and access_stream_for_send_message. */
function accessChannelForTyping(ctx: Ctx, actor: Actor, streamId: number) {
  const stream = selectStreamById(ctx.store, streamId);
  if (!stream || stream.is_archived === 1 || !canAccessStreamContent(actor, stream, selectIsSubscribed(ctx.store, actor.id, streamId))) {
    throw badRequest('Invalid channel ID');
  }
  checkCanSendToStream(ctx, actor, stream);
  return stream;
}

/** Zulip's check_send_typing_notification: every id must be a user; deactivated ones are named but not told. */
function sendDirectTyping(ctx: Ctx, actor: Actor, op: TypingOp, to: readonly number[]): void {
  const ids = to.includes(actor.id) ? [...to] : [...to, actor.id];
  const users = ids.map((id) => {
    const user = selectUserById(ctx.store, id);
    if (!user) throw badRequest(`Invalid user ID ${id}`);
    return user;
  });
  if (!typingPasses(ctx, actor.id, { type: 'direct', userIds: ids }, op)) return;
  const sender = users.find((user) => user.id === actor.id)!;
  const event: TypingEvent = { type: 'typing', op, message_type: 'direct', sender: personOf(ctx)(sender), recipients: users.map(personOf(ctx)) };
  emit(ctx, receivingTyping(ctx, users.filter((user) => user.is_active === 1 && user.id !== actor.id).map((user) => user.id)), event);
}

/** POST /typing. */
export function sendTyping(ctx: Ctx, actor: Actor, input: TypingInput): Record<string, never> {
  return ctx.tx(() => {
    if (input.type === 'stream' || input.type === 'channel') {
      if (userSetting(ctx, actor.id, 'send_stream_typing_notifications') === false) {
        throw badRequest('User has disabled typing notifications for channel messages');
      }
      if (input.streamId === undefined) throw badRequest("Missing 'stream_id' argument");
      if (input.topic === undefined) throw badRequest('Missing topic');
      const stream = accessChannelForTyping(ctx, actor, input.streamId);
      // Zulip's maybe_rename_no_topic_to_empty_topic, as for messages (message_addressee.ts checkTopic).
      const topic = input.topic === '(no topic)' ? '' : input.topic;
      if (!typingPasses(ctx, actor.id, { type: 'channel', streamId: stream.id, topic }, input.op)) return {};
      const sender = personOf(ctx)(existingUser(ctx, actor.id));
      const event: TypingEvent = { type: 'typing', op: input.op, message_type: 'stream', sender, stream_id: stream.id, topic };
      emit(ctx, channelAudience(ctx, stream.id, actor.id), event);
      return {};
    }
    if (userSetting(ctx, actor.id, 'send_private_typing_notifications') === false) {
      throw badRequest('User has disabled typing notifications for direct messages');
    }
    if (input.to === undefined) throw badRequest("Missing 'to' argument");
    if (input.to.length === 0) throw badRequest("Empty 'to' list");
    sendDirectTyping(ctx, actor, input.op, input.to);
    return {};
  });
}

/** POST /messages/{message_id}/typing: the sender of a message they may still edit is editing it. */
export function sendEditTyping(ctx: Ctx, actor: Actor, input: { messageId: number; op: TypingOp }): Record<string, never> {
  return ctx.tx(() => {
    const { row } = accessMessage(ctx, actor, input.messageId);
    checkCanEditContent(ctx, actor, row, 0);
    if (!typingPasses(ctx, actor.id, { type: 'edit', messageId: row.id }, input.op)) return {};
    const event = { type: 'typing_edit_message', op: input.op, sender_id: actor.id, message_id: row.id } as const;
    if (row.stream_id !== null) {
      const edit: TypingEditEvent = { ...event, recipient: { type: 'channel', channel_id: row.stream_id, topic: row.topic } };
      emit(ctx, channelAudience(ctx, row.stream_id, actor.id), edit);
      return {};
    }
    const userIds = selectDirectGroupMemberIds(ctx.store, row.direct_group_id!).filter((id) => selectUserById(ctx.store, id)?.is_active === 1);
    const edit: TypingEditEvent = { ...event, recipient: { type: 'direct', user_ids: userIds } };
    emit(ctx, receivingTyping(ctx, userIds.filter((id) => id !== actor.id)), edit);
    return {};
  });
}
