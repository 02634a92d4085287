// Who may delete messages, as /register's realm settings tell clients (administrators any; everyone
// their own within the limit), kept current by `realm` update_dict events.
import type { Ctx } from '../context.js';
import { selectActiveUserRoles } from '../store/users.js';
import { emit } from './event_types.js';
import { ROLE } from './roles.js';
import type { GroupSettingValue } from './user_group_dicts.js';

/** Zulip's default message_content_delete_limit_seconds (no grace period, unlike editing). */
export const DELETE_LIMIT_SECONDS = 600;

interface MessageDeleteGroups {
  can_delete_any_message_group: GroupSettingValue;
  can_delete_own_message_group: GroupSettingValue;
}

/**
 * Zulip's realm_can_delete_any_message_group and realm_can_delete_own_message_group, as parley's
 * rules (lib/domain/message_delete.ts) are, so that the mobile app offers "Delete message" where
 * parley allows it. parley has no system groups: each setting lists its members.
 */
export function messageDeleteGroups(ctx: Ctx): MessageDeleteGroups {
  const active = selectActiveUserRoles(ctx.store);
  const members = (ids: number[]): GroupSettingValue => ({ direct_members: ids, direct_subgroups: [] });
  return {
    can_delete_any_message_group: members(active.filter((u) => u.role <= ROLE.admin).map((u) => u.id)),
    can_delete_own_message_group: members(active.map((u) => u.id)),
  };
}

/** Tells every client the settings' new members (call in the transaction that added, deactivated, reactivated an account or changed its role). */
export function announceMessageDeleteGroups(ctx: Ctx): void {
  emit(ctx, null, { type: 'realm', op: 'update_dict', property: 'default', data: messageDeleteGroups(ctx) });
}
