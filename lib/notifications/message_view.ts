// A notified message as every notification shows it: its sender, its conversation, its text as a
// phone shows it, and the web client's link to its conversation.
import type { Ctx } from '../context.js';
import { selectDirectGroupMemberIds, selectMessageById, type MessageRow } from '../store/messages.js';
import { selectStreamById, type StreamRow } from '../store/streams.js';
import { selectUserById, type UserRow } from '../store/users.js';
import { selectGroupNames } from '../store/messages.js';
import { notificationText } from './content.js';

export interface NotifiedMessage {
  row: MessageRow;
  sender: UserRow;
  /** The channel of a channel message. */
  stream: StreamRow | undefined;
  /** A direct message's participants, the sender included, sorted; empty for a channel message. */
  directUserIds: number[];
  /** Zulip's get_mobile_push_content of the message, not truncated. */
  text: string;
}

/** The message, or undefined when it was deleted. */
export function notifiedMessage(ctx: Ctx, messageId: number, realmUrl: string): NotifiedMessage | undefined {
  const row = selectMessageById(ctx.store, messageId);
  if (!row) return undefined;
  const sender = selectUserById(ctx.store, row.sender_id)!;
  const stream = row.stream_id === null ? undefined : selectStreamById(ctx.store, row.stream_id);
  const directUserIds = row.direct_group_id === null ? [] : selectDirectGroupMemberIds(ctx.store, row.direct_group_id).sort((a, b) => a - b);
  return { row, sender, stream, directUserIds, text: notificationText(row.rendered_content, realmUrl) };
}

/** Zulip's get_topic_display_name: the empty topic shows as Zulip's realm_empty_topic_display_name. */
export function topicDisplayName(topic: string): string {
  return topic === '' ? 'general chat' : topic;
}

/** The web client's address of the message's conversation, below its page (web/src/narrow.ts hashes). */
export function conversationHash(message: NotifiedMessage): string {
  if (message.stream) return `#channel/${message.stream.id}/topic/${encodeURIComponent(message.row.topic)}`;
  return `#dm/${message.directUserIds.join(',')}`;
}

/** The web client's view of the message's conversation. */
export function conversationUrl(realmUrl: string, message: NotifiedMessage): string {
  return `${realmUrl.replace(/\/+$/, '')}/${conversationHash(message)}`;
}

/** A mentioned group's name, when it still exists. */
export function groupName(ctx: Ctx, groupId: number): string | undefined {
  return selectGroupNames(ctx.store).find((group) => group.id === groupId)?.name;
}
