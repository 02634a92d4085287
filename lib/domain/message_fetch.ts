// GET /messages (anchors, num_before/num_after, narrows, message_ids) and GET /messages/{id},
// with Zulip's access rules (has_message_access) and found_* semantics; the `with` operator,
// which only GET /messages resolves (Zulip's clean_narrow_for_message_fetch); the max_message_id
// state of POST /register.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { ApiError, badRequest, missing } from '../errors.js';
import {
  selectFirstUnread,
  selectMessageAt,
  selectMessagesAfter,
  selectMessagesAmong,
  selectMessagesBefore,
  type FetchedRow,
  type MessageQuery,
} from '../store/message_query.js';
import { selectDirectGroupMemberIds, selectMessageById, type MessageRow } from '../store/messages.js';
import { selectIsSubscribed } from '../store/streams.js';
import { selectUserMaxMessageId, selectUserMessageFlags } from '../store/user_message.js';
import { HISTORICAL_FLAGS, apiFlagSchema, flagList } from './flags.js';
import { dictCacheFor, messageDict, newDictCache, streamOf, type DictCache } from './message_dicts.js';
import { messageDictSchema } from './message_event_dicts.js';
import { badNarrow, parseNarrow, type NarrowTerm } from './narrow.js';
import { searchFields, type SearchQuery } from './search.js';
import { canReadStreamMessage } from './stream_access.js';
import type { Actor } from './roles.js';
import type { StateOptions } from './state_options.js';

export const MAX_MESSAGES_PER_FETCH = 5000;
/** Zulip's LARGER_THAN_MAX_MESSAGE_ID: anchor=newest. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

export interface GetMessagesInput {
  anchor?: string | number | undefined;
  includeAnchor?: boolean | undefined;
  numBefore?: number | undefined;
  numAfter?: number | undefined;
  narrow?: readonly NarrowTerm[] | undefined;
  useFirstUnreadAnchor?: boolean | undefined;
  applyMarkdown?: boolean | undefined;
  messageIds?: readonly number[] | undefined;
}

/** A message as GET /messages/{message_id} returns it: with the user's flags. */
const fetchedMessageSchema = messageDictSchema.extend({ flags: z.array(apiFlagSchema) });

/** A message of GET /messages; a search's also says where its words matched. */
const pageMessageSchema = fetchedMessageSchema.extend({
  match_content: z.string().optional().describe('Search narrows: the HTML content with matching words in <span class="highlight">'),
  match_subject: z.string().optional().describe('Search narrows: the HTML-escaped topic with matching words highlighted'),
});
type PageMessage = z.infer<typeof pageMessageSchema>;

/** GET /messages/{message_id}. */
export const getMessageAnswerSchema = z.object({ raw_content: z.string(), message: fetchedMessageSchema });

/** GET /messages: anchor and found_* only for a range query (not with message_ids). */
export const getMessagesAnswerSchema = z.object({
  messages: z.array(pageMessageSchema),
  // Zulip's LARGER_THAN_MAX_MESSAGE_ID (anchor=newest) is above 2^53: a number, not an int.
  anchor: z.number().optional().describe('Absent when message_ids was given'),
  found_anchor: z.boolean().optional(),
  found_oldest: z.boolean().optional(),
  found_newest: z.boolean().optional(),
  history_limited: z.boolean(),
});
type MessagesPage = z.infer<typeof getMessagesAnswerSchema>;

/** POST /register's message state. */
export const messageStateSchema = z.object({ max_message_id: z.int().describe('-1 without any message') });

/** Zulip's has_message_access; returns the user's flags (historical ones when they have no row), or undefined. */
export function messageAccess(ctx: Ctx, actor: { id: number; role: number }, row: MessageRow, cache: DictCache): number | undefined {
  const own = selectUserMessageFlags(ctx.store, actor.id, row.id);
  if (row.stream_id === null) return own;
  const stream = streamOf(ctx, cache, row.stream_id)!;
  const readable = canReadStreamMessage(actor, stream, selectIsSubscribed(ctx.store, actor.id, stream.id), own !== undefined);
  if (!readable) return undefined;
  return own ?? HISTORICAL_FLAGS;
}

/** Zulip's access_message: the message and the user's flags, or `Invalid message(s)`. */
export function accessMessage(ctx: Ctx, actor: Actor, messageId: number, cache = newDictCache()): { row: MessageRow; flags: number } {
  const row = selectMessageById(ctx.store, messageId);
  const flags = row ? messageAccess(ctx, actor, row, cache) : undefined;
  if (!row || flags === undefined) throw badRequest('Invalid message(s)');
  return { row, flags };
}

