// Drafts (https://zulip.com/api/get-drafts): GET/POST /drafts, PATCH/DELETE /drafts/{draft_id}; `drafts`
// events (add, update, remove) to the owner's clients and the `drafts` register state.
import type { Ctx } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import type { StateOptions } from './state_options.js';
import type { Draft, DraftIds, DraftList, DraftState, DraftType } from './draft_dicts.js';
import { emit } from './event_types.js';
import {
  deleteDraftRow,
  insertDraft,
  selectDraft,
  selectDrafts,
  selectDraftsSyncEnabled,
  selectNewestDrafts,
  updateDraftRow,
  type DraftRow,
  type NewDraftRow,
} from '../store/drafts.js';
import { selectIsSubscribed, selectStreamById } from '../store/streams.js';
import { selectUserById } from '../store/users.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import type { Actor } from './roles.js';
import { canAccessStreamContent } from './stream_access.js';

/** Zulip's MAX_MESSAGE_LENGTH and MAX_TOPIC_NAME_LENGTH, in code points. */
const MAX_DRAFT_CONTENT_LENGTH = 10000;
const MAX_DRAFT_TOPIC_LENGTH = 60;
/** Zulip's MAX_DRAFTS_IN_REGISTER_RESPONSE. */
const MAX_DRAFTS_IN_REGISTER_RESPONSE = 1000;

/** A DraftData object as the parameter schema left it (content stripped and not blank). */
export interface DraftInput {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp?: number | null | undefined;
}

function formatDraft(row: DraftRow): Draft {
  return {
    id: row.id,
    type: row.type,
    to: JSON.parse(row.to_ids) as number[],
    topic: row.topic,
    content: row.content,
    timestamp: Math.trunc(row.last_edit_time),
  };
}

/**
 * Zulip's draft_endpoint: every draft endpoint is refused when the user turned syncing off. The
 * routes' `before` check; the writes are transactional routes (RouteDef.transactional), so it runs
 * in their write transaction and createDrafts, editDraft and deleteDraft do not read it again.
 */
export function requireDraftsSync(ctx: Ctx, actor: Actor): void {
  if (!selectDraftsSyncEnabled(ctx.store, actor.id)) throw badRequest('User has disabled synchronizing drafts.');
}

/** Zulip's truncate_content: over `limit` code points, cut and end with `suffix`. */
function truncate(text: string, limit: number, suffix: string): string {
  const points = [...text];
  if (points.length <= limit) return text;
  return points.slice(0, limit - [...suffix].length).join('') + suffix;
}

/** Zulip's normalize_body. */
function normalizeContent(content: string): string {
  const body = content.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (body.length === 0) throw badRequest('Message must not be empty');
  if (body.includes('\0')) throw badRequest('Message must not contain null bytes');
  return truncate(body, MAX_DRAFT_CONTENT_LENGTH, '\n[message truncated]');
}

/** Zulip's access_stream_by_id as drafts use it: exists, not archived, and the user may read it. */
function checkChannel(ctx: Ctx, actor: Actor, streamId: number): void {
  const stream = selectStreamById(ctx.store, streamId);
  const readable = stream !== undefined && stream.is_archived === 0 && canAccessStreamContent(actor, stream, selectIsSubscribed(ctx.store, actor.id, streamId));
  if (!readable) throw badRequest('Invalid channel ID');
}

/** The `to` of a direct-message draft: the recipients without the owner, or the owner alone (self-DM). */
function directRecipients(ctx: Ctx, actor: Actor, to: readonly number[]): number[] {
  const ids = [...new Set(to)].sort((a, b) => a - b);
  const users = ids.map((id) => {
    const user = selectUserById(ctx.store, id);
    if (!user) throw badRequest(`Invalid user ID ${id}`);
    return user;
  });
  const gone = users.find((user) => user.is_active !== 1);
  if (gone) throw badRequest(`'${apiEmail(fakeEmailDomain(ctx), gone)}' is no longer using Zulip.`);
  const others = ids.filter((id) => id !== actor.id);
  return others.length === 0 ? [actor.id] : others;
}

