// The realm_user part of POST /register: every active user and bot, and the deactivated ones, as
// the caller sees them (real emails only where their owners' email_address_visibility allows),
// from the kept user list (lib/domain/user_list.ts), formatted once per viewer role. A client with
// the user_list_incomplete capability in a big organization gets part of it (partialUserIds).
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import type { ListedUserRow } from '../store/users.js';
import { selectRecentDirectConversations } from '../store/user_message.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { ROLE, isAdmin, isGuest, isOwner, type Actor } from './roles.js';
import { gravatarUrl } from './avatars.js';
import { formatUser, userFormatterFor } from './users.js';
import { botsAndRecentlyActive, RECENTLY_ACTIVE_DAYS } from './subscribers.js';
import { indexOfUser, userList } from './user_list.js';
import type { RealmUserState, UserDict } from './user_dicts.js';

/**
 * From this many accounts on, a client with user_list_incomplete gets a partial user list: as
 * Zulip's partial subscriber lists, a size where the whole list stops being worth its bytes
 * (about 300 bytes per user).
 */
export const MIN_PARTIAL_USER_LIST_SIZE = 1000;

/** How many recent direct messages name the correspondents a partial list keeps. */
const RECENT_DIRECT_MESSAGES = 1000;

/**
 * The organization's accounts as `viewer` sees them, in id order, and the viewer's index: the
 * dictionaries are shared by every answer until the user table changes, so they are frozen.
 */
function formattedUsers(ctx: Ctx, viewer: Actor): { rows: readonly ListedUserRow[]; dicts: readonly UserDict[]; own: number } {
  const list = userList(ctx);
  let dicts = list.byRole.get(viewer.role);
  if (dicts === undefined) {
    // Formatted as an anonymous viewer of that role: the viewer's own entry is set apart below.
    const format = userFormatterFor(ctx, { ...viewer, id: 0 });
    dicts = list.rows.map((row) => Object.freeze(format(row)));
    list.byRole.set(viewer.role, dicts);
  }
  const own = indexOfUser(list.rows, viewer.id);
  if (own === -1 || dicts[own]!.delivery_email !== null) return { rows: list.rows, dicts, own };
  const mine = dicts.slice();
  mine[own] = formatUser(list.rows[own]!, fakeEmailDomain(ctx), true);
  return { rows: list.rows, dicts: mine, own };
}

/**
 * The accounts a partial list holds: the caller, bots, users active or joined in the last
 * RECENTLY_ACTIVE_DAYS days, and the caller's recent direct-message correspondents. A client
 * fetches any other user it meets with GET /users/{user_id}.
 */
function partialUserIds(ctx: Ctx, actor: Actor, rows: readonly ListedUserRow[]): Set<number> {
  const ids = new Set([actor.id, ...botsAndRecentlyActive(ctx)]);
  const joinedSince = ctx.now() - RECENTLY_ACTIVE_DAYS * 86400;
  for (let i = 0; i < rows.length; i++) if (rows[i]!.date_joined >= joinedSince) ids.add(rows[i]!.id);
  for (const { memberKey } of selectRecentDirectConversations(ctx.store, actor.id, RECENT_DIRECT_MESSAGES)) {
    for (const id of memberKey.split(',')) ids.add(Number(id));
  }
  return ids;
}

export function fetchRealmUserState(ctx: Ctx, actor: Actor, options: StateOptions): RealmUserState {
  const list = userList(ctx);
  const partial = options.clientCapabilities.user_list_incomplete === true && list.rows.length >= MIN_PARTIAL_USER_LIST_SIZE;
  const active: UserDict[] = [];
  const inactive: UserDict[] = [];
  let own: number;
  if (partial) {
    // A few users, formatted for this request: no list of every user for the viewer's role.
    const format = userFormatterFor(ctx, actor);
    const indexes = [...partialUserIds(ctx, actor, list.rows)].map((id) => indexOfUser(list.rows, id)).filter((i) => i !== -1);
    for (const i of indexes.sort((a, b) => a - b)) (list.rows[i]!.is_active === 1 ? active : inactive).push(format(list.rows[i]!));
    own = indexOfUser(list.rows, actor.id);
  } else {
    const formatted = formattedUsers(ctx, actor);
    own = formatted.own;
    formatted.rows.forEach((row, i) => (row.is_active === 1 ? active : inactive).push(formatted.dicts[i]!));
  }
  const rows = list.rows;
  const me = rows[own]!;
  return {
    realm_users: active,
    realm_non_active_users: inactive,
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
