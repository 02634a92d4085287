// What the client says about people: presence (Zulip's active / idle / offline from the two
// timestamps: https://zulip.com/api/get-presence), roles, and local time.
import { formatDate } from './dates.js';
import type { State } from './store.js';
import type { User } from './types.js';

export type PresenceStatus = 'active' | 'idle' | 'offline';

export function presenceStatus(state: State, userId: number): PresenceStatus {
  const p = state.presence.get(userId);
  if (!p) return 'offline';
  const now = Date.now() / 1000 + state.clockSkew;
  if (now - p.active < state.realm.offlineSeconds) return 'active';
  if (now - p.idle < state.realm.offlineSeconds) return 'idle';
  return 'offline';
}

const ROLES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };
export const ROLE_CHOICES = [100, 200, 300, 400, 600] as const;
export const roleName = (role: number): string => ROLES[role] ?? 'Member';

/** The user's local time, when their time zone is known (Zulip's profile card shows it). */
export function localTime(user: User, twentyFour: boolean): string | null {
  if (!user.timezone) return null;
  try {
    return formatDate(Date.now(), { timeZone: user.timezone, hour: 'numeric', minute: '2-digit', hour12: !twentyFour });
  } catch {
    return null;
  }
}

export const initials = (name: string): string => name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join('');

/** Active humans first by presence, then by name; bots last. */
export function peopleList(state: State, filter: string): User[] {
  const q = filter.trim().toLowerCase();
  const rank = { active: 0, idle: 1, offline: 2 } as const;
  return [...state.users.values()]
    .filter((u) => u.is_active && (q === '' || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)))
    .sort((a, b) => Number(a.is_bot) - Number(b.is_bot) || rank[presenceStatus(state, a.user_id)] - rank[presenceStatus(state, b.user_id)] || a.full_name.localeCompare(b.full_name));
}
