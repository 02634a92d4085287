// User status: POST /users/me/status, POST /users/{user_id}/status,
// GET /users/{user_id}/status, the user_status event and its /register state.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import type { StateOptions } from './state_options.js';
import { stripPython } from '../text.js';
import { updateUserPresenceEnabled } from '../store/users.js';
import {
  selectShownUserStatuses,
  selectUserStatus,
  upsertUserStatus,
  type UserStatusChange,
  type UserStatusRow,
} from '../store/user_status.js';
import { REACTION_TYPE, checkEmojiRequest, getEmojiData } from './emoji.js';
import type { Actor } from './roles.js';
import { accessUserById, requireHuman } from './users.js';
import { emit } from './event_types.js';
import type { UserStatus, UserStatusEvent, UserStatusState } from './user_dicts.js';

/** status_text limit, in Unicode code points (checked when parameters are parsed). */
export const MAX_STATUS_TEXT_LENGTH = 60;

/** What a status update may carry; undefined = not sent. status_text arrives already stripped. */
export interface StatusInput {
  statusText?: string | undefined;
  emojiName?: string | undefined;
  emojiCode?: string | undefined;
  reactionType?: string | undefined;
}

function formatStatus(row: UserStatusRow): UserStatus {
  const status: UserStatus = {};
  if (row.presence_enabled === 0) status.away = true;
  if (row.status_text !== '') status.status_text = row.status_text;
  if (row.emoji_name !== '') {
    status.emoji_name = row.emoji_name;
    status.emoji_code = row.emoji_code;
    status.reaction_type = row.reaction_type;
  }
  return status;
}

/**
 * Zulip's check_update_user_status: the change to store, with the emoji code and type filled in
 * from the name when the client left them out. `away` counts as a new value for the own status.
 */
function checkUpdateUserStatus(ctx: Ctx, input: StatusInput, awaySent: boolean): UserStatusChange {
  const statusText = input.statusText === undefined ? undefined : stripPython(input.statusText);
  const { emojiName } = input;
  let { emojiCode, reactionType } = input;
  if (!awaySent && statusText === undefined && emojiName === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  if (emojiName === '') {
    emojiCode = '';
    reactionType = REACTION_TYPE.unicode;
  } else if (emojiName !== undefined && (emojiCode === undefined || reactionType === undefined)) {
    const found = getEmojiData(ctx, emojiName);
    emojiCode ??= found.emojiCode;
    reactionType ??= found.reactionType;
  } else if (emojiName === undefined && (reactionType || emojiCode)) {
    throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  if (emojiName) checkEmojiRequest(ctx, emojiName, emojiCode!, reactionType!);
  if (emojiName === undefined) return { status_text: statusText ?? null, emoji_name: null, emoji_code: null, reaction_type: null };
  return { status_text: statusText ?? null, emoji_name: emojiName, emoji_code: emojiCode!, reaction_type: reactionType! };
}

/** Zulip's do_update_user_status: saves, then one user_status event with only what changed. */
function saveStatus(ctx: Ctx, userId: number, change: UserStatusChange, away: boolean | undefined): void {
  const event: UserStatusEvent = { type: 'user_status', user_id: userId };
  if (away !== undefined) {
    updateUserPresenceEnabled(ctx.store, userId, !away);
    emit(ctx, [userId], { type: 'user_settings', op: 'update', property: 'presence_enabled', value: !away });
    event.away = away;
  }
  upsertUserStatus(ctx.store, userId, change, ctx.now());
  if (change.status_text !== null) event.status_text = change.status_text;
  if (change.emoji_name !== null) {
    event.emoji_name = change.emoji_name;
    // checkUpdateUserStatus fills both in whenever there is an emoji name.
    event.emoji_code = change.emoji_code!;
    event.reaction_type = change.reaction_type!;
  }
  // Every user can see every user here, so everyone gets it (Zulip: users who can access the target).
  emit(ctx, null, event);
}

/** POST /users/me/status: humans only; the deprecated `away` sets presence_enabled to its negation. */
export function updateOwnStatus(ctx: Ctx, actor: Actor, input: StatusInput & { away?: boolean | undefined }): Record<string, never> {
  requireHuman(actor);
  return ctx.tx(() => {
    const change = checkUpdateUserStatus(ctx, input, input.away !== undefined);
    saveStatus(ctx, actor.id, change, input.away);
    return {};
  });
}

/**
 * POST /users/{user_id}/status: administrators and owners, bots with those
 * roles included (feature level 473), set the status of a user (not a bot).
 */
export function updateUserStatus(ctx: Ctx, actor: Actor, input: StatusInput & { userId: number }): Record<string, never> {
  return ctx.tx(() => {
    const target = accessUserById(ctx, actor, input.userId, { allowBots: false, forAdmin: true });
    const change = checkUpdateUserStatus(ctx, input, false);
    saveStatus(ctx, target.id, change, undefined);
    return {};
  });
}

/** GET /users/{user_id}/status: `{}` when the user never had a status. */
export function getUserStatus(ctx: Ctx, actor: Actor, userId: number): { status: UserStatus } {
  const target = accessUserById(ctx, actor, userId, { allowBots: false, forAdmin: false });
  const row = selectUserStatus(ctx.store, target.id);
  return { status: row ? formatStatus(row) : {} };
}

/** POST /register state: user id (as a string) -> status, for active users with something to show. */
export function fetchUserStatusState(ctx: Ctx, _actor: Actor, _options: StateOptions): UserStatusState {
  const statuses: Record<string, UserStatus> = {};
  for (const row of selectShownUserStatuses(ctx.store)) statuses[String(row.user_id)] = formatStatus(row);
  return { user_status: statuses };
}
