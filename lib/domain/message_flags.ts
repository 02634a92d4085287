// POST /messages/flags: add or remove a personal flag on a list of messages
// (Zulip's do_update_message_flags), with historical rows, the unread invariant (no message
// stays unread in a channel the user is not subscribed to), and the `update_message_flags`
// event. unread_msgs lives in unread.ts.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import {
  clearUserMessageReadBits,
  insertHistoricalUserMessages,
  selectConversations,
  updateUserMessageFlagsWhereDifferent,
  type Conversation,
} from '../store/message_flags.js';
import { selectMessageById } from '../store/messages.js';
import { selectSubscribedStreamIds } from '../store/streams.js';
import { selectUserMessageFlags } from '../store/user_message.js';
import { emit } from './event_types.js';
import { ALL_FLAGS, FLAG, HISTORICAL_FLAGS, NON_API_FLAGS, NON_EDITABLE_FLAGS, type EditableFlag, type FlagName } from './flags.js';
import { newDictCache } from './message_dicts.js';
import type { MessageDetail } from './message_event_dicts.js';
import { messageAccess } from './message_fetch.js';
import { mentionMask, messageDetails, newUnreadClassifier } from './unread.js';
import type { Actor } from './roles.js';
import { withdrawReadPushNotifications } from '../notifications/push.js';

/**
 * Most ids one POST /messages/flags may list: as many as unread_msgs reports, so a client can
 * mark everything it knows about in one request, while one request stays one bounded transaction.
 */
export const MAX_FLAG_MESSAGES = 50000;

/** Flag names a client may send: stored flags but the internal ones (not `wildcard_mentioned`, which is derived). */
const API_FLAG_NAMES: ReadonlySet<string> = new Set(ALL_FLAGS.filter((name) => !NON_API_FLAGS.has(name)));

export type FlagOp = 'add' | 'remove';

export interface FlagChange {
  op: FlagOp;
  flag: EditableFlag;
}

