// Zulip's message object (MessageDict): what GET /messages, GET /messages/{id} and the `message`
// event carry. One DictCache per request avoids reading the same sender or channel twice.
import type { Ctx } from '../context.js';
import { isMeMessage } from '../render/markdown.js';
import { selectDirectGroupMemberIds, selectSenderRow, type MessageRow, type SenderRow } from '../store/messages.js';
import { selectStreamById, type StreamRow } from '../store/streams.js';
import { editHistoryByMessage, lastMovedTimestamp, messageEditHistory, type EditHistoryEntry } from './edit_history_dicts.js';
import { messageReactions, reactionsByMessage, type Reaction } from './reaction_dicts.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { avatarUrl } from './avatars.js';
import type { DirectRecipient, MessageDict, TopicLink } from './message_event_dicts.js';

export interface DictCache {
  /** The domain of dummy emails (lib/domain/email_visibility.ts), read once per request. */
  emailDomain?: string;
  users: Map<number, SenderRow | undefined>;
  /** Senders' avatar_url (an MD5 each when not null). */
  avatars: Map<number, string | null>;
  streams: Map<number, StreamRow | undefined>;
  directGroups: Map<number, DirectRecipient[]>;
  /** The reactions of a page of messages, read at once; a message not in it is read alone. */
  reactions: Map<number, Reaction[]> | undefined;
  /** The edit histories of a page of messages, read at once; likewise. */
  edits: Map<number, EditHistoryEntry[]> | undefined;
}

export function newDictCache(): DictCache {
  return { users: new Map(), avatars: new Map(), streams: new Map(), directGroups: new Map(), reactions: undefined, edits: undefined };
}

/** A cache for a message just sent: no reactions and no edits to read. */
export function newMessageDictCache(): DictCache {
  return { ...newDictCache(), reactions: new Map(), edits: new Map() };
}

/** A cache that holds the reactions and edit histories of these messages (one statement each for a page). */
export function dictCacheFor(ctx: Ctx, messageIds: readonly number[]): DictCache {
  const cache = newDictCache();
  cache.reactions = reactionsByMessage(ctx, messageIds);
  cache.edits = editHistoryByMessage(ctx, messageIds);
  return cache;
}

function reactionsOf(ctx: Ctx, cache: DictCache, messageId: number): Reaction[] {
  return cache.reactions === undefined ? messageReactions(ctx, messageId) : (cache.reactions.get(messageId) ?? []);
}

function editsOf(ctx: Ctx, cache: DictCache, messageId: number): EditHistoryEntry[] {
  return cache.edits === undefined ? messageEditHistory(ctx, messageId) : (cache.edits.get(messageId) ?? []);
}

/**
 * A message's sender or recipient with the email every viewer sees (Zulip's UserProfile.email),
 * and its avatar_url as a sender: null for a client to compute from that email, or the gravatar
 * URL when the email is not the real one (Zulip's MessageDict.finalize_payload turns
 * client_gravatar off then).
 */
function userOf(ctx: Ctx, cache: DictCache, id: number): { email: string; full_name: string; avatar_url: string | null } {
  let user = cache.users.get(id);
  if (user === undefined && !cache.users.has(id)) {
    user = selectSenderRow(ctx.store, id);
    cache.users.set(id, user);
  }
  if (user === undefined) return { email: '', full_name: '', avatar_url: null };
  cache.emailDomain ??= fakeEmailDomain(ctx);
  let avatar = cache.avatars.get(id);
  if (avatar === undefined) cache.avatars.set(id, (avatar = avatarUrl(user, true)));
  return { email: apiEmail(cache.emailDomain, user), full_name: user.full_name, avatar_url: avatar };
}

export function streamOf(ctx: Ctx, cache: DictCache, id: number): StreamRow | undefined {
  if (!cache.streams.has(id)) cache.streams.set(id, selectStreamById(ctx.store, id));
  return cache.streams.get(id);
}

function directRecipients(ctx: Ctx, cache: DictCache, directGroupId: number): DirectRecipient[] {
  let list = cache.directGroups.get(directGroupId);
  if (list === undefined) {
    list = selectDirectGroupMemberIds(ctx.store, directGroupId).map((id) => {
      const user = userOf(ctx, cache, id);
      return { id, email: user.email, full_name: user.full_name, is_mirror_dummy: false };
    });
    cache.directGroups.set(directGroupId, list);
  }
  return list;
}

/**
 * A conversation id for clients' hashing (Zulip's recipient_id): parley has no recipient table,
 * so channels get even numbers and direct-message conversations odd ones.
 */
function recipientIdOf(row: Pick<MessageRow, 'stream_id' | 'direct_group_id'>): number {
  return row.stream_id !== null ? row.stream_id * 2 : row.direct_group_id! * 2 + 1;
}

/** The message object without `flags`; content as HTML or, with applyMarkdown false, Markdown. */
export function messageDict(ctx: Ctx, cache: DictCache, row: MessageRow, applyMarkdown: boolean): MessageDict {
  const sender = userOf(ctx, cache, row.sender_id);
  const recipient =
    row.stream_id !== null
      ? { type: 'stream' as const, stream_id: row.stream_id, display_recipient: streamOf(ctx, cache, row.stream_id)?.name ?? '' }
      : { type: 'private' as const, display_recipient: directRecipients(ctx, cache, row.direct_group_id!) };
  const dict: MessageDict = {
    id: row.id,
    sender_id: row.sender_id,
    content: applyMarkdown ? row.rendered_content : row.content,
    content_type: applyMarkdown ? 'text/html' : 'text/x-markdown',
    recipient_id: recipientIdOf(row),
    timestamp: row.date_sent,
    client: row.sending_client,
    subject: row.topic,
    topic_links: row.topic_links === '[]' ? [] : (JSON.parse(row.topic_links) as TopicLink[]),
    is_me_message: isMeMessage(row.content),
    reactions: reactionsOf(ctx, cache, row.id),
    submessages: [],
    sender_full_name: sender.full_name,
    sender_email: sender.email,
    sender_realm_str: '',
    avatar_url: sender.avatar_url,
    ...recipient,
  };
  if (row.last_edit_time !== null) dict.last_edit_timestamp = row.last_edit_time;
  const edits = editsOf(ctx, cache, row.id);
  if (edits.length > 0) {
    dict.edit_history = edits;
    const moved = lastMovedTimestamp(edits);
    if (moved !== undefined) dict.last_moved_timestamp = moved;
  }
  return dict;
}
