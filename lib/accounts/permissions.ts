// The options of lib/accounts/options.ts applied: who is in a role group, who may add subscribers,
// the options as given, and their check at server creation.
import type { Ctx } from '../context.js';
import { ROLE } from '../domain/roles.js';
import type { AccountOptions, RoleGroup } from './options.js';

const ROLE_AT_MOST: Readonly<Record<RoleGroup, number>> = {
  'role:owners': ROLE.owner,
  'role:administrators': ROLE.admin,
  'role:moderators': ROLE.moderator,
  'role:members': ROLE.member,
  'role:nobody': 0,
};

export const ROLE_GROUPS = Object.keys(ROLE_AT_MOST) as readonly RoleGroup[];

/** Whether a user of `role` is in the group (bots go by their role, as in Zulip). */
export function inRoleGroup(group: RoleGroup, user: { role: number }): boolean {
  return user.role <= ROLE_AT_MOST[group];
}

/** Zulip's can_add_subscribers_group: administrators, and the group the options name. */
export function mayAddSubscribers(ctx: Ctx, user: { role: number }): boolean {
  return user.role <= ROLE.admin || inRoleGroup(accountOptions(ctx).whoMayAddSubscribers ?? 'role:members', user);
}

export function accountOptions(ctx: Ctx): AccountOptions {
  return ctx.options.accounts ?? {};
}

export const DEFAULT_INVITATIONS_PER_DAY = 100;

/** Zulip's sends_email_by_ip. */
export const DEFAULT_EMAILS_PER_CLIENT_ADDRESS_PER_DAY = 5;

/**
 * The checked options, at server creation: a bad group or domain is a configuration mistake,
 * thrown at once rather than met by a user.
 */
export function checkAccountOptions(options: AccountOptions | undefined): void {
  if (options === undefined) return;
  for (const name of ['whoMayInvite', 'whoMayCreateInviteLinks', 'whoMayAddSubscribers'] as const) {
    const group = options[name];
    if (group !== undefined && !ROLE_GROUPS.includes(group)) throw new Error(`accounts.${name} must be one of ${ROLE_GROUPS.join(', ')}, not '${group}'`);
  }
  for (const domain of options.emailDomains ?? []) {
    if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(domain)) {
      throw new Error(`accounts.emailDomains: '${domain}' is not a lower-case domain (optionally *.domain)`);
    }
  }
  for (const name of ['invitationsPerDay', 'emailsPerClientAddressPerDay'] as const) {
    const count = options[name];
    if (count !== undefined && !(Number.isSafeInteger(count) && count >= 0)) throw new Error(`accounts.${name} must be a non-negative integer`);
  }
}
