// SQL for the realm and user tables, and the row <-> object mappers.
import type { Store } from './db.js';
import { closePeriodsOfUser, openPeriodsOfUser } from './subscription_periods.js';

export interface RealmRow {
  id: number;
  name: string;
  url: string;
  uuid: string;
  description: string;
  date_created: number;
  push_notifications_enabled: number;
  default_email_address_visibility: number;
  url_chosen: number;
}

export interface UserRow {
  id: number;
  email: string;
  full_name: string;
  role: number;
  is_active: number;
  api_key: string;
  password_hash: string | null;
  bot_type: number | null;
  bot_owner_id: number | null;
  date_joined: number;
  timezone: string;
  presence_enabled: number;
  enable_drafts_synchronization: number;
  email_address_visibility: number;
}

export function selectRealm(s: Store): RealmRow | undefined {
  return s.get<RealmRow>('SELECT * FROM realm WHERE id = 1');
}

export function insertRealm(s: Store, r: Omit<RealmRow, 'id' | 'push_notifications_enabled'>): void {
  s.run(
    `INSERT INTO realm (id, name, url, uuid, description, date_created, default_email_address_visibility, url_chosen)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?)`,
    r.name,
    r.url,
    r.uuid,
    r.description,
    r.date_created,
    r.default_email_address_visibility,
    r.url_chosen,
  );
}

export function updateRealmName(s: Store, name: string): void {
  s.run('UPDATE realm SET name = ? WHERE id = 1', name);
}

export function updateRealmDescription(s: Store, description: string): void {
  s.run('UPDATE realm SET description = ? WHERE id = 1', description);
}

export function updateRealmUrl(s: Store, url: string, chosen: boolean): void {
  s.run('UPDATE realm SET url = ?, url_chosen = ? WHERE id = 1', url, chosen ? 1 : 0);
}

export function updateRealmPushEnabled(s: Store, enabled: boolean): void {
  s.run('UPDATE realm SET push_notifications_enabled = ? WHERE id = 1', enabled ? 1 : 0);
}

export function selectUserById(s: Store, id: number): UserRow | undefined {
  return s.get<UserRow>('SELECT * FROM user WHERE id = ?', id);
}

export function selectUserByEmail(s: Store, email: string): UserRow | undefined {
  return s.get<UserRow>('SELECT * FROM user WHERE email = ?', email);
}

/** What a user dictionary shows of a user (lib/domain/users.ts formatUser): no secrets. */
export type ListedUserRow = Pick<
  UserRow,
  'id' | 'email' | 'full_name' | 'role' | 'is_active' | 'bot_type' | 'bot_owner_id' | 'date_joined' | 'timezone' | 'email_address_visibility'
>;

const LISTED_COLUMNS = 'id, email, full_name, role, is_active, bot_type, bot_owner_id, date_joined, timezone, email_address_visibility';

/** The users whose full name equals `name` but for ASCII case, by id (the user_by_name index). */
export function selectListedUsersNamed(s: Store, name: string): ListedUserRow[] {
  return s.all<ListedUserRow>(`SELECT ${LISTED_COLUMNS} FROM user WHERE full_name = ? COLLATE NOCASE ORDER BY id`, name);
}

export function selectListedUser(s: Store, id: number): ListedUserRow | undefined {
  return s.get<ListedUserRow>(`SELECT ${LISTED_COLUMNS} FROM user WHERE id = ?`, id);
}

/** Every account as user dictionaries show it, in id order (the kept user list, lib/domain/user_list.ts). */
export function selectListedUsers(s: Store): ListedUserRow[] {
  return s.all<ListedUserRow>(
    `SELECT ${LISTED_COLUMNS} FROM user ORDER BY id`,
  );
}

/** The account an API key alone names (an incoming webhook's `api_key`): api_key is UNIQUE, so indexed. */
export function selectUserByApiKey(s: Store, apiKey: string): UserRow | undefined {
  return s.get<UserRow>('SELECT * FROM user WHERE api_key = ?', apiKey);
}

export function selectUsers(s: Store): UserRow[] {
  return s.all<UserRow>('SELECT * FROM user ORDER BY id');
}

/** Whether the organization has any account (one row read). */
export function selectHasUsers(s: Store): boolean {
  return s.prepare('SELECT 1 FROM user LIMIT 1').pluck().get() !== undefined;
}

/** The first human owner, active or not (the default owner of a bot). */
export function selectFirstHumanOwnerId(s: Store): number | undefined {
  return s.prepare('SELECT id FROM user WHERE role = 100 AND bot_type IS NULL ORDER BY id LIMIT 1').pluck().get() as number | undefined;
}

export function selectActiveUserIds(s: Store): number[] {
  return s.prepare('SELECT id FROM user WHERE is_active = 1 ORDER BY id').pluck().all() as number[];
}

/** Every bot's id, active or not. */
export function selectBotIds(s: Store): Set<number> {
  return new Set(s.prepare('SELECT id FROM user WHERE bot_type IS NOT NULL').pluck().all() as number[]);
}

