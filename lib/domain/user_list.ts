// The organization's users as user dictionaries show them, read once and kept until the user table
// changes (by any process: cache_version 'user'), the one bulk list for what reads every user:
// the realm_user state of POST /register (formatted once per viewer role, Zulip's cached
// get_realm_user_dicts), the system groups' members (lib/domain/system_groups.ts) and the non-ASCII
// names mentions resolve to (lib/domain/message_render.ts).
import type { Ctx } from '../context.js';
import type { MentionedUser } from '../render/mentions.js';
import { selectListedUser, selectListedUsers, selectListedUsersNamed, type ListedUserRow } from '../store/users.js';
import type { UserDict } from './user_dicts.js';

/** Users by lower-cased full name (later ids win on duplicate names, as Zulip's name -> user dict does). */
type MentionIndex = Map<string, ListedUserRow>;

/** A system group as user group dictionaries show it: its direct members (active, of its role) and its subgroup. */
export interface SystemGroupMembership {
  readonly members: readonly number[];
  readonly subgroupIds: readonly number[];
}

export interface UserList {
  /** In id order. */
  rows: readonly ListedUserRow[];
  /** The dictionaries of every row as a viewer of each role sees them (own entries aside), frozen. */
  byRole: Map<number, readonly UserDict[]>;
  mentions?: MentionIndex;
  /** The system groups' members (lib/domain/system_groups.ts). */
  systemGroups?: ReadonlyMap<number, SystemGroupMembership>;
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

/** The kept list's users by name, made on first use (what a non-ASCII name resolves in). */
function mentionIndex(ctx: Ctx): MentionIndex {
  const list = userList(ctx);
  if (list.mentions === undefined) {
    const index: MentionIndex = new Map();
    for (const row of list.rows) index.set(row.full_name.toLowerCase(), row);
    list.mentions = index;
  }
  return list.mentions;
}

/** The users one message's mentions name, as they resolved, and how they resolve. */
export interface MentionedUsers {
  byName(name: string): MentionedUser | undefined;
  byId(id: number): MentionedUser | undefined;
  /** Every user byName or byId returned, by id. */
  rows: Map<number, ListedUserRow>;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * How mentions resolve to users (Zulip's full_name__iexact; later ids win on duplicate names): an
 * ASCII name through the user_by_name index and an id by its row, so a mention costs a few
 * indexed reads however big the organization and however often its user table changes; a name
 * with other letters in the kept user list (SQLite folds the case of ASCII letters only; the
 * Kelvin sign, the one non-ASCII letter that lower-cases to an ASCII one, is not matched by an
 * ASCII name).
 */
export function mentionedUsers(ctx: Ctx): MentionedUsers {
  const rows = new Map<number, ListedUserRow>();
  const found = (row: ListedUserRow | undefined): MentionedUser | undefined => {
    if (row === undefined) return undefined;
    rows.set(row.id, row);
    return { id: row.id, fullName: row.full_name };
  };
  return {
    rows,
    byName(name) {
      const lower = name.toLowerCase();
      if (!ASCII.test(name)) return found(mentionIndex(ctx).get(lower));
      const named = selectListedUsersNamed(ctx.store, name).filter((row) => row.full_name.toLowerCase() === lower);
      return found(named.at(-1));
    },
    byId: (id) => found(selectListedUser(ctx.store, id)),
  };
}