/** Zulip's further_validated_draft_dict: the row to store, or the first rule the draft breaks. */
function validateDraft(ctx: Ctx, actor: Actor, draft: DraftInput): NewDraftRow {
  const content = normalizeContent(draft.content);
  const raw = draft.timestamp ?? ctx.clock() / 1000;
  const timestamp = Math.round(raw * 1e6) / 1e6;
  if (timestamp < 0) throw badRequest('Timestamp must not be negative.');
  const row: NewDraftRow = { type: '', to_ids: '[]', topic: '', content, last_edit_time: timestamp };
  if (draft.type === 'stream') {
    const topic = truncate(draft.topic, MAX_DRAFT_TOPIC_LENGTH, '...');
    if (topic.includes('\0')) throw badRequest('Topic must not contain null bytes');
    if (draft.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    checkChannel(ctx, actor, draft.to[0]!);
    return { ...row, type: 'stream', to_ids: JSON.stringify([draft.to[0]]), topic };
  }
  if (draft.type === 'private' && draft.to.length > 0) {
    return { ...row, type: 'private', to_ids: JSON.stringify(directRecipients(ctx, actor, draft.to)) };
  }
  return row;
}

/** GET /drafts: oldest edit first. */
export function listDrafts(ctx: Ctx, actor: Actor): DraftList {
  requireDraftsSync(ctx, actor);
  const drafts = selectDrafts(ctx.store, actor.id).map(formatDraft);
  return { count: drafts.length, drafts };
}

/** POST /drafts: all or nothing; the `add` event is sent even for an empty list. */
export function createDrafts(ctx: Ctx, actor: Actor, input: { drafts: readonly DraftInput[] }): DraftIds {
  return ctx.tx(() => {
    const rows = input.drafts.map((draft) => validateDraft(ctx, actor, draft));
    const created = rows.map((row) => ({ ...row, id: insertDraft(ctx.store, actor.id, row), user_id: actor.id }));
    emit(ctx, [actor.id], { type: 'drafts', op: 'add', drafts: created.map(formatDraft) });
    return { ids: created.map((row) => row.id) };
  });
}

/** PATCH /drafts/{draft_id}: the draft is replaced whole; existence is checked before validation. */
export function editDraft(ctx: Ctx, actor: Actor, input: { draftId: number; draft: DraftInput }): Record<string, never> {
  return ctx.tx(() => {
    if (!selectDraft(ctx.store, actor.id, input.draftId)) throw notFound('Draft does not exist');
    const row = validateDraft(ctx, actor, input.draft);
    updateDraftRow(ctx.store, input.draftId, row);
    emit(ctx, [actor.id], { type: 'drafts', op: 'update', draft: formatDraft({ ...row, id: input.draftId, user_id: actor.id }) });
    return {};
  });
}

/** DELETE /drafts/{draft_id}: the `remove` event reaches all the owner's clients. */
export function deleteDraft(ctx: Ctx, actor: Actor, input: { draftId: number }): Record<string, never> {
  return ctx.tx(() => {
    if (!selectDraft(ctx.store, actor.id, input.draftId)) throw notFound('Draft does not exist');
    deleteDraftRow(ctx.store, input.draftId);
    emit(ctx, [actor.id], { type: 'drafts', op: 'remove', draft_id: input.draftId });
    return {};
  });
}

/** POST /register state: the newest drafts first (Zulip's order and cap); none when syncing is off. */
export function fetchDraftState(ctx: Ctx, actor: Actor, _options: StateOptions): DraftState {
  if (!selectDraftsSyncEnabled(ctx.store, actor.id)) return { drafts: [] };
  return { drafts: selectNewestDrafts(ctx.store, actor.id, MAX_DRAFTS_IN_REGISTER_RESPONSE).map(formatDraft) };
}
