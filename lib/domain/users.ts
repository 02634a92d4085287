// Users and bots: GET /users, /users/me, /users/{id}; PATCH /users/{id}; the user dictionary.
// Creating accounts (POST /users among them) is lib/domain/accounts.ts.
import type { Ctx } from '../context.js';
import { ApiError, badRequest, mustBeOwner } from '../errors.js';
import {
  countActiveOwners,
  selectUserById,
  selectUsers,
  updateUserFullName,
  updateUserRole,
  type ListedUserRow,
  type UserRow,
} from '../store/users.js';
import { selectUserMaxMessageId } from '../store/user_message.js';
import { callerAvatarUrl, callerEmailDomain, toActor, userRowById, type Caller } from './callers.js';
import { avatarUrl, gravatarUrl } from './avatars.js';
import { ROLE, ROLE_VALUES, canAccessDeliveryEmail, isAdmin, isGuest, isOwner, requireAdmin, type Actor, type Role } from './roles.js';
import { apiEmail, fakeEmailDomain, userByEmail } from './email_visibility.js';
import { botOwnerUserIds } from './bot_dicts.js';
import { botCreationGroups } from './bot_limits.js';
import { emit } from './event_types.js';
import { announceSystemGroupChange } from './system_groups.js';
import type { OwnUserDict, UserDict } from './user_dicts.js';

const MAX_FULL_NAME_LENGTH = 100;
const MIN_FULL_NAME_LENGTH = 2;

/** Zulip's ISO 8601 dates (`+00:00`). */
function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('Z', '+00:00');
}

/**
 * Zulip's user dictionary (GET /users, realm_user state and events): `email` is the API email
 * (lib/domain/email_visibility.ts), `delivery_email` the real one or null for who may not see it.
 */
export function formatUser(row: ListedUserRow, domain: string, showDeliveryEmail: boolean, avatar: string | null = null): UserDict {
  const user: UserDict = {
    email: apiEmail(domain, row),
    user_id: row.id,
    avatar_version: 1,
    avatar_url: avatar,
    is_admin: isAdmin(row),
    is_owner: isOwner(row),
    is_guest: isGuest(row),
    role: row.role as Role,
    is_bot: row.bot_type !== null,
    full_name: row.full_name,
    timezone: row.timezone,
    is_active: row.is_active === 1,
    date_joined: isoDate(row.date_joined),
    delivery_email: showDeliveryEmail ? row.email : null,
  };
  if (row.bot_type !== null) {
    user.bot_type = row.bot_type;
    user.bot_owner_id = row.bot_owner_id;
  } else {
    user.profile_data = {};
  }
  return user;
}

