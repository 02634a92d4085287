// Users and bots: GET /users, /users/me, /users/{id}; POST /users; PATCH /users/{id}; creating
// accounts (realm_user add, and realm_bot add for a bot).
import type { Ctx } from '../context.js';
import { ApiError, badRequest, mustBeOwner } from '../errors.js';
import {
  countActiveOwners,
  insertUser,
  selectUserByEmail,
  selectActiveUserRoles,
  selectUserById,
  selectUsers,
  updateUserFullName,
  updateUserRole,
  type UserRow,
} from '../store/users.js';
import { selectUserMaxMessageId } from '../store/user_message.js';
import { callerAvatarUrl, callerEmailDomain, toActor, userRowById, type Caller } from './callers.js';
import { createInitialChannels, subscribeToDefaultStreams } from './default_streams.js';
import { subscribeUsers } from './subscriptions.js';
import { selectDefaultStreamIds, selectStreamById, type StreamRow } from '../store/streams.js';
import { avatarUrl, gravatarUrl } from './avatars.js';
import { generateApiKey, hashPassword } from './credentials.js';
import { getRealm } from './realm.js';
import { EMAIL_VISIBILITY, ROLE, ROLE_VALUES, canAccessDeliveryEmail, isAdmin, isGuest, isOwner, requireAdmin, type Actor, type Role } from './roles.js';
import { apiEmail, fakeEmailDomain, userByEmail } from './email_visibility.js';
import { botDict, botOwnerUserIds } from './bot_dicts.js';
import { addBotService, type NewService } from './bot_services.js';
import { botCreationGroups } from './bot_limits.js';
import { emit } from './event_types.js';
import { announceMessageDeleteGroups } from './message_delete_settings.js';
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
export function formatUser(row: UserRow, domain: string, showDeliveryEmail: boolean, avatar: string | null = null): UserDict {
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

const EMAIL = /^[^\s@]+@[^\s@]+$/;

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
export function userFormatterFor(ctx: Ctx, viewer: Actor, clientGravatar?: boolean): (row: UserRow) => UserDict {
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

export interface NewUser {
  email: string;
  fullName: string;
  password?: string | undefined;
  role?: Role | undefined;
  botType?: number | null | undefined;
  /** A bot's owner; by default the organization's first human owner. */
  botOwnerId?: number | null | undefined;
  /** The organization's first account: refused, under the write lock, when there are users already. */
  first?: boolean | undefined;
  /** With `first`: the organization's initial default channels are created (and joined). */
  initialChannels?: boolean | undefined;
  /** Who sees the real email; the organization's default when absent (bots: always everyone). */
  emailAddressVisibility?: number | undefined;
  /** An outgoing webhook bot's service, made before the realm_bot add event that shows it. */
  service?: NewService | undefined;
  /** A rule checked in the write transaction, before the row is written (the bots one owner may have). */
  checkInTransaction?: (() => void) | undefined;
  /**
   * The channels a human account joins instead of the default ones: an invitation's, and the
   * default ones too when `defaults` (Zulip's include_realm_default_subscriptions).
   */
  channels?: { streamIds: readonly number[]; defaults: boolean } | undefined;
  /** Runs in the write transaction once the account exists (a sign-up spends its link there). */
  afterCreate?: ((row: UserRow) => void) | undefined;
  /** A chosen, unused id (the test kit's fixtures reproduce another server's ids); the next one when absent. */
  id?: number | undefined;
}

export const ORGANIZATION_EXISTS = 'This database already has an organization with users.';

export interface Credentials {
  email: string;
  api_key: string;
  user_id: number;
}

function checkEmailFree(ctx: Ctx, email: string): void {
  if (selectUserByEmail(ctx.store, email)) throw badRequest(`Email '${email}' already in use`);
}

/** Zulip's settings.PASSWORD_MIN_LENGTH default, counted in code points as Python's len(). */
const PASSWORD_MIN_LENGTH = 6;

/** Zulip's check_password_strength, without its zxcvbn guess count: at least 6 characters. */
export function isStrongPassword(password: string): boolean {
  return [...password].length >= PASSWORD_MIN_LENGTH;
}

function checkPasswordStrength(password: string): void {
  if (!isStrongPassword(password)) throw badRequest('The password is too weak.');
}

/** Creates a user or bot without a permission check (bootstrap, the CLI); emits realm_user add. */
export async function addUser(ctx: Ctx, input: NewUser): Promise<Credentials> {
  const email = input.email.trim();
  if (!EMAIL.test(email)) throw badRequest(`Invalid email '${email}'`);
  const fullName = checkFullName(input.fullName);
  // Zulip checks the email before the password (create_user_backend); again below, under the lock.
  checkEmailFree(ctx, email);
  if (input.password !== undefined) checkPasswordStrength(input.password);
  const passwordHash = input.password !== undefined ? await hashPassword(input.password, ctx.random) : null;
  return ctx.tx(() => createAccount(ctx, { ...input, email, fullName }, passwordHash));
}

/**
 * In the caller's transaction: the account of checked input (a trimmed email, a checked name, a
 * hashed password), with realm_user add and its channels. Also Notification Bot's (lib/accounts).
 */
export function createAccount(ctx: Ctx, input: NewUser, passwordHash: string | null): Credentials {
  const { email, fullName } = input;
  // Another process may have created the organization since the caller looked.
  if (input.first && selectUsers(ctx.store).length > 0) throw new Error(ORGANIZATION_EXISTS);
  checkEmailFree(ctx, email);
  input.checkInTransaction?.();
  if (input.id !== undefined && (!Number.isSafeInteger(input.id) || input.id < 1 || selectUserById(ctx.store, input.id))) {
    throw new Error(`User id ${input.id} is not a free positive integer`);
  }
  const apiKey = generateApiKey(ctx.random);
  const id = insertUser(ctx.store, {
    id: input.id ?? null,
    email,
    full_name: fullName,
    role: input.role ?? ROLE.member,
    api_key: apiKey,
    password_hash: passwordHash,
    bot_type: input.botType ?? null,
    bot_owner_id: input.botOwnerId === undefined ? (input.botType ? defaultBotOwnerId(ctx) : null) : input.botOwnerId,
    date_joined: ctx.now(),
    timezone: '',
    email_address_visibility: input.botType ? EMAIL_VISIBILITY.everyone : (input.emailAddressVisibility ?? getRealm(ctx).defaultEmailAddressVisibility),
  });
  const row = existingUser(ctx, id);
  if (input.service) addBotService(ctx, id, input.service);
  notifyUserAdded(ctx, row);
  if (input.first && input.initialChannels) createInitialChannels(ctx);
  if (row.bot_type !== null) emit(ctx, botOwnerUserIds(ctx, row), { type: 'realm_bot', op: 'add', bot: botDict(ctx, row) });
  else if (input.channels === undefined) subscribeToDefaultStreams(ctx, toActor(row));
  else joinChannels(ctx, row, input.channels);
  input.afterCreate?.(row);
  return { email, api_key: apiKey, user_id: id };
}

/** An invited account's channels, as Zulip's set_up_streams_for_new_human_user (archived ones left out). */
function joinChannels(ctx: Ctx, row: UserRow, channels: { streamIds: readonly number[]; defaults: boolean }): void {
  const ids = new Set([...channels.streamIds, ...(channels.defaults ? selectDefaultStreamIds(ctx.store) : [])]);
  const streams = [...ids].map((id) => selectStreamById(ctx.store, id)).filter((stream) => stream !== undefined && stream.is_archived === 0);
  subscribeUsers(ctx, streams as StreamRow[], new Set(), [{ id: row.id }]);
}

function defaultBotOwnerId(ctx: Ctx): number | null {
  return selectUsers(ctx.store).find((u) => u.role === ROLE.owner && u.bot_type === null)?.id ?? null;
}

/** Zulip's notify_created_user: one realm_user add event for who may see the real email, one for the rest. */
function notifyUserAdded(ctx: Ctx, row: UserRow): void {
  const domain = fakeEmailDomain(ctx);
  const viewers = selectActiveUserRoles(ctx.store);
  for (const seeing of [true, false]) {
    const ids = viewers.filter((viewer) => canAccessDeliveryEmail(viewer, row) === seeing).map((viewer) => viewer.id);
    if (ids.length > 0) emit(ctx, ids, { type: 'realm_user', op: 'add', person: formatUser(row, domain, seeing) });
  }
  announceMessageDeleteGroups(ctx);
}

/** POST /users: administrators create users. */
export async function createUser(
  ctx: Ctx,
  actor: Actor,
  input: { email: string; password: string; fullName: string },
): Promise<{ user_id: number }> {
  requireAdmin(actor);
  const { user_id } = await addUser(ctx, { email: input.email, password: input.password, fullName: input.fullName });
  return { user_id };
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
      announceMessageDeleteGroups(ctx);
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
