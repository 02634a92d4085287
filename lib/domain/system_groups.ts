// Zulip's role-based system groups (https://zulip.com/api/group-setting-values#system-groups): rows
// of user_group made by schema.sql, whose members are the active accounts of each role, read from
// the user table (no member rows); a role change, an account added, deactivated or reactivated
// is one short user_group event. Group-setting values name them by id, so no setting lists users.
import type { Ctx } from '../context.js';
import { selectActiveUserRoles } from '../store/users.js';
import { selectSystemGroupIds } from '../store/user_groups.js';
import { emit } from './event_types.js';
import { ROLE } from './roles.js';

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

/** A system group as user group dictionaries show it: its direct members (active, of its role) and its subgroup. */
export interface SystemGroupMembership {
  members: number[];
  subgroupIds: number[];
}

/** Every system group's direct members and subgroups, by group id: one read of the active accounts' roles. */
export function systemGroupMemberships(ctx: Ctx): Map<number, SystemGroupMembership> {
  const ids = systemGroupIds(ctx);
  const byRole = new Map<number, number[]>();
  for (const { id, role } of selectActiveUserRoles(ctx.store)) {
    const list = byRole.get(role) ?? [];
    list.push(id);
    byRole.set(role, list);
  }
  const memberships = new Map<number, SystemGroupMembership>();
  for (const group of SYSTEM_GROUPS) {
    const id = ids.get(group.name);
    if (id === undefined) continue;
    const subgroup = group.subgroup === null ? undefined : ids.get(group.subgroup);
    memberships.set(id, { members: group.role === null ? [] : (byRole.get(group.role) ?? []), subgroupIds: subgroup === undefined ? [] : [subgroup] });
  }
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
