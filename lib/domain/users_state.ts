// The realm_user part of POST /register: every active user and bot, and the deactivated ones, as
// the caller sees them (real emails only where their owners' email_address_visibility allows).
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import { selectUsers } from '../store/users.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { ROLE, isAdmin, isGuest, isOwner, type Actor } from './roles.js';
import { gravatarUrl } from './avatars.js';
import { userFormatterFor } from './users.js';
import type { RealmUserState } from './user_dicts.js';

export function fetchRealmUserState(ctx: Ctx, actor: Actor, _options: StateOptions): RealmUserState {
  const rows = selectUsers(ctx.store);
  const me = rows.find((row) => row.id === actor.id)!;
  const format = userFormatterFor(ctx, actor);
  return {
    realm_users: rows.filter((row) => row.is_active === 1).map(format),
    realm_non_active_users: rows.filter((row) => row.is_active === 0).map(format),
    // Zulip's system bots of other realms: a parley database holds one organization.
    cross_realm_bots: [],
    user_id: actor.id,
    email: apiEmail(fakeEmailDomain(ctx), me),
    delivery_email: me.email,
    full_name: actor.fullName,
    is_admin: isAdmin(me),
    is_owner: isOwner(me),
    is_moderator: me.role === ROLE.moderator,
    is_guest: isGuest(me),
    avatar_url: gravatarUrl(me.email),
  };
}
