// Who may delete messages, as /register's realm settings tell clients (administrators any; everyone
// their own within the limit): Zulip's group-setting values naming system groups by id.
import type { Ctx } from '../context.js';
import { systemGroupId } from './system_groups.js';

/** Zulip's default message_content_delete_limit_seconds (no grace period, unlike editing). */
export const DELETE_LIMIT_SECONDS = 600;

interface MessageDeleteGroups {
  can_delete_any_message_group: number;
  can_delete_own_message_group: number;
}

/**
 * Zulip's realm_can_delete_any_message_group and realm_can_delete_own_message_group, as parley's
 * rules (lib/domain/message_delete.ts) are, so that the mobile app offers "Delete message" where
 * parley allows it: Zulip's defaults, role:administrators and role:everyone. The groups' members
 * change with roles (user_group events), the settings never: no event lists every user.
 */
export function messageDeleteGroups(ctx: Ctx): MessageDeleteGroups {
  return {
    can_delete_any_message_group: systemGroupId(ctx, 'role:administrators'),
    can_delete_own_message_group: systemGroupId(ctx, 'role:everyone'),
  };
}
