// SQL for user groups (user_group) and their direct members (user_group_member).
import type { Store } from './db.js';

export interface UserGroupRow {
  id: number;
  name: string;
  description: string;
  date_created: number;
  creator_id: number | null;
}

export function selectUserGroups(s: Store): UserGroupRow[] {
  return s.all<UserGroupRow>('SELECT * FROM user_group ORDER BY id');
}

/** The system groups schema.sql makes (names starting with 'role:', which no other group may have). */
export function selectSystemGroupIds(s: Store): { id: number; name: string }[] {
  return s.all<{ id: number; name: string }>("SELECT id, name FROM user_group WHERE name LIKE 'role:%' ORDER BY id");
}

export function selectUserGroupById(s: Store, id: number): UserGroupRow | undefined {
  return s.get<UserGroupRow>('SELECT * FROM user_group WHERE id = ?', id);
}

/** Case-insensitive (the name column is COLLATE NOCASE). */
export function selectUserGroupByName(s: Store, name: string): UserGroupRow | undefined {
  return s.get<UserGroupRow>('SELECT * FROM user_group WHERE name = ?', name);
}

export function insertUserGroup(s: Store, g: Omit<UserGroupRow, 'id'>): number {
  return Number(
    s.run('INSERT INTO user_group (name, description, date_created, creator_id) VALUES (?, ?, ?, ?)', g.name, g.description, g.date_created, g.creator_id)
      .lastInsertRowid,
  );
}

/** Direct members who are active users, by id (Zulip hides deactivated users' memberships). */
export function selectActiveMemberIds(s: Store, groupId: number): number[] {
  return s
    .prepare(
      `SELECT m.user_id FROM user_group_member m JOIN user u ON u.id = m.user_id
       WHERE m.group_id = ? AND u.is_active = 1 ORDER BY m.user_id`,
    )
    .pluck()
    .all(groupId) as number[];
}

/** [group_id, user_id] of every active member of every group. */
export function selectAllActiveMemberships(s: Store): [number, number][] {
  return s
    .prepare(
      `SELECT m.group_id, m.user_id FROM user_group_member m JOIN user u ON u.id = m.user_id
       WHERE u.is_active = 1 ORDER BY m.group_id, m.user_id`,
    )
    .raw()
    .all() as [number, number][];
}

export function insertUserGroupMember(s: Store, groupId: number, userId: number): void {
  s.run('INSERT OR IGNORE INTO user_group_member (group_id, user_id) VALUES (?, ?)', groupId, userId);
}

export function deleteUserGroupMember(s: Store, groupId: number, userId: number): void {
  s.run('DELETE FROM user_group_member WHERE group_id = ? AND user_id = ?', groupId, userId);
}
