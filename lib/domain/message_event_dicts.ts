// Zulip's message object (MessageDict) and the events of messages, flags, reactions and typing
// (https://zulip.com/api/get-events): message, update_message, delete_message,
// update_message_flags, reaction, typing, typing_edit_message, as clients receive them.
import { z } from 'zod';
import type { LocalEcho } from '../events/shape.js';
import { editHistoryEntrySchema } from './edit_history_dicts.js';
import { apiFlagSchema, editableFlagSchema } from './flags.js';
import { reactionEventSchemas, reactionSchema } from './reaction_dicts.js';

const id = z.int();

/** A link the realm's linkifiers find in a topic. */
const topicLinkSchema = z.strictObject({ text: z.string(), url: z.string() });
export type TopicLink = z.infer<typeof topicLinkSchema>;

/** A participant of a direct message, in its display_recipient. */
const directRecipientSchema = z.strictObject({ id, email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() });
export type DirectRecipient = z.infer<typeof directRecipientSchema>;

/** Zulip's message dictionary without `flags`, as the `message` event carries it. */
export const messageDictSchema = z.strictObject({
  id,
  sender_id: id,
  content: z.string(),
  content_type: z.enum(['text/html', 'text/x-markdown']),
  recipient_id: id,
  timestamp: z.int(),
  client: z.string(),
  subject: z.string(),
  topic_links: z.array(topicLinkSchema),
  is_me_message: z.boolean(),
  reactions: z.array(reactionSchema),
  submessages: z.array(z.unknown()).describe('Always empty: parley has no widgets'),
  sender_full_name: z.string(),
  sender_email: z.string(),
  sender_realm_str: z.string(),
  avatar_url: z.string().nullable(),
  type: z.enum(['stream', 'private']),
  stream_id: id.optional().describe('Channel messages'),
  display_recipient: z.union([z.string(), z.array(directRecipientSchema)]),
  last_edit_timestamp: z.int().optional().describe("When the message's content was last edited"),
  last_moved_timestamp: z.int().optional().describe('When the message last moved to another topic (not only resolved)'),
  edit_history: z.array(editHistoryEntrySchema).optional().describe('Edits and moves, newest first; absent when never edited'),
});
export type MessageDict = z.infer<typeof messageDictSchema>;

/** `message`: a new message with the recipient's flags; the sender's queue named in POST /messages gets local_message_id. */
export const messageEventSchema = z.strictObject({
  type: z.literal('message'),
  message: messageDictSchema,
  flags: z.array(apiFlagSchema),
  local_message_id: z.string().optional(),
});
type MessageEvent = z.infer<typeof messageEventSchema>;

/**
 * The message event as stored: the message also carries its Markdown source and the event the
 * local echo fields; lib/events/shape.ts makes the delivered form of each client from them.
 */
export type StoredMessageEvent = Omit<MessageEvent, 'message' | 'local_message_id'> & { message: MessageDict & { _markdown: string } } & LocalEcho;

/** `update_message`: an edit of content, topic or both; `flags` are the recipient's for the edited message. */
export const updateMessageEventSchema = z.strictObject({
  type: z.literal('update_message'),
  user_id: id,
  edit_timestamp: z.int(),
  message_id: id,
  rendering_only: z.literal(false),
  stream_name: z.string().optional().describe('Channel messages'),
  stream_id: id.optional().describe('Channel messages'),
  propagate_mode: z.enum(['change_one', 'change_later', 'change_all']).optional().describe('Topic edits'),
  orig_subject: z.string().optional().describe('Topic edits'),
  subject: z.string().optional().describe('Topic edits'),
  topic_links: z.array(topicLinkSchema).optional().describe('Topic edits'),
  orig_content: z.string().optional().describe('Content edits'),
  orig_rendered_content: z.string().optional().describe('Content edits'),
  content: z.string().optional().describe('Content edits'),
  rendered_content: z.string().optional().describe('Content edits'),
  is_me_message: z.boolean().optional().describe('Content edits'),
  message_ids: z.array(id),
  flags: z.array(apiFlagSchema),
});
export type UpdateMessageEvent = z.infer<typeof updateMessageEventSchema>;