/** GET /messages/{message_id}. */
export function getMessage(
  ctx: Ctx,
  actor: Actor,
  input: { messageId: number; applyMarkdown?: boolean | undefined },
): z.infer<typeof getMessageAnswerSchema> {
  const cache = newDictCache();
  const { row, flags } = accessMessage(ctx, actor, input.messageId, cache);
  const message = { ...messageDict(ctx, cache, row, input.applyMarkdown ?? true), flags: flagList(flags) };
  return { raw_content: row.content, message };
}

/** Zulip's parse_anchor_value. */
export function parseAnchor(anchor: string | number | undefined, useFirstUnread: boolean): number | null {
  if (useFirstUnread) return null;
  if (anchor === undefined) throw badRequest("Missing 'anchor' argument.");
  if (anchor === 'oldest') return 0;
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'first_unread') return null;
  const value = typeof anchor === 'number' ? anchor : /^[+-]?\d+$/.test(anchor.trim()) ? Number(anchor.trim()) : NaN;
  if (!Number.isInteger(value)) throw badRequest('Invalid anchor');
  return Math.min(Math.max(value, 0), LARGER_THAN_MAX_MESSAGE_ID);
}

/** The message objects of a page; a search's also carry match_content and match_subject. */
function format(ctx: Ctx, rows: readonly FetchedRow[], applyMarkdown: boolean, search: SearchQuery | undefined): PageMessage[] {
  const cache = dictCacheFor(ctx, rows.map((row) => row.id));
  const fields = search && searchFields(search);
  return rows.map((row) => {
    const dict: PageMessage = Object.assign(messageDict(ctx, cache, row, applyMarkdown), { flags: flagList(row.um_flags ?? HISTORICAL_FLAGS) });
    return fields ? Object.assign(dict, fields(row)) : dict;
  });
}

const CONVERSATION_OPERATORS = ['stream', 'channel', 'topic', 'dm', 'pm-with'];

/** Zulip's can_narrow_define_conversation. */
function definesConversation(narrow: readonly NarrowTerm[]): boolean {
  const has = (operators: string[]) => narrow.some((term) => operators.includes(term.operator));
  return has(['dm', 'pm-with']) || (has(['stream', 'channel']) && has(['topic']));
}

/**
 * Zulip's update_narrow_terms_containing_with_operator: `with:<message id>` becomes the message's
 * current conversation (its channel and topic, or its direct-message members), replacing the
 * narrow's own conversation terms. An inaccessible message keeps a narrow that names a
 * conversation itself, without the `with` term.
 */
function resolveWith(ctx: Ctx, actor: Actor, narrow: readonly NarrowTerm[] | undefined): readonly NarrowTerm[] | undefined {
  const withTerms = narrow?.filter((term) => term.operator === 'with') ?? [];
  if (narrow === undefined || withTerms.length === 0) return narrow;
  if (withTerms.length > 1) {
    const desc = "Duplicate 'with' operators.";
    throw new ApiError('BAD_NARROW', `Invalid narrow operator combination: ${desc}`, { extra: { desc } });
  }
  const rest = narrow.filter((term) => term !== withTerms[0]);
  const { operand } = withTerms[0]!;
  if (Array.isArray(operand)) throw badRequest('operand is not a string or integer');
  // Python's int(): surrounding white space and a sign are allowed.
  const text = String(operand).trim();
  if (!/^[+-]?\d+$/.test(text)) throw badNarrow("Invalid 'with' operator");
  const row = selectMessageById(ctx.store, Number(text));
  if (!row || messageAccess(ctx, actor, row, newDictCache()) === undefined) {
    if (definesConversation(rest)) return rest;
    throw badNarrow("Invalid 'with' operator");
  }
  const others = rest.filter((term) => !CONVERSATION_OPERATORS.includes(term.operator));
  if (row.stream_id !== null) return [{ operator: 'channel', operand: row.stream_id }, { operator: 'topic', operand: row.topic }, ...others];
  return [{ operator: 'dm', operand: selectDirectGroupMemberIds(ctx.store, row.direct_group_id!) }, ...others];
}

