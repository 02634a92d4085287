// A narrow's conditions (lib/domain/narrow.ts builds them) as SQL over a message `m` and the user's
// flags, shared by the queries of GET /messages (lib/store/message_query.ts, over the user's rows
// and over history; lib/store/message_query_periods.ts, over the user's subscription periods).
import type { MessageRow } from './messages.js';
import { STARRED_BIT, starredSql } from './user_message.js';

export type NarrowCondition =
  | { kind: 'none' }
  | { kind: 'stream'; streamId: number; negated: boolean }
  | { kind: 'public_streams'; negated: boolean }
  | { kind: 'topic'; topic: string; negated: boolean }
  | { kind: 'direct_group'; directGroupId: number | null; negated: boolean }
  | { kind: 'sender'; userId: number; negated: boolean }
  | { kind: 'flags'; mask: number; set: boolean; negated: boolean }
  | { kind: 'is_direct'; negated: boolean }
  | { kind: 'has_reaction'; negated: boolean }
  | { kind: 'has'; column: 'has_link' | 'has_image' | 'has_attachment'; negated: boolean }
  /**
   * An FTS5 query over message_fts (null: nothing matches) and texts the topic or source must
   * contain; `streamId`, the one channel the narrow is within, if any.
   */
  | { kind: 'search'; match: string | null; phrases: readonly string[]; streamId?: number }
  | { kind: 'id'; id: number; negated: boolean }
  /** Zulip's is:followed and is:muted for the user (their user_topic rows and muted subscriptions). */
  | { kind: 'followed' | 'muted'; userId: number; negated: boolean };

export interface MessageQuery {
  userId: number;
  /** Over every message of the narrowed channels rather than only the user's rows. */
  history: boolean;
  conditions: readonly NarrowCondition[];
}

/** A message with the user's flags; null when the user has no row (a historical message). */
export type FetchedRow = MessageRow & { um_flags: number | null };

/** A plain is:starred term: the query then walks the user's starred_message rows (isStarredTerm). */
export function isStarredTerm(c: NarrowCondition): boolean {
  return c.kind === 'flags' && c.mask === STARRED_BIT && c.set && !c.negated;
}

/** How a query reads the user's flags: a SQL expression for the bits but starred (with its parameters), and one for starred. */
export interface FlagsSource {
  flags: string;
  flagsParams?: readonly unknown[];
  starred: string;
}

export const ROW_FLAGS: FlagsSource = { flags: 'um.flags', starred: starredSql('um') };

export function fragment(c: NarrowCondition, params: unknown[], source: FlagsSource = ROW_FLAGS): string | undefined {
  let sql: string;
  switch (c.kind) {
    case 'none':
      return undefined;
    case 'stream':
      params.push(c.streamId);
      sql = 'm.stream_id = ?';
      break;
    case 'public_streams':
      sql = 'm.stream_id IN (SELECT id FROM stream WHERE invite_only = 0)';
      break;
    case 'topic':
      params.push(c.topic);
      sql = 'm.stream_id IS NOT NULL AND m.topic = ? COLLATE NOCASE';
      break;
    case 'direct_group':
      if (c.directGroupId === null) sql = '0';
      else {
        params.push(c.directGroupId);
        sql = 'm.direct_group_id = ?';
      }
      break;
    case 'sender':
      params.push(c.userId);
      sql = 'm.sender_id = ?';
      break;
    case 'flags':
      // A plain is:starred is the join of base(); negated, or within a search, each row is looked up.
      if (c.mask === STARRED_BIT) sql = c.set ? source.starred : `NOT ${source.starred}`;
      else {
        // The mask as a literal (a flag constant, lib/domain/narrow.ts): `(um.flags & 1) = 0` lets
        // SQLite walk the user_message_unread partial index, whose WHERE it must see written out.
        const mask = Math.trunc(c.mask);
        params.push(...(source.flagsParams ?? []));
        sql = c.set ? `(${source.flags} & ${mask}) <> 0` : `(${source.flags} & ${mask}) = 0`;
      }
      break;
    case 'has_reaction':
      // The reaction table's unique key starts with message_id.
      sql = 'EXISTS (SELECT 1 FROM reaction r WHERE r.message_id = m.id)';
      break;
    case 'has':
      sql = `m.${c.column} = 1`;
      break;
    case 'search':
      if (c.match === null) return '0';
      // Within one channel, its id token goes into the match: FTS5 skips to that channel's matches.
      params.push(c.streamId === undefined ? c.match : `(${c.match}) AND stream_id:"${c.streamId}"`);
      // Zulip combines every search term into one, never negated.
      return ['f.message_fts MATCH ?', ...c.phrases.map((phrase) => containsBoth(phrase, params))].join(' AND ');
    case 'is_direct':
      sql = 'm.direct_group_id IS NOT NULL';
      break;
    case 'id':
      params.push(c.id);
      sql = 'm.id = ?';
      break;
    case 'followed':
      params.push(c.userId);
      sql = `m.stream_id IS NOT NULL AND ${topicPolicyIs('3')}`;
      break;
    case 'muted':
      // Zulip's exclude_stream_and_topic_mutes negated: a muted topic, or a muted channel's topic
      // that is neither unmuted nor followed. Direct messages are never muted.
      params.push(c.userId, c.userId, c.userId);
      sql = `m.stream_id IS NOT NULL AND (${topicPolicyIs('1')} OR (EXISTS (SELECT 1 FROM subscription s WHERE s.user_id = ? AND s.stream_id = m.stream_id AND s.is_muted = 1) AND NOT ${topicPolicyIs('2, 3')}))`;
      break;
  }
  return c.negated ? `NOT coalesce(${sql}, 0)` : sql;
}

/** The user's policy for the message's topic (user_topic's primary key; its topic column folds case). */
function topicPolicyIs(policies: string): string {
  return `EXISTS (SELECT 1 FROM user_topic ut WHERE ut.user_id = ? AND ut.stream_id = m.stream_id AND ut.topic = m.topic AND ut.visibility_policy IN (${policies}))`;
}

/**
 * Zulip's `content ILIKE '%phrase%' OR topic ILIKE '%phrase%'`, folding ASCII case only as SQLite's
 * LIKE does. instr() compares with memcmp: for a 1,000-character phrase against a crafted
 * 10,000-character message, LIKE's character-by-character matching took 7.5 ms, instr() 0.2 ms.
 */
function containsBoth(phrase: string, params: unknown[]): string {
  const folded = phrase.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
  params.push(folded, folded);
  return '(instr(lower(m.content), ?) > 0 OR instr(lower(m.topic), ?) > 0)';
}

/** Cheap column tests first, subqueries and the search last: SQLite tests the rest of a WHERE in its order. */
const CONDITION_RANK: Readonly<Record<NarrowCondition['kind'], number>> = {
  id: 0,
  stream: 1,
  topic: 2,
  sender: 3,
  direct_group: 4,
  is_direct: 5,
  has: 6,
  public_streams: 7,
  flags: 8,
  has_reaction: 9,
  followed: 10,
  muted: 11,
  search: 12,
  none: 13,
};

/**
 * The conditions in one order, each once, without the ones that add nothing: a narrow's terms
 * are ANDed, so every ordering and repetition of the same terms is one SQL text.
 */
export function canonical(conditions: readonly NarrowCondition[]): NarrowCondition[] {
  const keyed = new Map<string, NarrowCondition>();
  for (const c of conditions) if (c.kind !== 'none') keyed.set(JSON.stringify(c), c);
  return [...keyed].sort(([a, x], [b, y]) => CONDITION_RANK[x.kind] - CONDITION_RANK[y.kind] || (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}
