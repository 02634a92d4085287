// Who may delete messages, as POST /register's realm settings tell clients (Zulip's
// realm_can_delete_any_message_group: administrators; realm_can_delete_own_message_group:
// everyone, within realm_message_content_delete_limit_seconds), so that the mobile app offers
// "Delete message" where parley allows it (lib/domain/message_delete.ts). parley has no system
// groups: each setting lists its members, and a `realm` update_dict event follows every change
// of them (an account added, deactivated, reactivated, or its role changed).
import type { Ctx } from '../context.js';
import { selectActiveUserRoles } from '../store/users.js';
import { emit } from './event_types.js';
import { ROLE } from './roles.js';
import type { GroupSettingValue } from './user_group_dicts.js';

/** Zulip's default message_content_delete_limit_seconds (no grace period, unlike editing). */
export const DELETE_LIMIT_SECONDS = 600;

export interface MessageDeleteGroups {
  can_delete_any_message_group: GroupSettingValue;
  can_delete_own_message_group: GroupSettingValue;
}

export function messageDeleteGroups(ctx: Ctx): MessageDeleteGroups {
  const active = selectActiveUserRoles(ctx.store);
  const members = (ids: number[]): GroupSettingValue => ({ direct_members: ids, direct_subgroups: [] });
  return {
    can_delete_any_message_group: members(active.filter((u) => u.role <= ROLE.admin).map((u) => u.id)),
    can_delete_own_message_group: members(active.map((u) => u.id)),
  };
}

/** Tells every client the settings' new members (call in the transaction that changed an account). */
export function announceMessageDeleteGroups(ctx: Ctx): void {
  emit(ctx, null, { type: 'realm', op: 'update_dict', property: 'default', data: messageDeleteGroups(ctx) });
}
