// Creating accounts without a permission check: one user or bot (chat.admin.addUser, POST /users
// and POST /bots after their checks, `parley user add`) and many users at once
// (chat.admin.addUsers, `parley user import`). Each costs what it writes, however big the
// organization: its realm_user add events name their readers by role (lib/events/audience.ts),
// and it joins its role's system group by one short user_group event.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { insertUser, selectFirstHumanOwnerId, selectHasUsers, selectUserByEmail, selectUserById, type UserRow } from '../store/users.js';
import { createInitialChannels, subscribeToDefaultStreams } from './default_streams.js';
import { subscribeUsers } from './subscriptions.js';
import { selectDefaultStreamIds, selectStreamById, type StreamRow } from '../store/streams.js';
import { generateApiKey, hashPassword } from './credentials.js';
import { getRealm } from './realm.js';
import { EMAIL_VISIBILITY, ROLE, requireAdmin, weakestRoleSeeing, type Actor, type Role } from './roles.js';
import { fakeEmailDomain } from './email_visibility.js';
import { botDict, botOwnerUserIds } from './bot_dicts.js';
import { addBotService, type NewService } from './bot_services.js';
import { emit } from './event_types.js';
import { announceSystemGroupChange } from './system_groups.js';
import { checkFullName, formatUser, isStrongPassword } from './users.js';

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

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function checkEmail(raw: string): string {
  const email = raw.trim();
  if (!EMAIL.test(email)) throw badRequest(`Invalid email '${email}'`);
  return email;
}

function checkEmailFree(ctx: Ctx, email: string): void {
  if (selectUserByEmail(ctx.store, email)) throw badRequest(`Email '${email}' already in use`);
}

/**
 * Zulip's notify_created_user: one realm_user add event for who may see the real email (users up
 * to a role, and the new user), one for the rest: two short rows however big the organization.
 */
function notifyUserAdded(ctx: Ctx, row: UserRow): void {
  const domain = fakeEmailDomain(ctx);
  const seeingUpTo = weakestRoleSeeing(row.email_address_visibility);
  emit(ctx, seeingUpTo === null ? { users: [row.id] } : { users: [row.id], maxRole: seeingUpTo }, { type: 'realm_user', op: 'add', person: formatUser(row, domain, true) });
  if (seeingUpTo !== ROLE.guest) {
    emit(ctx, { roleAbove: seeingUpTo ?? 0, except: [row.id] }, { type: 'realm_user', op: 'add', person: formatUser(row, domain, false) });
  }
}

/** In the caller's transaction: the account's row and its events, but for joining channels. */
function insertAccount(ctx: Ctx, input: NewUser, passwordHash: string | null): { row: UserRow; apiKey: string } {
  const apiKey = generateApiKey(ctx.random);
  const id = insertUser(ctx.store, {
    id: input.id ?? null,
    email: input.email,
    full_name: input.fullName,
    role: input.role ?? ROLE.member,
    api_key: apiKey,
    password_hash: passwordHash,
    bot_type: input.botType ?? null,
    bot_owner_id: input.botOwnerId === undefined ? (input.botType ? (selectFirstHumanOwnerId(ctx.store) ?? null) : null) : input.botOwnerId,
    date_joined: ctx.now(),
    timezone: '',
    email_address_visibility: input.botType ? EMAIL_VISIBILITY.everyone : (input.emailAddressVisibility ?? getRealm(ctx).defaultEmailAddressVisibility),
  });
  const row = selectUserById(ctx.store, id)!;
  notifyUserAdded(ctx, row);
  return { row, apiKey };
}

/** Creates a user or bot without a permission check (bootstrap, the CLI); emits realm_user add. */
export async function addUser(ctx: Ctx, input: NewUser): Promise<Credentials> {
  const email = checkEmail(input.email);
  const fullName = checkFullName(input.fullName);
  // Zulip checks the email before the password (create_user_backend); again below, under the lock.
  checkEmailFree(ctx, email);
  if (input.password !== undefined && !isStrongPassword(input.password)) throw badRequest('The password is too weak.');
  const passwordHash = input.password !== undefined ? await hashPassword(input.password, ctx.random) : null;
  return ctx.tx(() => createAccount(ctx, { ...input, email, fullName }, passwordHash));
}

