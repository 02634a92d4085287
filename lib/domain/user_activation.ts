// Deactivating and reactivating users and bots: DELETE /users/{user_id}, DELETE /users/me, POST
// /users/{user_id}/reactivate (DELETE /bots/{bot_id} is in bots.ts). Zulip's do_deactivate_user
// and do_reactivate_user: realm_user update events to everyone, realm_bot ones to bot owners.
import type { Ctx } from '../context.js';
import { ApiError, badRequest, mustBeOwner } from '../errors.js';
import { deleteQueuesOfUser } from '../store/events.js';
import { deleteWebSessionsOfUser } from '../store/web_sessions.js';
import { countActiveOwners, selectActiveUserIds, selectBotsOwnedBy, selectUserById, updateBotOwner, updateUserActive, type UserRow } from '../store/users.js';
import { emit } from './event_types.js';
import { announceMessageDeleteGroups } from './message_delete_settings.js';
import { botDict, botOwnerUserIds } from './bot_dicts.js';
import { ROLE, isAdmin, isOwner, type Actor } from './roles.js';
import { accessUserById, existingUser } from './users.js';
import { checkMayOwnAnotherBot } from './bot_limits.js';

/** DELETE /users/{user_id}: administrators (and a bot's owner, for the bot); the bots the user owns go too. */
export function deactivateUser(ctx: Ctx, actor: Actor, input: { userId: number }): Record<string, never> {
  return ctx.tx(() => {
    const target = accessUserById(ctx, actor, input.userId, { allowBots: true, forAdmin: true });
    if (target.role === ROLE.owner && !isOwner(actor)) throw mustBeOwner();
    if (target.role === ROLE.owner && target.bot_type === null && countActiveOwners(ctx.store) <= 1) {
      throw badRequest('Cannot deactivate the only organization owner');
    }
    deactivate(ctx, target.id);
    return {};
  });
}

/** Zulip's CannotDeactivateLastUserError. */
function cannotDeactivateLast(isLastOwner: boolean): ApiError {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new ApiError('CANNOT_DEACTIVATE_LAST_USER', `Cannot deactivate the only ${entity}.`, { extra: { is_last_owner: isLastOwner, entity } });
}

/** DELETE /users/me: Zulip's deactivate_user_own_backend (the last account, then the last owner, may not go). */
export function deactivateOwnAccount(ctx: Ctx, actor: Actor): Record<string, never> {
  return ctx.tx(() => {
    const row = existingUser(ctx, actor.id);
    if (selectActiveUserIds(ctx.store).length === 1) throw cannotDeactivateLast(false);
    if (row.role === ROLE.owner && row.bot_type === null && countActiveOwners(ctx.store) <= 1) throw cannotDeactivateLast(true);
    deactivate(ctx, actor.id);
    return {};
  });
}

/**
 * Deactivation without a permission check (also the CLI and chat.admin). Like Zulip's
 * do_deactivate_user: nothing for an account already deactivated; a user's active bots are
 * deactivated first, in the same transaction. Returns the ids deactivated, bots first.
 */
export function deactivate(ctx: Ctx, userId: number): number[] {
  return ctx.tx(() => {
    const row = selectUserById(ctx.store, userId);
    if (!row || row.is_active !== 1) return [];
    const bots = row.bot_type === null ? selectBotsOwnedBy(ctx.store, row.id).filter((bot) => bot.is_active === 1) : [];
    for (const account of [...bots, row]) deactivateOne(ctx, account);
    announceMessageDeleteGroups(ctx);
    return [...bots, row].map((account) => account.id);
  });
}

function deactivateOne(ctx: Ctx, row: UserRow): void {
  updateUserActive(ctx.store, row.id, false);
  // The account's event queues and web sessions go with it (Zulip deletes its sessions).
  deleteQueuesOfUser(ctx.store, row.id);
  deleteWebSessionsOfUser(ctx.store, row.id);
  emit(ctx, null, { type: 'realm_user', op: 'update', person: { user_id: row.id, is_active: false } });
  if (row.bot_type !== null) {
    emit(ctx, botOwnerUserIds(ctx, row), { type: 'realm_bot', op: 'update', bot: { user_id: row.id, is_active: false } });
  }
}

/**
 * POST /users/{user_id}/reactivate: Zulip's access_user_by_id(for_admin): administrators, or a
 * bot's owner; a bot only while its owner may have one more.
 */
export function reactivateUser(ctx: Ctx, actor: Actor, input: { userId: number }): Record<string, never> {
  return ctx.tx(() => {
    const target = accessUserById(ctx, actor, input.userId, { allowBots: true, forAdmin: true, allowDeactivated: true });
    if (target.bot_type !== null && target.is_active !== 1 && target.bot_owner_id !== null) {
      // The bot goes back to its owner, or to the caller when its owner is deactivated.
      const ownerActive = selectUserById(ctx.store, target.bot_owner_id)?.is_active === 1;
      checkMayOwnAnotherBot(ctx, ownerActive ? target.bot_owner_id : actor.id);
    }
    reactivate(ctx, target.id, actor.id);
    return {};
  });
}

/**
 * Reactivation without a permission check. A bot whose owner is deactivated passes to the
 * reactivating user (Zulip's do_reactivate_user); without one (the CLI) it is refused, so no
 * active bot is left to a deactivated owner. Nothing happens for an active account.
 */
export function reactivate(ctx: Ctx, userId: number, actingUserId: number | null): void {
  ctx.tx(() => {
    const row = selectUserById(ctx.store, userId);
    if (!row) throw badRequest('No such user');
    if (row.is_active === 1) return;
    const previousOwner = row.bot_owner_id === null ? undefined : selectUserById(ctx.store, row.bot_owner_id);
    const ownerGone = previousOwner !== undefined && previousOwner.is_active !== 1;
    if (ownerGone && actingUserId === null) {
      throw badRequest(`Cannot reactivate ${row.email}: its owner ${previousOwner.email} is deactivated`);
    }
    updateUserActive(ctx.store, row.id, true);
    if (ownerGone) updateBotOwner(ctx.store, row.id, actingUserId!);
    const reactivated = existingUser(ctx, row.id);
    emit(ctx, null, { type: 'realm_user', op: 'update', person: { user_id: row.id, is_active: true } });
    announceMessageDeleteGroups(ctx);
    if (row.bot_type === null) return;
    emit(ctx, botOwnerUserIds(ctx, reactivated), { type: 'realm_bot', op: 'update', bot: { user_id: row.id, is_active: true } });
    if (ownerGone) sendBotOwnerUpdateEvents(ctx, reactivated, previousOwner);
  });
}

/** Zulip's send_bot_owner_update_events: administrators already list every bot, so they get an update. */
function sendBotOwnerUpdateEvents(ctx: Ctx, bot: UserRow, previousOwner: UserRow): void {
  const newOwner = selectUserById(ctx.store, bot.bot_owner_id!)!;
  const updated = new Set(botOwnerUserIds(ctx, bot));
  if (!isAdmin(previousOwner)) {
    emit(ctx, [previousOwner.id], { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } });
    updated.delete(previousOwner.id);
  }
  if (!isAdmin(newOwner)) {
    emit(ctx, [newOwner.id], { type: 'realm_bot', op: 'add', bot: botDict(ctx, bot) });
    updated.delete(newOwner.id);
  }
  emit(ctx, updated, { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: newOwner.id } });
  emit(ctx, null, { type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: newOwner.id } });
}
