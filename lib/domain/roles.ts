// Roles and the authenticated caller every domain function receives.
import { mustBeAdmin } from '../errors.js';

export const ROLE = {
  owner: 100,
  admin: 200,
  moderator: 300,
  member: 400,
  guest: 600,
} as const;

export type RoleName = keyof typeof ROLE;
export type Role = (typeof ROLE)[RoleName];

export const ROLE_VALUES: readonly Role[] = Object.values(ROLE);

export function roleByName(name: string): Role | undefined {
  return (ROLE as Record<string, Role>)[name === 'administrator' ? 'admin' : name];
}

/** The caller: an active user or bot, as authenticated by lib/domain/auth.ts. */
export interface Actor {
  id: number;
  email: string;
  fullName: string;
  role: Role;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
}

/** Zulip's is_realm_admin: owners and administrators. */
export const isAdmin = (user: { role: number }): boolean => user.role <= ROLE.admin;
export const isOwner = (user: { role: number }): boolean => user.role === ROLE.owner;
export const isGuest = (user: { role: number }): boolean => user.role === ROLE.guest;
export const isModeratorOrAbove = (user: { role: number }): boolean => user.role <= ROLE.moderator;

/** Zulip's @require_realm_admin. */
export function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor)) throw mustBeAdmin();
}

/** Zulip's email_address_visibility values: who may see a user's real email. */
export const EMAIL_VISIBILITY = {
  everyone: 1,
  members: 2,
  admins: 3,
  nobody: 4,
  moderators: 5,
} as const;

// Zulip's UserProfile.ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS.
const VISIBILITIES_SEEN_BY_ROLE: Readonly<Record<number, readonly number[]>> = {
  [ROLE.owner]: [1, 2, 5, 3],
  [ROLE.admin]: [1, 2, 5, 3],
  [ROLE.moderator]: [1, 2, 5],
  [ROLE.member]: [1, 2],
  [ROLE.guest]: [1],
};

/**
 * The weakest role that sees real emails of this visibility (each role sees what the roles below
 * it see), or null when no role does: the viewers of a user's real email are the active users up
 * to that role, and the user.
 */
export function weakestRoleSeeing(visibility: number): Role | null {
  const roles = [...ROLE_VALUES].sort((a, b) => b - a);
  return roles.find((role) => VISIBILITIES_SEEN_BY_ROLE[role]?.includes(visibility)) ?? null;
}

/** Zulip's can_access_delivery_email: everyone sees their own; others by the target's setting. */
export function canAccessDeliveryEmail(viewer: { id: number; role: number }, target: { id: number; email_address_visibility: number }): boolean {
  if (viewer.id === target.id) return true;
  return VISIBILITIES_SEEN_BY_ROLE[viewer.role]?.includes(target.email_address_visibility) ?? false;
}
