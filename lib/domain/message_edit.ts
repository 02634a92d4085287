// PATCH /messages/{message_id}: the sender edits the content, topics move with propagate_mode.
// A content edit re-renders the message and recomputes mentioned, the wildcard flags and
// has_alert_word for every recipient, as Zulip's do_update_message does (a recipient who has the
// message by a subscription period gets a row when a flag now differs); other flags stay. Emits update_message.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import {
  selectTopicMessageIds,
  selectTopicMessageIdsToMove,
  selectTopicSenderIds,
  updateMessageContent,
  updateMessageTopic,
  type MessageRow,
} from '../store/messages.js';
import {
  insertUserMessages,
  selectPeriodStreamOfMessage,
  selectReceivedByPeriod,
  selectUserMessageFlags,
  selectUserMessagesOfMessage,
  updateUserMessageFlags,
} from '../store/user_message.js';
import { selectUsersCovering } from '../store/subscription_periods.js';
import { selectUserById } from '../store/users.js';
import { emit } from './event_types.js';
import { FLAG, RENDERED_FLAGS, flagList } from './flags.js';
import { decideMessageNotifications } from '../notifications/decide.js';
import { selectMutingUserIds } from '../store/muted_users.js';
import { selectStreamById } from '../store/streams.js';
import { checkTopic, normalizeContent } from './message_addressee.js';
import { newDictCache, streamOf, type DictCache } from './message_dicts.js';
import type { TopicLink, UpdateMessageEvent } from './message_event_dicts.js';
import { accessMessage } from './message_fetch.js';
import { recordEdit } from './message_history.js';
import { alertWordMatcher, renderMessage, renderedFlags, topicLinksJson, type RenderedMessage } from './message_render.js';
import { updateClaims } from './attachments.js';
import { isGuest, isModeratorOrAbove, type Actor } from './roles.js';
import { isMeMessage } from '../render/markdown.js';
import { firstUnprintable } from './stream_dicts.js';

/** Zulip's defaults: message_content_edit_limit_seconds, move_messages_within_stream_limit_seconds. */
export const CONTENT_EDIT_LIMIT_SECONDS = 600;
export const TOPIC_EDIT_LIMIT_SECONDS = 7 * 24 * 3600;
/** Zulip allows 20 s more than the limit (clients round, requests travel). */
const EDIT_LIMIT_BUFFER_SECONDS = 20;

type PropagateMode = 'change_one' | 'change_later' | 'change_all';

/** An update_message event before its message_ids and each audience's flags. */
type UpdateEvent = Omit<UpdateMessageEvent, 'message_ids' | 'flags'>;

/**
 * PATCH /messages/{message_id}: Zulip lists the uploads no longer referenced by the edited
 * content; parley always answers an empty list.
 */
export const editMessageAnswerSchema = z.object({ detached_uploads: z.array(z.never()) });

export interface EditInput {
  messageId: number;
  content?: string | undefined;
  topic?: string | undefined;
  propagateMode?: PropagateMode | undefined;
}

/** Zulip's validate_message_edit_payload. */
function validatePayload(row: MessageRow, input: EditInput, mode: PropagateMode): void {
  if (input.topic === undefined && input.content === undefined) throw badRequest('Nothing to change');
  if (row.stream_id === null && input.topic !== undefined) throw badRequest('Direct messages cannot have topics.');
  if (mode !== 'change_one' && input.topic === undefined) throw badRequest('Invalid propagate_mode without topic edit');
  if (input.topic !== undefined) {
    const position = firstUnprintable(input.topic.trim());
    if (position !== undefined) throw badRequest(`Invalid character in topic, at position ${position}!`);
  }
}

/**
 * Zulip's validate_user_can_edit_message: only the sender edits the content, within the limit
 * plus a buffer (none for typing notifications of an edit, lib/domain/typing.ts).
 */
