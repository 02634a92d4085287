// Roles and the authenticated caller every domain function receives.

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
