// Zulip's role-based system groups (https://zulip.com/api/group-setting-values#system-groups): rows
// of user_group made by schema.sql, whose members are the active accounts of each role, from the
// kept user list (no member rows); a role change, an account added, deactivated or reactivated
// is one short user_group event. Group-setting values name them by id, so no setting lists users.
import type { Ctx } from '../context.js';
import { selectSystemGroupIds } from '../store/user_groups.js';
import { emit } from './event_types.js';
import { ROLE } from './roles.js';
import { userList, type SystemGroupMembership } from './user_list.js';

/** Each system group (by its name, schema.sql) with its direct members' role and its one direct subgroup: Zulip's nesting. */
const SYSTEM_GROUPS: readonly { name: string; role: number | null; subgroup: string | null }[] = [
  { name: 'role:owners', role: ROLE.owner, subgroup: null },
  { name: 'role:administrators', role: ROLE.admin, subgroup: 'role:owners' },
  { name: 'role:moderators', role: ROLE.moderator, subgroup: 'role:administrators' },
  // parley has no waiting period (realm_waiting_period_threshold 0): every member is a full member.
  { name: 'role:members', role: ROLE.member, subgroup: 'role:moderators' },
  { name: 'role:fullmembers', role: null, subgroup: 'role:members' },
  { name: 'role:everyone', role: ROLE.guest, subgroup: 'role:members' },
  { name: 'role:internet', role: null, subgroup: 'role:everyone' },
  { name: 'role:nobody', role: null, subgroup: null },
];

export type SystemGroupName = 'role:administrators' | 'role:everyone';

/** The system groups' ids by name (made with the schema, so always there). */
function systemGroupIds(ctx: Ctx): Map<string, number> {
  return new Map(selectSystemGroupIds(ctx.store).map((row) => [row.name, row.id]));
}

export function systemGroupId(ctx: Ctx, name: SystemGroupName): number {
  return systemGroupIds(ctx).get(name)!;
}

/**
 * Every system group's direct members and subgroups, by group id: made from the kept user list
 * (lib/domain/user_list.ts) and kept with it, until the user table changes.
 */
export function systemGroupMemberships(ctx: Ctx): ReadonlyMap<number, SystemGroupMembership> {
  const list = userList(ctx);
  if (list.systemGroups !== undefined) return list.systemGroups;
  const ids = systemGroupIds(ctx);
  const byRole = new Map<number, number[]>();
  for (const row of list.rows) {
    if (row.is_active !== 1) continue;
    const members = byRole.get(row.role) ?? [];
    members.push(row.id);
    byRole.set(row.role, members);
  }
  const memberships = new Map<number, SystemGroupMembership>();
  for (const group of SYSTEM_GROUPS) {
    const id = ids.get(group.name);
    if (id === undefined) continue;
    const subgroup = group.subgroup === null ? undefined : ids.get(group.subgroup);
    memberships.set(id, { members: group.role === null ? [] : (byRole.get(group.role) ?? []), subgroupIds: subgroup === undefined ? [] : [subgroup] });
  }
  list.systemGroups = memberships;
  return memberships;
}

/** The system group whose direct members have this role. */
function groupOfRole(ctx: Ctx, role: number): number | undefined {
  const name = SYSTEM_GROUPS.find((group) => group.role === role)?.name;
  return name === undefined ? undefined : systemGroupIds(ctx).get(name);
}

/**
 * Announces accounts joining or leaving their role's system group (added, reactivated: `to`;
 * deactivated: `from`; a role change: both), one user_group event per group, to everyone. Call
 * in the transaction of the change.
 */
export function announceSystemGroupChange(ctx: Ctx, userIds: readonly number[], change: { from?: number; to?: number }): void {
  if (userIds.length === 0 || change.from === change.to) return;
  const sorted = [...userIds].sort((a, b) => a - b);
  const left = change.from === undefined ? undefined : groupOfRole(ctx, change.from);
  const joined = change.to === undefined ? undefined : groupOfRole(ctx, change.to);
  if (left !== undefined) emit(ctx, null, { type: 'user_group', op: 'remove_members', group_id: left, user_ids: sorted });
  if (joined !== undefined) emit(ctx, null, { type: 'user_group', op: 'add_members', group_id: joined, user_ids: sorted });
}
