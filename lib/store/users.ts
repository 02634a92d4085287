// SQL for the realm and user tables, and the row <-> object mappers.
import type { Store } from './db.js';

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

/** The account an API key alone names (an incoming webhook's `api_key`): api_key is UNIQUE, so indexed. */
export function selectUserByApiKey(s: Store, apiKey: string): UserRow | undefined {
  return s.get<UserRow>('SELECT * FROM user WHERE api_key = ?', apiKey);
}

export function selectUsers(s: Store): UserRow[] {
  return s.all<UserRow>('SELECT * FROM user ORDER BY id');
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

export function updateUserActive(s: Store, id: number, active: boolean): void {
  s.run('UPDATE user SET is_active = ? WHERE id = ?', active ? 1 : 0, id);
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
