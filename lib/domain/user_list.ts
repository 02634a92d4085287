// The organization's users as user dictionaries show them, read once and kept until the user table
// changes (by any process: cache_version 'user'), the one bulk list for what reads every user:
// the realm_user state of POST /register (formatted once per viewer role, Zulip's cached
// get_realm_user_dicts) and the names mentions resolve to (lib/domain/message_render.ts).
import type { Ctx } from '../context.js';
import type { MentionedUser } from '../render/mentions.js';
import { selectListedUsers, type ListedUserRow } from '../store/users.js';
import type { UserDict } from './user_dicts.js';

/** Users by lower-cased full name (later ids win on duplicate names, as Zulip's name -> user dict does) and by id. */
export interface MentionIndex {
  byName: Map<string, MentionedUser>;
  byId: Map<number, MentionedUser>;
  rows: Map<number, ListedUserRow>;
}

export interface UserList {
  /** In id order. */
  rows: readonly ListedUserRow[];
  /** The dictionaries of every row as a viewer of each role sees them (own entries aside), frozen. */
  byRole: Map<number, readonly UserDict[]>;
  mentions?: MentionIndex;
}

export function userList(ctx: Ctx): UserList {
  return ctx.cached<UserList>('user_list', () => ({ rows: selectListedUsers(ctx.store), byRole: new Map() }));
}

/** The index of the row with this id in rows sorted by id, or -1. */
export function indexOfUser(rows: readonly ListedUserRow[], id: number): number {
  let [low, high] = [0, rows.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = rows[middle]!.id;
    if (at === id) return middle;
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** The users mentions resolve to. */
export function mentionIndex(ctx: Ctx): MentionIndex {
  const list = userList(ctx);
  if (list.mentions === undefined) {
    const index: MentionIndex = { byName: new Map(), byId: new Map(), rows: new Map() };
    for (const row of list.rows) {
      const user = { id: row.id, fullName: row.full_name };
      index.byName.set(row.full_name.toLowerCase(), user);
      index.byId.set(row.id, user);
      index.rows.set(row.id, row);
    }
    list.mentions = index;
  }
  return list.mentions;
}
