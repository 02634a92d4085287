// Narrows of GET /messages (Zulip's NarrowBuilder): each term becomes a typed condition for the
// store's query, and whether the query may include channel history the user never received.
import type { Ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { selectDirectGroupId } from '../store/messages.js';
import type { NarrowCondition } from '../store/message_query.js';
import { selectIsSubscribed, selectStreamById, selectStreamByName } from '../store/streams.js';
import { selectUserById, type UserRow } from '../store/users.js';
import { userByEmail } from './email_visibility.js';
import { FLAG } from './flags.js';
import { canAccessStreamHistory } from './stream_access.js';
import { isGuest, type Actor } from './roles.js';
import { parseSearch, searchOperand, type SearchQuery } from './search.js';

export interface NarrowTerm {
  operator: string;
  operand: string | number | readonly (string | number)[];
  negated?: boolean | undefined;
}

export interface ParsedNarrow {
  conditions: NarrowCondition[];
  /** Zulip's ok_to_include_history: a channel whose whole history the user may read. */
  includeHistory: boolean;
  /** The search terms, all of them combined into one (Zulip's add_narrow_conditions). */
  search: SearchQuery | undefined;
}

export function badNarrow(desc: string): ApiError {
  return new ApiError('BAD_NARROW', `Invalid narrow operator: ${desc}`, { extra: { desc } });
}

/** Python's str() of an operand, for error descriptions. */
function describe(operand: NarrowTerm['operand']): string {
  if (Array.isArray(operand)) return `[${operand.map((x) => (typeof x === 'string' ? `'${x}'` : String(x))).join(', ')}]`;
  return String(operand);
}

type UserLookup = (operand: string | number) => UserRow | undefined;

/** The users a narrow names, each looked up once: 100 `dm` terms may each list the same 1,000 users. */
function userLookup(ctx: Ctx, actor: Actor): UserLookup {
  const known = new Map<string | number, UserRow | undefined>();
  return (operand) => {
    if (!known.has(operand)) known.set(operand, typeof operand === 'number' ? selectUserById(ctx.store, operand) : userByEmail(ctx, actor, operand));
    return known.get(operand);
  };
}

const IS_FLAGS: Record<string, { mask: number; set: boolean }> = {
  starred: { mask: FLAG.starred, set: true },
  unread: { mask: FLAG.read, set: false },
  read: { mask: FLAG.read, set: true },
  mentioned: { mask: FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned | FLAG.group_mentioned, set: true },
  alerted: { mask: FLAG.has_alert_word, set: true },
};

function condition(ctx: Ctx, actor: Actor, term: NarrowTerm, userByOperand: UserLookup): { condition: NarrowCondition; history: boolean | null } {
  const negated = term.negated ?? false;
  const { operand } = term;
  switch (term.operator) {
    case 'channel':
    case 'stream': {
      const stream =
        typeof operand === 'number' ? selectStreamById(ctx.store, operand) : typeof operand === 'string' ? selectStreamByName(ctx.store, operand) : undefined;
      if (!stream) throw badNarrow(`unknown channel ${describe(operand)}`);
      const history = !negated && canAccessStreamHistory(actor, stream, selectIsSubscribed(ctx.store, actor.id, stream.id));
      return { condition: { kind: 'stream', streamId: stream.id, negated }, history };
    }
    case 'channels':
    case 'streams':
      if (operand !== 'public') throw badNarrow(`unknown channels operand ${describe(operand)}`);
      return { condition: { kind: 'public_streams', negated }, history: !negated && !isGuest(actor) };
    case 'topic':
    case 'subject':
      return { condition: { kind: 'topic', topic: String(operand), negated }, history: null };
    case 'sender': {
      const user = typeof operand === 'string' || typeof operand === 'number' ? userByOperand(operand) : undefined;
      if (!user) throw badNarrow(`unknown user ${describe(operand)}`);
      return { condition: { kind: 'sender', userId: user.id, negated }, history: null };
    }
    case 'dm':
    case 'pm-with': {
      const list = typeof operand === 'string' ? operand.split(',') : Array.isArray(operand) ? operand : [operand];
      const ids = new Set([actor.id]);
      for (const item of list) {
        const user = userByOperand(item);
        if (!user) throw badNarrow(`unknown user in ${describe(operand)}`);
        ids.add(user.id);
      }
      if (list.length === 0) throw badNarrow(`unknown user in ${describe(operand)}`);
      const key = [...ids].sort((a, b) => a - b).join(',');
      return { condition: { kind: 'direct_group', directGroupId: selectDirectGroupId(ctx.store, key) ?? null, negated }, history: null };
    }
    case 'is': {
      if (operand === 'dm' || operand === 'private') return { condition: { kind: 'is_direct', negated }, history: false };
      if (operand === 'followed' || operand === 'muted') return { condition: { kind: operand, userId: actor.id, negated }, history: false };
      const flag = typeof operand === 'string' ? IS_FLAGS[operand] : undefined;
      if (!flag) throw badNarrow(`unknown 'is' operand ${describe(operand)}`);
      return { condition: { kind: 'flags', mask: flag.mask, set: flag.set, negated }, history: false };
    }
    case 'has':
      if (operand === 'reaction') return { condition: { kind: 'has_reaction', negated }, history: null };
      if (operand === 'link' || operand === 'image' || operand === 'attachment') {
        return { condition: { kind: 'has', column: `has_${operand}`, negated }, history: null };
      }
      throw badNarrow(`unknown 'has' operand ${describe(operand)}`);
    case 'id': {
      const id = typeof operand === 'number' ? operand : /^\d+$/.test(String(operand)) ? Number(operand) : NaN;
      if (!Number.isSafeInteger(id)) throw badNarrow(`Invalid message ID`);
      return { condition: { kind: 'id', id, negated }, history: null };
    }
    case 'in':
      if (operand === 'home' || operand === 'all') return { condition: { kind: 'none' }, history: null };
      throw badNarrow(`unknown 'in' operand ${describe(operand)}`);
    case 'near':
      return { condition: { kind: 'none' }, history: null };
    default:
      throw badNarrow(`unknown operator ${term.operator}`);
  }
}

export function parseNarrow(ctx: Ctx, actor: Actor, narrow: readonly NarrowTerm[]): ParsedNarrow {
  const conditions: NarrowCondition[] = [];
  const searches: string[] = [];
  let includeHistory = false;
  let historyBlocked = false;
  const users = userLookup(ctx, actor);
  for (const term of narrow) {
    if (term.operator === 'search') {
      searches.push(searchOperand(term.operand));
      continue;
    }
    const parsed = condition(ctx, actor, term, users);
    conditions.push(parsed.condition);
    if (parsed.history === true) includeHistory = true;
    // Terms on personal flags rule out history, which has no flags (Zulip's `is:` rule).
    if (term.operator === 'is') historyBlocked = true;
  }
  const search = searches.length > 0 ? parseSearch(searches.join(' ')) : undefined;
  if (search) conditions.push({ kind: 'search', match: search.match, phrases: search.phrases });
  return { conditions, includeHistory: includeHistory && !historyBlocked, search };
}