// delete_message: `message_ids`, or `message_id` for clients without the bulk_message_deletion
// capability (lib/events/shape.ts); channel messages name their channel and topic, which Zulip
// sends lowercased (it groups deletions by topic case-insensitively).
const deleteMessage = z.strictObject({ type: z.literal('delete_message') });
const deletedFromChannel = { message_type: z.literal('stream'), stream_id: id, topic: z.string() };
const deletedFromDirect = { message_type: z.literal('private') };
const deleteMessages = deleteMessage.extend({ message_ids: z.array(id) });
const deleteOneMessage = deleteMessage.extend({ message_id: id });
export const deleteMessageEventSchemas = [
  deleteMessages.extend(deletedFromChannel),
  deleteMessages.extend(deletedFromDirect),
  deleteOneMessage.extend(deletedFromChannel),
  deleteOneMessage.extend(deletedFromDirect),
] as const;
/** The delete_message event as stored (and as bulk_message_deletion clients get it). */
export type DeleteMessageEvent = z.infer<(typeof deleteMessageEventSchemas)[0 | 1]>;

/** What the update_message_flags event that marks messages unread says of each (Zulip's message_details). */
const mentioned = z.literal(true).optional();
export const messageDetailSchema = z.union([
  z.strictObject({ type: z.literal('stream'), stream_id: id, topic: z.string(), unmuted_stream_msg: z.boolean(), mentioned }),
  z.strictObject({ type: z.literal('private'), user_ids: z.array(id), mentioned }),
]);
export type MessageDetail = z.infer<typeof messageDetailSchema>;

const flagChange = {
  type: z.literal('update_message_flags'),
  flag: editableFlagSchema,
  messages: z.array(id),
};
/** `update_message_flags` add; `all: true` (with no messages) is POST /mark_all_as_read's last batch. */
export const flagsAddEventSchema = z.strictObject({ ...flagChange, op: z.literal('add'), operation: z.literal('add'), all: z.boolean() });
/** `update_message_flags` remove; marking unread (flag read) says where each message is. */
export const flagsRemoveEventSchema = z.strictObject({
  ...flagChange,
  op: z.literal('remove'),
  operation: z.literal('remove'),
  all: z.literal(false),
  message_details: z.record(z.string(), messageDetailSchema).optional().describe('Only for flag read'),
});

/** A user as typing events name them. */
const typist = z.strictObject({ user_id: id, email: z.string() });
const typingDirect = z.strictObject({ type: z.literal('typing'), message_type: z.literal('direct'), sender: typist, recipients: z.array(typist) });
const typingChannel = z.strictObject({ type: z.literal('typing'), message_type: z.literal('stream'), sender: typist, stream_id: id, topic: z.string() });
const typingEdit = z.strictObject({
  type: z.literal('typing_edit_message'),
  sender_id: id,
  message_id: id,
  recipient: z.union([
    z.strictObject({ type: z.literal('channel'), channel_id: id, topic: z.string() }),
    z.strictObject({ type: z.literal('direct'), user_ids: z.array(id) }),
  ]),
});
const start = { op: z.literal('start') };
const stop = { op: z.literal('stop') };
const typingEventSchemas = [typingDirect.extend(start), typingDirect.extend(stop), typingChannel.extend(start), typingChannel.extend(stop)] as const;
export type TypingEvent = z.infer<(typeof typingEventSchemas)[number]>;
const typingEditEventSchemas = [typingEdit.extend(start), typingEdit.extend(stop)] as const;
export type TypingEditEvent = z.infer<(typeof typingEditEventSchemas)[number]>;

/** The events of messages, flags, reactions and typing, for the union of lib/domain/event_types.ts. */
export const messageEventSchemas = [
  messageEventSchema,
  updateMessageEventSchema,
  ...deleteMessageEventSchemas,
  flagsAddEventSchema,
  flagsRemoveEventSchema,
  ...reactionEventSchemas,
  ...typingEventSchemas,
  ...typingEditEventSchemas,
] as const;