/** Zulip's checks, in its order: unknown flag, flag not editable, bad operation. */
export function checkFlagChange(flag: string, op: string): FlagChange {
  if (!API_FLAG_NAMES.has(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (NON_EDITABLE_FLAGS.has(flag as FlagName)) throw badRequest(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  return { op, flag: flag as EditableFlag };
}

export interface FlagChangeResult {
  /** Ids whose flag changed, in request order, each once; new historical rows included. */
  changed: number[];
  /** Only for op=remove, flag=read: channels whose messages stayed read (not subscribed: Zulip keeps them read), ascending. */
  ignoredStreamIds?: number[];
}

/**
 * Zulip's create_historical_user_messages after bulk_access_messages: all or nothing, so one
 * inaccessible or missing id fails the request (`Invalid message(s)`) and the caller's
 * transaction rolls back.
 */
function createHistoricalRows(ctx: Ctx, actor: Actor, messageIds: readonly number[], flags: number): void {
  const cache = newDictCache();
  for (const id of messageIds) {
    const row = selectMessageById(ctx.store, id);
    if (!row || messageAccess(ctx, actor, row, cache) === undefined) throw badRequest('Invalid message(s)');
  }
  insertHistoricalUserMessages(ctx.store, actor.id, messageIds, flags);
}

/** Every change but marking unread: one conditional UPDATE per id, rows created where Zulip creates them. */
function setFlagBits(ctx: Ctx, actor: Actor, change: FlagChange, messageIds: readonly number[]): FlagChangeResult {
  const mask = FLAG[change.flag];
  const target = change.op === 'add' ? mask : 0;
  const changedAt = updateUserMessageFlagsWhereDifferent(ctx.store, actor.id, messageIds, mask, target);
  // A message without a row counts as read and historical: a row is needed only where that
  // differs from the target (add starred, add collapsed); add read and removals skip it.
  const historical = new Set<number>();
  if ((HISTORICAL_FLAGS & mask) !== target) {
    messageIds.forEach((id, i) => {
      if (changedAt[i] === 0 && selectUserMessageFlags(ctx.store, actor.id, id) === undefined) historical.add(id);
    });
    if (historical.size > 0) createHistoricalRows(ctx, actor, [...historical], (HISTORICAL_FLAGS & ~mask) | target);
  }
  const changed = new Set<number>();
  messageIds.forEach((id, i) => {
    if (changedAt[i] === 1 || historical.has(id)) changed.add(id);
  });
  return { changed: [...changed] };
}

/**
 * op=remove, flag=read: messages in channels the user is not subscribed to stay read and their
 * channels are reported; a message of a subscribed channel without a row gets a historical,
 * unread row. Returns what the event's message_details says of each changed message.
 */
function markUnread(ctx: Ctx, actor: Actor, messageIds: readonly number[]): FlagChangeResult & { details: Record<string, MessageDetail> } {
  const subscribed = new Set(selectSubscribedStreamIds(ctx.store, actor.id));
  const classifier = newUnreadClassifier(ctx, actor.id);
  const conversations = selectConversations(ctx.store, messageIds);
  const ignored = new Set<number>();
  const eligible: number[] = [];
  const eligibleAt: number[] = [];
  const masks: number[] = [];
  const historical = new Set<number>();
  messageIds.forEach((id, i) => {
    const conversation = conversations[i];
    if (conversation === undefined) historical.add(id); // no such message: Invalid message(s) below
    else if (conversation.streamId !== null && !subscribed.has(conversation.streamId)) ignored.add(conversation.streamId);
    else {
      eligible.push(id);
      eligibleAt.push(i);
      masks.push(mentionMask(classifier, conversation.streamId, conversation.topic));
    }
  });
  const changedAt = clearUserMessageReadBits(ctx.store, actor.id, eligible, masks);
  const changed = new Set<number>();
  const changedConversations: Conversation[] = [];
  const mentioned: boolean[] = [];
  eligible.forEach((id, j) => {
    if (changed.has(id)) return;
    if (changedAt[j] === 0) {
      if (selectUserMessageFlags(ctx.store, actor.id, id) === undefined) historical.add(id);
      else return;
    }
    changed.add(id);
    changedConversations.push(conversations[eligibleAt[j]!]!);
    mentioned.push(changedAt[j] === 2);
  });
  if (historical.size > 0) createHistoricalRows(ctx, actor, [...historical], FLAG.historical);
  const ids = [...changed];
  return { changed: ids, ignoredStreamIds: [...ignored].sort((a, b) => a - b), details: messageDetails(classifier, ids, changedConversations, mentioned) };
}

/**
 * Applies one flag change and appends the `update_message_flags` event to the user's queues,
 * even when nothing changed (Zulip). Call inside ctx.tx.
 */
export function changeMessageFlag(ctx: Ctx, actor: Actor, change: FlagChange, messageIds: readonly number[]): FlagChangeResult {
  const event = <Op extends FlagOp>(op: Op, messages: number[]) =>
    ({ type: 'update_message_flags', op, operation: op, flag: change.flag, messages, all: false }) as const;
  if (change.flag === 'read' && change.op === 'remove') {
    const { details, ...result } = markUnread(ctx, actor, messageIds);
    emit(ctx, [actor.id], { ...event('remove', result.changed), message_details: details });
    return result;
  }
  const result = setFlagBits(ctx, actor, change, messageIds);
  emit(ctx, [actor.id], change.op === 'add' ? event('add', result.changed) : event('remove', result.changed));
  if (change.flag === 'read' && change.op === 'add' && result.changed.length > 0) withdrawReadPushNotifications(ctx, actor.id);
  return result;
}

/** The response's ignored_because_not_subscribed_channels: present only for op=remove, flag=read. */
export function ignoredChannelsField(result: FlagChangeResult): { ignored_because_not_subscribed_channels?: number[] } {
  return result.ignoredStreamIds ? { ignored_because_not_subscribed_channels: result.ignoredStreamIds } : {};
}

export interface UpdateFlagsInput {
  messages: readonly number[];
  op: string;
  flag: string;
}

/** Only for op=remove, flag=read: the response's ignored_because_not_subscribed_channels. */
export const ignoredChannelsSchema = z.array(z.int()).optional().describe('Only for op=remove, flag=read: channels whose messages stayed read');

/** POST /messages/flags: `messages` echoes the request's list (Zulip: "included for backwards compatibility"). */
export const updateMessageFlagsAnswerSchema = z.object({ messages: z.array(z.int()), ignored_because_not_subscribed_channels: ignoredChannelsSchema });

export function updateMessageFlags(ctx: Ctx, actor: Actor, input: UpdateFlagsInput): z.infer<typeof updateMessageFlagsAnswerSchema> {
  const change = checkFlagChange(input.flag, input.op);
  return ctx.tx(() => {
    const result = changeMessageFlag(ctx, actor, change, input.messages);
    return { messages: [...input.messages], ...ignoredChannelsField(result) };
  });
}
