// Zulip's bulk_principals_to_user_profiles: the users a subscription change acts on, named by id
// or by email (every one must exist, then none may be deactivated).
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { selectUserById, type UserRow } from '../store/users.js';
import { userByEmail } from './email_visibility.js';
import type { Actor } from './roles.js';

export function resolvePrincipals(ctx: Ctx, actor: Actor, principals: readonly (string | number)[]): UserRow[] {
  const rows = principals.map((p) => (typeof p === 'number' ? selectUserById(ctx.store, p) : userByEmail(ctx, actor, p)));
  if (rows.some((row) => row === undefined)) throw badRequest('No such user');
  const unique = new Map<number, UserRow>();
  for (const row of rows as UserRow[]) {
    if (row.is_active === 0) throw badRequest('User is deactivated');
    unique.set(row.id, row);
  }
  return [...unique.values()];
}
