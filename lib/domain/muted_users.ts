// Muted users: POST and DELETE /users/me/muted_users/{muted_user_id} (Zulip's views/muted_users.py
// and actions/muted_users.py), the muted_users event and /register state. A muted user's messages
// arrive already read for who muted them (lib/domain/message_send.ts).
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { deleteMutedUser, insertMutedUser, selectIsMuted, selectMutedUsersOf, selectUnreadMessageIdsFromSender } from '../store/muted_users.js';
import { changeMessageFlag } from './message_flags.js';
import type { Actor } from './roles.js';
import type { StateOptions } from './state_options.js';
import { accessUserById } from './users.js';
import { emit } from './event_types.js';
import type { MutedUser, MutedUsersState } from './user_dicts.js';

function mutedUsersList(ctx: Ctx, userId: number): MutedUser[] {
  return selectMutedUsersOf(ctx.store, userId).map((row) => ({ id: row.muted_user_id, timestamp: row.date_muted }));
}

export function fetchMutedUsersState(ctx: Ctx, actor: Actor, _options: StateOptions): MutedUsersState {
  return { muted_users: mutedUsersList(ctx, actor.id) };
}

function sendMutedUsers(ctx: Ctx, userId: number): void {
  emit(ctx, [userId], { type: 'muted_users', muted_users: mutedUsersList(ctx, userId) });
}

/** Zulip's access_user_by_id for muting: bots and deactivated users may be muted. */
function accessMutedUser(ctx: Ctx, actor: Actor, userId: number) {
  return accessUserById(ctx, actor, userId, { allowBots: true, allowDeactivated: true, forAdmin: false });
}

/** POST /users/me/muted_users/{muted_user_id}: Zulip's do_mute_user, which also marks the user's unread messages read. */
export function muteUser(ctx: Ctx, actor: Actor, input: { mutedUserId: number }): Record<string, never> {
  return ctx.tx(() => {
    if (input.mutedUserId === actor.id) throw badRequest('Cannot mute self');
    const muted = accessMutedUser(ctx, actor, input.mutedUserId);
    if (selectIsMuted(ctx.store, actor.id, muted.id)) throw badRequest('User already muted');
    insertMutedUser(ctx.store, { user_id: actor.id, muted_user_id: muted.id, date_muted: ctx.now() });
    sendMutedUsers(ctx, actor.id);
    const unread = selectUnreadMessageIdsFromSender(ctx.store, actor.id, muted.id);
    if (unread.length > 0) changeMessageFlag(ctx, actor, { op: 'add', flag: 'read' }, unread);
    return {};
  });
}

/** DELETE /users/me/muted_users/{muted_user_id}: Zulip's do_unmute_user (messages stay read). */
export function unmuteUser(ctx: Ctx, actor: Actor, input: { mutedUserId: number }): Record<string, never> {
  return ctx.tx(() => {
    const muted = accessMutedUser(ctx, actor, input.mutedUserId);
    if (!selectIsMuted(ctx.store, actor.id, muted.id)) throw badRequest('User is not muted');
    deleteMutedUser(ctx.store, actor.id, muted.id);
    sendMutedUsers(ctx, actor.id);
    return {};
  });
}
