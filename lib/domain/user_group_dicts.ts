// The user group object of Zulip's API (GET /user_groups, /register's realm_user_groups, the
// user_group add event): its schema and builder.
import { z } from 'zod';
import type { UserGroupRow } from '../store/user_groups.js';

const id = z.int();

/** Zulip's UserGroup (https://zulip.com/api/get-user-groups#response); only system groups have subgroups. */
/** Zulip's group-setting value as an object: https://zulip.com/api/group-setting-values */
export const groupSettingValueSchema = z.object({ direct_members: z.array(z.int()), direct_subgroups: z.array(z.int()) });
export type GroupSettingValue = z.infer<typeof groupSettingValueSchema>;

export const userGroupSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  members: z.array(id),
  direct_subgroup_ids: z.array(id),
  is_system_group: z.boolean(),
  creator_id: id.nullable(),
  date_created: z.int().nullable(),
  deactivated: z.boolean(),
});
export type UserGroupDict = z.infer<typeof userGroupSchema>;

/** A group's dictionary; a system group (lib/domain/system_groups.ts) with its subgroups and no creator. */
export function groupDict(group: UserGroupRow, members: readonly number[], system?: { subgroupIds: readonly number[] }): UserGroupDict {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members: [...members],
    direct_subgroup_ids: system === undefined ? [] : [...system.subgroupIds],
    is_system_group: system !== undefined,
    creator_id: group.creator_id,
    date_created: group.date_created,
    deactivated: false,
  };
}