/** Zulip's check_full_name. */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length > MAX_FULL_NAME_LENGTH) throw badRequest('Name too long!');
  if (length < MIN_FULL_NAME_LENGTH) throw badRequest('Name too short!');
  if (/[\u0000-\u001f\u007f*`\\>"@]/.test(name)) throw badRequest('Invalid characters in name!');
  // A trailing |<digits> would be ambiguous with the @**Name|id** mention syntax.
  if (/\|\d+$/.test(name)) throw badRequest('Invalid format!');
  return name;
}

/** The name of an account created without one (`parley init`): the email's local part when that is a valid name. */
export function defaultFullName(email: string): string {
  try {
    return checkFullName(email.trim().split('@')[0] ?? '');
  } catch {
    return 'Owner';
  }
}

/** Zulip's access_user_by_id: the target user of an administrative action. */
export function accessUserById(
  ctx: Ctx,
  actor: Actor,
  userId: number,
  options: { allowBots: boolean; forAdmin: boolean; allowDeactivated?: boolean },
): UserRow {
  const target = userRowById(ctx, userId);
  if (!target) throw badRequest('No such user');
  if (target.bot_type !== null && !options.allowBots) throw badRequest('No such user');
  if (target.is_active === 0 && !options.allowDeactivated) throw badRequest('User is deactivated');
  if (options.forAdmin && !(isAdmin(actor) || target.bot_owner_id === actor.id)) {
    throw badRequest('Insufficient permission');
  }
  return target;
}

/** A user the caller knows exists (the authenticated actor, a row just written); throws otherwise. */
export function existingUser(ctx: Ctx, userId: number): UserRow {
  const row = userRowById(ctx, userId);
  if (!row) throw new Error(`user ${userId} does not exist`);
  return row;
}

/** GET /users/me: the caller as authenticated (Zulip answers from request.user), and its newest message id. */
export function getOwnUser(ctx: Ctx, caller: Caller): OwnUserDict {
  // The domain kept with the caller's rows: GET /users/me's figure in `npm run bench` (foundation).
  const domain = callerEmailDomain(ctx, caller, () => fakeEmailDomain(ctx));
  // Filled in place (a copy with the extra key costs more than the rest of the dictionary).
  const user: UserDict & { max_message_id?: number } = formatUser(caller.row, domain, true, callerAvatarUrl(ctx, caller, gravatarUrl));
  user.max_message_id = selectUserMaxMessageId(ctx.store, caller.actor.id);
  // avatar_url is the gravatar URL given above, never null.
  return user as OwnUserDict;
}

/**
 * A formatter of user dictionaries as `viewer` sees them. With `clientGravatar` (GET /users), the
 * avatar_url of avatarUrl; without (the realm_user state and events), null for everyone.
 */
export function userFormatterFor(ctx: Ctx, viewer: Actor, clientGravatar?: boolean): (row: ListedUserRow) => UserDict {
  const domain = fakeEmailDomain(ctx);
  return (row) => formatUser(row, domain, canAccessDeliveryEmail(viewer, row), clientGravatar === undefined ? null : avatarUrl(row, clientGravatar));
}

/** GET /users and GET /users/{user_id}: Zulip's client_gravatar defaults to true there. */
export interface UserListOptions {
  clientGravatar?: boolean | undefined;
}

/** GET /users: every user and bot, as the caller sees them. */
export function listUsers(ctx: Ctx, actor: Actor, options: UserListOptions = {}): { members: UserDict[] } {
  return { members: selectUsers(ctx.store).map(userFormatterFor(ctx, actor, options.clientGravatar ?? true)) };
}

/** GET /users/{user_id}, and Zulip's GET /users/{email} (get_user_by_email: the email rules of userByEmail). */
export function getUser(ctx: Ctx, actor: Actor, input: UserListOptions & { userId: number | string }): { user: UserDict } {
  const ref = input.userId;
  const row = typeof ref === 'number' ? selectUserById(ctx.store, ref) : userByEmail(ctx, actor, ref);
  if (!row) throw badRequest('No such user');
  return { user: userFormatterFor(ctx, actor, input.clientGravatar ?? true)(row) };
}

/** Zulip's settings.PASSWORD_MIN_LENGTH default, counted in code points as Python's len(). */
const PASSWORD_MIN_LENGTH = 6;

/** Zulip's check_password_strength, without its zxcvbn guess count: at least 6 characters. */
export function isStrongPassword(password: string): boolean {
  return [...password].length >= PASSWORD_MIN_LENGTH;
}

/** PATCH /users/{user_id}: full name and role; only owners grant or remove the owner role. */
export function updateUser(
  ctx: Ctx,
  actor: Actor,
  input: { userId: number; fullName?: string | undefined; role?: number | undefined },
): Record<string, never> {
  return ctx.tx(() => {
    // Zulip validates the role as a parameter, before looking at the target.
    if (input.role !== undefined && !ROLE_VALUES.includes(input.role as Role)) throw badRequest('Invalid role');
    const target = accessUserById(ctx, actor, input.userId, { allowBots: true, forAdmin: true });
    const fullName = input.fullName === undefined ? undefined : checkFullName(input.fullName);
    if (input.role !== undefined && input.role !== target.role) {
      if ((input.role === ROLE.owner || target.role === ROLE.owner) && !isOwner(actor)) throw mustBeOwner();
      // A bot's owner may rename it (accessUserById lets them through) but not change its role.
      requireAdmin(actor);
      if (target.role === ROLE.owner && target.bot_type === null && countActiveOwners(ctx.store) <= 1) {
        throw badRequest('The owner permission cannot be removed from the only organization owner.');
      }
      updateUserRole(ctx.store, target.id, input.role);
      emit(ctx, null, { type: 'realm_user', op: 'update', person: { user_id: target.id, role: input.role as Role } });
      notifyBotCreationChange(ctx, toActor(target), input.role as Role);
      if (target.is_active === 1) announceSystemGroupChange(ctx, [target.id], { from: target.role, to: input.role });
    }
    if (fullName !== undefined) changeFullName(ctx, target, fullName);
    return {};
  });
}

/** A role change that changes which bots the user may create: the user's realm update_dict (bot_limits.ts). */
function notifyBotCreationChange(ctx: Ctx, before: Actor, role: Role): void {
  const was = botCreationGroups(ctx, before);
  const now = botCreationGroups(ctx, { ...before, role });
  if (JSON.stringify(was) !== JSON.stringify(now)) emit(ctx, [before.id], { type: 'realm', op: 'update_dict', property: 'default', data: now });
}

/** Zulip's do_change_full_name for a checked name: realm_user update to everyone, realm_bot update to a bot's owners. */
export function changeFullName(ctx: Ctx, target: UserRow, fullName: string): void {
  if (fullName === target.full_name) return;
  updateUserFullName(ctx.store, target.id, fullName);
  emit(ctx, null, { type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: fullName } });
  if (target.bot_type !== null) {
    emit(ctx, botOwnerUserIds(ctx, target), { type: 'realm_bot', op: 'update', bot: { user_id: target.id, full_name: fullName } });
  }
}

export function requireHuman(actor: Actor): void {
  if (actor.isBot) throw new ApiError('BAD_REQUEST', 'This endpoint does not accept bot requests.');
}

/** Zulip's @require_member_or_admin: guests first, then bots. */
export function requireMemberOrAdmin(actor: Actor): void {
  if (isGuest(actor)) throw badRequest('Not allowed for guest users');
  requireHuman(actor);
}