/** GET /messages. */
export function getMessages(ctx: Ctx, actor: Actor, input: GetMessagesInput): MessagesPage {
  const applyMarkdown = input.applyMarkdown ?? true;
  if (input.messageIds !== undefined) return getMessagesById(ctx, actor, input, applyMarkdown);
  if (input.numBefore === undefined) throw missing('num_before');
  if (input.numAfter === undefined) throw missing('num_after');
  const anchorValue = parseAnchor(input.anchor, input.useFirstUnreadAnchor ?? false);
  const includeAnchor = input.includeAnchor ?? true;
  if (input.numBefore + input.numAfter > MAX_MESSAGES_PER_FETCH) {
    throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  if (input.numBefore > 0 && input.numAfter > 0 && !includeAnchor) throw badRequest('The anchor can only be excluded at an end of the range');
  const narrow = resolveWith(ctx, actor, input.narrow);
  const range = selectAnchoredRange(ctx, actor, { anchorValue, includeAnchor, numBefore: input.numBefore, numAfter: input.numAfter, narrow });
  return {
    messages: format(ctx, range.rows, applyMarkdown, range.search),
    found_anchor: range.foundAnchor,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
    history_limited: false,
    anchor: range.anchor,
  };
}

/** The messages of a narrow around an anchor, oldest first: shared by GET /messages and POST /messages/flags/narrow. */
export interface AnchoredRange {
  rows: FetchedRow[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  search: SearchQuery | undefined;
}

export function selectAnchoredRange(
  ctx: Ctx,
  actor: Actor,
  input: { anchorValue: number | null; includeAnchor: boolean; numBefore: number; numAfter: number; narrow: readonly NarrowTerm[] | null | undefined },
): AnchoredRange {
  let { numBefore, numAfter } = input;
  const narrow = parseNarrow(ctx, actor, input.narrow ?? []);
  const query: MessageQuery = { userId: actor.id, history: narrow.includeHistory, conditions: narrow.conditions };
  const anchor = input.anchorValue ?? selectFirstUnread(ctx.store, query) ?? LARGER_THAN_MAX_MESSAGE_ID;
  const anchoredToLeft = anchor === 0;
  const anchoredToRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  if (anchoredToRight) numAfter = 0;
  if (anchoredToLeft) numBefore = 0;

  const before = numBefore > 0 ? selectMessagesBefore(ctx.store, query, anchor, numBefore).reverse() : [];
  const at = input.includeAnchor && !anchoredToRight ? selectMessageAt(ctx.store, query, anchor) : undefined;
  const after = numAfter > 0 ? selectMessagesAfter(ctx.store, query, anchor, false, numAfter) : [];
  return {
    rows: [...before, ...(at ? [at] : []), ...after],
    anchor,
    foundAnchor: at !== undefined,
    foundOldest: anchoredToLeft || before.length < numBefore,
    foundNewest: anchoredToRight || after.length < numAfter,
    search: narrow.search,
  };
}

function getMessagesById(ctx: Ctx, actor: Actor, input: GetMessagesInput, applyMarkdown: boolean): MessagesPage {
  const conflicting = (['anchor', 'include_anchor', 'num_after', 'num_before', 'use_first_unread_anchor'] as const).filter(
    (name) =>
      ({
        anchor: input.anchor,
        include_anchor: input.includeAnchor,
        num_after: input.numAfter,
        num_before: input.numBefore,
        use_first_unread_anchor: input.useFirstUnreadAnchor,
      })[name] !== undefined,
  );
  if (conflicting.length > 0) {
    throw new ApiError('BAD_REQUEST', `Unsupported parameter combination: ${[...conflicting, 'message_ids'].join(', ')}`);
  }
  const narrow = parseNarrow(ctx, actor, resolveWith(ctx, actor, input.narrow) ?? []);
  const cache = newDictCache();
  const accessible: MessageRow[] = [];
  for (const id of [...new Set(input.messageIds)].sort((a, b) => a - b)) {
    const row = selectMessageById(ctx.store, id);
    if (row && messageAccess(ctx, actor, row, cache) !== undefined) accessible.push(row);
  }
  if (narrow.conditions.length === 0) {
    const rows = accessible.map((row) => ({ ...row, um_flags: selectUserMessageFlags(ctx.store, actor.id, row.id) ?? null }));
    return { messages: format(ctx, rows, applyMarkdown, narrow.search), history_limited: false };
  }
  // One statement for all the ids: a search's index is walked once.
  const query: MessageQuery = { userId: actor.id, history: true, conditions: narrow.conditions };
  const rows = selectMessagesAmong(ctx.store, query, accessible.map((row) => row.id));
  return { messages: format(ctx, rows, applyMarkdown, narrow.search), history_limited: false };
}

/** POST /register: the newest message the user received (Zulip), -1 without any. */
export function fetchMessageState(ctx: Ctx, actor: Actor, _options: StateOptions): z.infer<typeof messageStateSchema> {
  return { max_message_id: selectUserMaxMessageId(ctx.store, actor.id) };
}