export function checkCanEditContent(ctx: Ctx, actor: Actor, row: MessageRow, bufferSeconds = EDIT_LIMIT_BUFFER_SECONDS): void {
  if (row.sender_id !== actor.id) throw badRequest("You don't have permission to edit this message");
  if (ctx.now() - row.date_sent > CONTENT_EDIT_LIMIT_SECONDS + bufferSeconds) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

function checkCanEdit(ctx: Ctx, actor: Actor, row: MessageRow, input: EditInput): void {
  const age = ctx.now() - row.date_sent;
  if (input.content !== undefined) checkCanEditContent(ctx, actor, row);
  if (input.topic !== undefined) {
    if (isGuest(actor) && row.sender_id !== actor.id) throw badRequest("You don't have permission to edit this message");
    if (!isModeratorOrAbove(actor) && age > TOPIC_EDIT_LIMIT_SECONDS + EDIT_LIMIT_BUFFER_SECONDS) {
      throw badRequest("The time limit for editing this message's topic has passed.");
    }
  }
}

/**
 * Messages one transaction of a topic move changes. A move of more (change_later, change_all)
 * commits in batches, each with its own update_message event, so that no transaction holds the
 * write lock for long; the edited message itself moves last, with any content edit, so a retried
 * request finds what a failed one left under the old topic.
 */
export const MOVE_BATCH_SIZE = 500;

function accessForEdit(ctx: Ctx, actor: Actor, input: EditInput): { row: MessageRow; mode: PropagateMode; cache: DictCache } {
  const cache = newDictCache();
  const { row } = accessMessage(ctx, actor, input.messageId, cache);
  const mode = input.propagateMode ?? 'change_one';
  validatePayload(row, input, mode);
  checkCanEdit(ctx, actor, row, input);
  return { row, mode, cache };
}

function newEvent(ctx: Ctx, actor: Actor, row: MessageRow, cache: DictCache): UpdateEvent {
  const event: UpdateEvent = { type: 'update_message', user_id: actor.id, edit_timestamp: ctx.now(), message_id: row.id, rendering_only: false };
  if (row.stream_id !== null) {
    event.stream_name = streamOf(ctx, cache, row.stream_id)?.name ?? '';
    event.stream_id = row.stream_id;
  }
  return event;
}

/** Moves the messages to the topic; each but the edited one gets its edit history entry here. */
function moveTopic(ctx: Ctx, actor: Actor, event: UpdateEvent, row: MessageRow, mode: PropagateMode, topic: string, ids: readonly number[]): void {
  const links = topicLinksJson(ctx, topic);
  for (const id of ids) {
    updateMessageTopic(ctx.store, id, topic, links);
    if (id !== row.id && topic !== row.topic) recordEdit(ctx, actor, id, { prevTopic: row.topic, topic });
  }
  Object.assign(event, { propagate_mode: mode, orig_subject: row.topic, subject: topic, topic_links: JSON.parse(links) as TopicLink[] } satisfies Partial<UpdateEvent>);
}

/** One batch of a long topic move, or undefined when what is left fits in the final transaction. */
function moveBatch(ctx: Ctx, actor: Actor, row: MessageRow, mode: PropagateMode, cache: DictCache, input: EditInput): true | undefined {
  if (row.stream_id === null || input.topic === undefined || mode === 'change_one') return undefined;
  const topic = checkTopic(input.topic);
  const fromId = mode === 'change_all' ? 0 : row.id;
  const ids = selectTopicMessageIdsToMove(ctx.store, row.stream_id, row.topic, topic, fromId, row.id, MOVE_BATCH_SIZE + 1);
  if (ids.length <= MOVE_BATCH_SIZE) return undefined;
  const batch = ids.slice(0, MOVE_BATCH_SIZE);
  const event = newEvent(ctx, actor, row, cache);
  moveTopic(ctx, actor, event, row, mode, topic, batch);
  appendEditEvents(ctx, event, row, batch, new Map(selectUserMessagesOfMessage(ctx.store, row.id)));
  return true;
}

export function editMessage(ctx: Ctx, actor: Actor, input: EditInput): z.infer<typeof editMessageAnswerSchema> {
  for (;;) {
    const done = ctx.tx(() => {
      const { row, mode, cache } = accessForEdit(ctx, actor, input);
      return moveBatch(ctx, actor, row, mode, cache, input) ? undefined : finishEdit(ctx, actor, input, row, mode, cache);
    });
    if (done) return done;
  }
}

/** The edited message, its content, and what is left of a topic move, in one transaction. */
function finishEdit(ctx: Ctx, actor: Actor, input: EditInput, row: MessageRow, mode: PropagateMode, cache: DictCache): z.infer<typeof editMessageAnswerSchema> {
  const now = ctx.now();
  const event = newEvent(ctx, actor, row, cache);
  let changedIds = [row.id];
  let topic = row.topic;
  if (input.topic !== undefined && row.stream_id !== null) {
    topic = checkTopic(input.topic);
    if (mode !== 'change_one') changedIds = selectTopicMessageIds(ctx.store, row.stream_id, row.topic, mode === 'change_all' ? 0 : row.id);
    moveTopic(ctx, actor, event, row, mode, topic, changedIds);
  }

  const rows = selectUserMessagesOfMessage(ctx.store, row.id);
  const flags = new Map(rows);
  const edit: Parameters<typeof recordEdit>[3] = topic !== row.topic ? { prevTopic: row.topic, topic } : {};
  if (input.content !== undefined) {
    const content = normalizeContent(input.content.trimEnd() === '' ? '(deleted)' : input.content);
    const rendered = renderMessage(ctx, content);
    updateMessageContent(ctx.store, row.id, content, rendered.columns, now);
    // Zulip's check_attachment_reference_change claims for the sender, whoever edits.
    const sender = selectUserById(ctx.store, row.sender_id);
    if (sender) updateClaims(ctx, sender, row.id, rendered.html);
    const topicTarget = row.stream_id !== null ? { streamId: row.stream_id, topic, senderId: row.sender_id } : undefined;
    // Who may get a rendered flag among those who have the message by a period: they get a row.
    const newlyFlagged = receiversWithoutRow(ctx, row, rendered, content, topicTarget);
    const recipients = [...rows.map(([userId]) => userId), ...newlyFlagged];
    const fresh = renderedFlags(ctx, rendered, content, recipients, topicTarget);
    const newlyMentioned: [number, number][] = [];
    const noteMention = (userId: number, old: number, next: number) => {
      if ((old & MENTION_FLAGS) === 0 && (next & MENTION_FLAGS) !== 0) newlyMentioned.push([userId, next]);
    };
    for (const [userId, old] of rows) {
      const next = (old & ~RENDERED_FLAGS) | fresh.get(userId)!;
      if (next !== old) updateUserMessageFlags(ctx.store, userId, row.id, next);
      flags.set(userId, next);
      noteMention(userId, old, next);
    }
    for (const userId of newlyFlagged) {
      const old = selectUserMessageFlags(ctx.store, userId, row.id)!;
      const next = (old & ~RENDERED_FLAGS) | fresh.get(userId)!;
      if (next === old) continue;
      insertUserMessages(ctx.store, row.id, [userId], [next]);
      flags.set(userId, next);
      noteMention(userId, old, next);
    }
    notifyNewlyMentioned(ctx, actor, row, topic, rendered, newlyMentioned);
    Object.assign(edit, { prevContent: row.content, prevRenderedContent: row.rendered_content });
    Object.assign(event, {
      orig_content: row.content,
      orig_rendered_content: row.rendered_content,
      content,
      rendered_content: rendered.html,
      is_me_message: isMeMessage(content),
    } satisfies Partial<UpdateEvent>);
  }
  if (Object.keys(edit).length > 0) recordEdit(ctx, actor, row.id, edit);
  appendEditEvents(ctx, event, row, [...changedIds].sort((a, b) => a - b), flags);
  return { detached_uploads: [] };
}

/** The flags of a mention of any kind: Zulip's prior_mention_user_ids counts wildcards too. */
const MENTION_FLAGS = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/**
 * Zulip's maybe_enqueue_notifications_for_message_update: an edit of a channel message notifies
 * the users it newly mentions as the message would have (push, email, the application's hook),
 * unless the channel's or the followed topic's settings notified them of the message already. A
 * direct message's recipients were notified of it, and who was mentioned before is not again.
 */
function notifyNewlyMentioned(ctx: Ctx, actor: Actor, row: MessageRow, topic: string, rendered: RenderedMessage, users: readonly [number, number][]): void {
  if (users.length === 0 || row.stream_id === null) return;
  decideMessageNotifications(
    ctx,
    {
      id: row.id,
      senderId: actor.id,
      stream: selectStreamById(ctx.store, row.stream_id),
      topic,
      recipients: users.map(([userId]) => userId),
      flags: users.map(([, bits]) => bits),
      mutingSender: new Set(selectMutingUserIds(ctx.store, row.sender_id)),
      directMentions: rendered.directMentionIds,
      mentionedGroups: rendered.mentionedGroups,
    },
    { edit: true },
  );
}

/**
 * For a channel message: of the users who have it by a subscription period and no row, those a
 * render may flag (mentioned, alert words, the topic's participants for @**topic**, everyone for a
 * channel-wide mention).
 */
function receiversWithoutRow(
  ctx: Ctx,
  row: MessageRow,
  rendered: RenderedMessage,
  content: string,
  topic: { streamId: number; topic: string; senderId: number } | undefined,
): number[] {
  if (row.stream_id === null || topic === undefined || row.by_period === 0) return [];
  const streamId = row.stream_id;
  const candidates = rendered.streamWildcard
    ? selectUsersCovering(ctx.store, streamId, row.id)
    : [
        ...rendered.mentionedUserIds,
        ...alertWordMatcher(ctx).usersIn(content),
        ...(rendered.topicWildcard ? [...selectTopicSenderIds(ctx.store, streamId, topic.topic), topic.senderId] : []),
      ];
  const withRow = new Set(selectUserMessagesOfMessage(ctx.store, row.id).map(([userId]) => userId));
  return [...new Set(candidates)].filter((userId) => !withRow.has(userId) && selectReceivedByPeriod(ctx.store, userId, row.id));
}

/**
 * update_message goes to everyone who has one of the changed messages, with their flags for the
 * edited one (read for those who do not have it): the users with a row, listed by their flags
 * (`flagsOfEdited`: the rows of the edited message); for a channel message, everyone else who has
 * one by a subscription period, by a rule (lib/events/audience.ts), unread or read as they have
 * the edited message.
 */
function appendEditEvents(ctx: Ctx, event: UpdateEvent, row: MessageRow, changedIds: number[], flagsOfEdited: Map<number, number>): void {
  const listed = new Map<number, number | undefined>();
  for (const id of changedIds) {
    for (const [userId] of selectUserMessagesOfMessage(ctx.store, id)) {
      if (!listed.has(userId)) listed.set(userId, flagsOfEdited.get(userId) ?? selectUserMessageFlags(ctx.store, userId, row.id));
    }
  }
  const byFlags = new Map<string, number[]>();
  for (const [userId, bits] of listed) {
    const key = bits === undefined ? 'none' : String(bits);
    const users = byFlags.get(key);
    if (users) users.push(userId);
    else byFlags.set(key, [userId]);
  }
  for (const [key, users] of byFlags) {
    emit(ctx, users, { ...event, message_ids: changedIds, flags: key === 'none' ? ['read'] : flagList(Number(key)) });
  }
  const received = changedIds.filter((id) => selectPeriodStreamOfMessage(ctx.store, id) !== undefined);
  if (row.stream_id === null || received.length === 0) return;
  const byPeriod = { received: { stream: row.stream_id, messages: received }, except: [...listed.keys()] };
  emit(ctx, { ...byPeriod, unread: { message: row.id, is: true } }, { ...event, message_ids: changedIds, flags: flagList(0) });
  emit(ctx, { ...byPeriod, unread: { message: row.id, is: false } }, { ...event, message_ids: changedIds, flags: ['read'] });
}
