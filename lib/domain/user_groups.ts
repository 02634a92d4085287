// User groups, enough for group mentions: POST /user_groups/create, GET /user_groups,
// POST /user_groups/{user_group_id}/members; `user_group` events (add, add_members,
// remove_members) and the realm_user_groups state of POST /register.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import type { StateOptions } from './state_options.js';
import {
  deleteUserGroupMember,
  insertUserGroup,
  insertUserGroupMember,
  selectActiveMemberIds,
  selectAllActiveMemberships,
  selectUserGroupById,
  selectUserGroupByName,
  selectUserGroups,
  type UserGroupRow,
} from '../store/user_groups.js';
import { selectUserById } from '../store/users.js';
import { emit } from './event_types.js';
import { groupDict, userGroupSchema, type UserGroupDict } from './user_group_dicts.js';
import { isAdmin, isGuest, type Actor } from './roles.js';

const MAX_GROUP_NAME_LENGTH = 100;
export const MAX_GROUP_DESCRIPTION_LENGTH = 1024;
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** Zulip's @require_member_or_admin. */
export function requireMemberOrAdmin(actor: Actor): void {
  if (isGuest(actor)) throw badRequest('Not allowed for guest users');
  if (actor.isBot) throw badRequest('This endpoint does not accept bot requests.');
}

function allGroups(ctx: Ctx): UserGroupDict[] {
  const members = new Map<number, number[]>();
  for (const [groupId, userId] of selectAllActiveMemberships(ctx.store)) {
    const list = members.get(groupId) ?? [];
    list.push(userId);
    members.set(groupId, list);
  }
  return selectUserGroups(ctx.store).map((group) => groupDict(group, members.get(group.id) ?? []));
}

export const userGroupStateSchema = z.object({ realm_user_groups: z.array(userGroupSchema) });

/** POST /register state. */
export function fetchUserGroupState(ctx: Ctx, _actor: Actor, _options: StateOptions): z.infer<typeof userGroupStateSchema> {
  return { realm_user_groups: allGroups(ctx) };
}

export const listUserGroupsAnswerSchema = z.object({ user_groups: z.array(userGroupSchema) });

/** GET /user_groups. */
export function listUserGroups(ctx: Ctx, _actor: Actor): z.infer<typeof listUserGroupsAnswerSchema> {
  return { user_groups: allGroups(ctx) };
}

/** Zulip's check_user_group_name. */
function checkGroupName(name: string): void {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_GROUP_NAME_LENGTH) {
    throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  }
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) throw badRequest(`User group name cannot start with '${prefix}'.`);
}

/** Zulip's user_ids_to_users: every id an active user. */
function checkMembers(ctx: Ctx, userIds: readonly number[]): number[] {
  for (const id of userIds) {
    const user = selectUserById(ctx.store, id);
    if (!user || user.is_active === 0) throw badRequest(`Invalid user ID: ${id}`);
  }
  return [...new Set(userIds)].sort((a, b) => a - b);
}

export const createUserGroupAnswerSchema = z.object({ group_id: z.int() });

/** POST /user_groups/create. */
export function createUserGroup(
  ctx: Ctx,
  actor: Actor,
  input: { name: string; description: string; members: readonly number[] },
): z.infer<typeof createUserGroupAnswerSchema> {
  return ctx.tx(() => {
    const members = checkMembers(ctx, input.members);
    checkGroupName(input.name);
    if (selectUserGroupByName(ctx.store, input.name)) throw badRequest(`User group '${input.name}' already exists.`);
    const id = insertUserGroup(ctx.store, { name: input.name, description: input.description, date_created: ctx.now(), creator_id: actor.id });
    for (const userId of members) insertUserGroupMember(ctx.store, id, userId);
    const group = selectUserGroupById(ctx.store, id)!;
    emit(ctx, null, { type: 'user_group', op: 'add', group: groupDict(group, members) });
    return { group_id: id };
  });
}

/** Zulip's access_user_group_for_update, with parley's rule: administrators and the group's creator. */
function accessGroupForUpdate(ctx: Ctx, actor: Actor, groupId: number): UserGroupRow {
  const group = selectUserGroupById(ctx.store, groupId);
  if (!group) throw badRequest('Invalid user group');
  if (!isAdmin(actor) && group.creator_id !== actor.id) throw badRequest('Insufficient permission');
  return group;
}

/** POST /user_groups/{user_group_id}/members. */
export function updateUserGroupMembers(
  ctx: Ctx,
  actor: Actor,
  input: { userGroupId: number; add?: readonly number[] | undefined; delete?: readonly number[] | undefined },
): Record<string, never> {
  return ctx.tx(() => {
    const add = input.add ?? [];
    const remove = input.delete ?? [];
    if (add.length === 0 && remove.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
    const group = accessGroupForUpdate(ctx, actor, input.userGroupId);
    const current = new Set(selectActiveMemberIds(ctx.store, group.id));
    if (add.length > 0) {
      const toAdd = checkMembers(ctx, add);
      const already = toAdd.find((id) => current.has(id));
      if (already !== undefined) throw badRequest(`User ${already} is already a member of this group`);
      for (const userId of toAdd) insertUserGroupMember(ctx.store, group.id, userId);
      emit(ctx, null, { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: toAdd });
      for (const id of toAdd) current.add(id);
    }
    if (remove.length > 0) {
      const toRemove = [...new Set(remove)].sort((a, b) => a - b);
      const absent = toRemove.find((id) => !current.has(id));
      if (absent !== undefined) throw badRequest(`There is no member '${absent}' in this user group`);
      for (const userId of toRemove) deleteUserGroupMember(ctx.store, group.id, userId);
      emit(ctx, null, { type: 'user_group', op: 'remove_members', group_id: group.id, user_ids: toRemove });
    }
    return {};
  });
}