export function selectActiveUserRoles(s: Store): { id: number; role: number }[] {
  return s.all<{ id: number; role: number }>('SELECT id, role FROM user WHERE is_active = 1 ORDER BY id');
}

export function countActiveOwners(s: Store): number {
  return s.prepare('SELECT count(*) FROM user WHERE role = 100 AND is_active = 1 AND bot_type IS NULL').pluck().get() as number;
}

/** Inserts a user with `u.id`, or (null) the next free id. */
export function insertUser(
  s: Store,
  u: Omit<UserRow, 'id' | 'is_active' | 'presence_enabled' | 'enable_drafts_synchronization'> & { id: number | null },
): number {
  const result = s.run(
    `INSERT INTO user (id, email, full_name, role, api_key, password_hash, bot_type, bot_owner_id, date_joined, timezone,
                       email_address_visibility)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    u.id,
    u.email,
    u.full_name,
    u.role,
    u.api_key,
    u.password_hash,
    u.bot_type,
    u.bot_owner_id,
    u.date_joined,
    u.timezone,
    u.email_address_visibility,
  );
  return Number(result.lastInsertRowid);
}

export function updateUserFullName(s: Store, id: number, fullName: string): void {
  s.run('UPDATE user SET full_name = ? WHERE id = ?', fullName, id);
}

export function updateUserRole(s: Store, id: number, role: number): void {
  s.run('UPDATE user SET role = ? WHERE id = ?', role, id);
}

/**
 * Also, when it changes, the subscriber_count of the user's channels and their subscription
 * periods (schema.sql): a deactivated user receives nothing until reactivated.
 */
export function updateUserActive(s: Store, id: number, active: boolean): void {
  if (s.run('UPDATE user SET is_active = ? WHERE id = ? AND is_active <> ?', active ? 1 : 0, id, active ? 1 : 0).changes === 0) return;
  s.run('UPDATE stream SET subscriber_count = subscriber_count + ? WHERE id IN (SELECT stream_id FROM subscription WHERE user_id = ?)', active ? 1 : -1, id);
  if (active) openPeriodsOfUser(s, id);
  else closePeriodsOfUser(s, id);
}

export function updateUserEmailAddressVisibility(s: Store, id: number, visibility: number): void {
  s.run('UPDATE user SET email_address_visibility = ? WHERE id = ?', visibility, id);
}

export function updateUserApiKey(s: Store, id: number, apiKey: string): void {
  s.run('UPDATE user SET api_key = ? WHERE id = ?', apiKey, id);
}

export function updateUserTimezone(s: Store, id: number, timezone: string): void {
  s.run('UPDATE user SET timezone = ? WHERE id = ?', timezone, id);
}

export function updateUserDraftsSynchronization(s: Store, id: number, enabled: boolean): void {
  s.run('UPDATE user SET enable_drafts_synchronization = ? WHERE id = ?', enabled ? 1 : 0, id);
}

export function updateUserPasswordHash(s: Store, id: number, passwordHash: string): void {
  s.run('UPDATE user SET password_hash = ? WHERE id = ?', passwordHash, id);
}

export function updateUserPresenceEnabled(s: Store, id: number, enabled: boolean): void {
  s.run('UPDATE user SET presence_enabled = ? WHERE id = ?', enabled ? 1 : 0, id);
}

export function selectBotsOwnedBy(s: Store, ownerId: number): UserRow[] {
  return s.all<UserRow>('SELECT * FROM user WHERE bot_owner_id = ? ORDER BY id', ownerId);
}

/** The role of an active user or bot; undefined for a deactivated or unknown one. */
export function selectActiveUserRole(s: Store, id: number): number | undefined {
  return s.prepare('SELECT role FROM user WHERE id = ? AND is_active = 1').pluck().get(id) as number | undefined;
}

/** Active bots' ids, ascending (the partial index user_bots). */
export function selectActiveBotIds(s: Store): number[] {
  return s.prepare('SELECT id FROM user WHERE bot_type IS NOT NULL AND is_active = 1 ORDER BY id').pluck().all() as number[];
}

/** Active bots of one owner (a scan of user: counted only when a bot is created or reactivated). */
export function countActiveBotsOwnedBy(s: Store, ownerId: number): number {
  return s.prepare('SELECT count(*) FROM user WHERE bot_owner_id = ? AND bot_type IS NOT NULL AND is_active = 1').pluck().get(ownerId) as number;
}

export function selectBots(s: Store): UserRow[] {
  return s.all<UserRow>('SELECT * FROM user WHERE bot_type IS NOT NULL ORDER BY id');
}

/** Active owners and administrators who are not bots (Zulip's get_human_admin_users). */
export function selectHumanAdminIds(s: Store): number[] {
  return s.prepare('SELECT id FROM user WHERE role <= 200 AND is_active = 1 AND bot_type IS NULL ORDER BY id').pluck().all() as number[];
}

export function updateBotOwner(s: Store, id: number, ownerId: number): void {
  s.run('UPDATE user SET bot_owner_id = ? WHERE id = ?', ownerId, id);
}

export function updateUserEmail(s: Store, id: number, email: string): void {
  s.run('UPDATE user SET email = ? WHERE id = ?', email, id);
}