/**
 * In the caller's transaction: the account of checked input (a trimmed email, a checked name, a
 * hashed password), with realm_user add, its system group and its channels. Also Notification
 * Bot's (lib/accounts).
 */
export function createAccount(ctx: Ctx, input: NewUser, passwordHash: string | null): Credentials {
  // Another process may have created the organization since the caller looked.
  if (input.first && selectHasUsers(ctx.store)) throw new Error(ORGANIZATION_EXISTS);
  checkEmailFree(ctx, input.email);
  input.checkInTransaction?.();
  if (input.id !== undefined && (!Number.isSafeInteger(input.id) || input.id < 1 || selectUserById(ctx.store, input.id))) {
    throw new Error(`User id ${input.id} is not a free positive integer`);
  }
  const { row, apiKey } = insertAccount(ctx, input, passwordHash);
  if (input.service) addBotService(ctx, row.id, input.service);
  announceSystemGroupChange(ctx, [row.id], { to: row.role });
  if (input.first && input.initialChannels) createInitialChannels(ctx);
  if (row.bot_type !== null) emit(ctx, botOwnerUserIds(ctx, row), { type: 'realm_bot', op: 'add', bot: botDict(ctx, row) });
  else if (input.channels === undefined) subscribeToDefaultStreams(ctx, [row]);
  else joinChannels(ctx, row, input.channels);
  input.afterCreate?.(row);
  return { email: row.email, api_key: apiKey, user_id: row.id };
}

/** An invited account's channels, as Zulip's set_up_streams_for_new_human_user (archived ones left out). */
function joinChannels(ctx: Ctx, row: UserRow, channels: { streamIds: readonly number[]; defaults: boolean }): void {
  const ids = new Set([...channels.streamIds, ...(channels.defaults ? selectDefaultStreamIds(ctx.store) : [])]);
  const streams = [...ids].map((id) => selectStreamById(ctx.store, id)).filter((stream): stream is StreamRow => stream !== undefined && stream.is_archived === 0);
  subscribeUsers(ctx, [row], streams, new Set());
}

/** Users written per transaction by addUsers: other writers get the lock in between. */
export const IMPORT_BATCH_SIZE = 1000;

/** One user of a batch import: no password (scrypt's cost per password would make 100,000 take hours). */
export interface ImportedUser {
  email: string;
  fullName: string;
  role?: Role | undefined;
}

/**
 * Adds many users (not bots) without a permission check, as addUser would one by one, with their
 * events: every entry is checked first, and a refused one (its index in the message) writes
 * nothing; then IMPORT_BATCH_SIZE users per transaction, each batch joining the default channels
 * with one subscription add and one peer_add event.
 */
export async function addUsers(ctx: Ctx, users: readonly ImportedUser[]): Promise<Credentials[]> {
  // `user_index` (0-based) and `reason` let a caller name the entry its own way (a CSV line).
  const refused = (i: number, reason: string) => badRequest(`User ${i + 1}: ${reason}`, { user_index: i, reason });
  const checked = users.map((user, i) => {
    try {
      return { email: checkEmail(user.email), fullName: checkFullName(user.fullName), role: user.role };
    } catch (error) {
      throw refused(i, (error as Error).message);
    }
  });
  const seen = new Set<string>();
  checked.forEach((user, i) => {
    const key = user.email.toLowerCase();
    if (seen.has(key)) throw refused(i, `Email '${user.email}' is listed twice`);
    seen.add(key);
    if (selectUserByEmail(ctx.store, user.email)) throw refused(i, `Email '${user.email}' already in use`);
  });
  const credentials: Credentials[] = [];
  for (let start = 0; start < checked.length; start += IMPORT_BATCH_SIZE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    ctx.tx(() => {
      const rows = checked.slice(start, start + IMPORT_BATCH_SIZE).map((user) => {
        // Checked before; again under the lock, as another process may have added it since.
        checkEmailFree(ctx, user.email);
        const { row, apiKey } = insertAccount(ctx, user, null);
        credentials.push({ email: row.email, api_key: apiKey, user_id: row.id });
        return row;
      });
      for (const role of new Set(rows.map((row) => row.role))) {
        announceSystemGroupChange(
          ctx,
          rows.filter((row) => row.role === role).map((row) => row.id),
          { to: role },
        );
      }
      subscribeToDefaultStreams(ctx, rows);
    });
  }
  return credentials;
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
