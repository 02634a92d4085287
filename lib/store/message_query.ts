// SQL for GET /messages: a narrow's conditions over the user's own rows (user_message joined to
// message, in the user's primary-key order) or over a channel's whole history (message with the
// user's row, if any, left-joined). A search walks the full-text index in id order instead, and
// reads the user's row and the message of each match. Equivalent narrows share one SQL text (their
// conditions sorted and deduplicated), of which the store keeps the most recently used prepared.
import type { Store } from './db.js';
import type { MessageRow } from './messages.js';
import { STARRED_BIT, flagsSql, starredSql } from './user_message.js';

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
  /** An FTS5 query over message_fts (null: nothing matches) and texts the topic or source must contain (ASCII case aside). */
  | { kind: 'search'; match: string | null; phrases: readonly string[] }
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
function isStarredTerm(c: NarrowCondition): boolean {
  return c.kind === 'flags' && c.mask === STARRED_BIT && c.set && !c.negated;
}

const UM_STARRED = starredSql('um');

function fragment(c: NarrowCondition, params: unknown[]): string | undefined {
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
      if (c.mask === STARRED_BIT) sql = c.set ? UM_STARRED : `NOT ${UM_STARRED}`;
      else {
        params.push(c.mask);
        sql = c.set ? '(um.flags & ?) <> 0' : '(um.flags & ?) = 0';
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
      params.push(c.match);
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
function canonical(conditions: readonly NarrowCondition[]): NarrowCondition[] {
  const keyed = new Map<string, NarrowCondition>();
  for (const c of conditions) if (c.kind !== 'none') keyed.set(JSON.stringify(c), c);
  return [...keyed].sort(([a, x], [b, y]) => CONDITION_RANK[x.kind] - CONDITION_RANK[y.kind] || (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

const UM_FLAGS = flagsSql('um');

/** `unread`: the caller wants the user's unread rows only (its WHERE says so), walked through their partial index. */
function base(q: MessageQuery, unread = false): { sql: string; params: unknown[]; idColumn: string } {
  const params: unknown[] = [q.userId];
  const search = q.conditions.some((c) => c.kind === 'search' && c.match !== null);
  const starred = !search && !(q.history && !unread) && q.conditions.some(isStarredTerm);
  const where = canonical(q.conditions)
    .filter((c) => !(starred && isStarredTerm(c)))
    .map((c) => fragment(c, params))
    .filter((f): f is string => f !== undefined);
  const conditions = where.map((w) => ` AND ${w}`).join('');
  if (search) {
    // CROSS JOIN keeps the index outermost: it yields matches in id order, so a page stops early.
    const join = q.history
      ? 'message_fts f CROSS JOIN message m ON m.id = f.rowid LEFT JOIN user_message um ON um.message_id = f.rowid AND um.user_id = ?'
      : 'message_fts f CROSS JOIN user_message um ON um.user_id = ? AND um.message_id = f.rowid CROSS JOIN message m ON m.id = f.rowid';
    return { sql: `SELECT m.*, ${UM_FLAGS} AS um_flags FROM ${join} WHERE 1${conditions}`, params, idColumn: 'f.rowid' };
  }
  if (q.history && !unread) {
    return {
      sql: `SELECT m.*, ${UM_FLAGS} AS um_flags FROM message m LEFT JOIN user_message um ON um.message_id = m.id AND um.user_id = ? WHERE 1${conditions}`,
      params,
      idColumn: 'm.id',
    };
  }
  // Ordering by s.message_id walks the user's starred_message rows, as few as the user starred.
  if (starred) {
    return {
      sql: `SELECT m.*, um.flags | ${STARRED_BIT} AS um_flags FROM starred_message s CROSS JOIN user_message um ON um.user_id = s.user_id AND um.message_id = s.message_id
            JOIN message m ON m.id = s.message_id WHERE s.user_id = ?${conditions}`,
      params,
      idColumn: 's.message_id',
    };
  }
  // Ordering by um.message_id walks the user's primary key: the newest N rows need N steps.
  // INDEXED BY: without the planner's statistics (a database never analyzed), it would walk the
  // primary key and skip read rows one by one.
  const rows = unread ? 'user_message um INDEXED BY user_message_unread' : 'user_message um';
  return {
    sql: `SELECT m.*, ${UM_FLAGS} AS um_flags FROM ${rows} JOIN message m ON m.id = um.message_id WHERE um.user_id = ?${conditions}`,
    params,
    idColumn: 'um.message_id',
  };
}

/** Matching messages with an id below `below`, newest first, at most `limit`. */
export function selectMessagesBefore(s: Store, q: MessageQuery, below: number, limit: number): FetchedRow[] {
  const b = base(q);
  return s.prepareBuilt(`${b.sql} AND ${b.idColumn} < ? ORDER BY ${b.idColumn} DESC LIMIT ?`).all(...b.params, below, limit) as FetchedRow[];
}

/** Matching messages with an id above (or from, when inclusive) `from`, oldest first, at most `limit`. */
export function selectMessagesAfter(s: Store, q: MessageQuery, from: number, inclusive: boolean, limit: number): FetchedRow[] {
  const b = base(q);
  const op = inclusive ? '>=' : '>';
  return s.prepareBuilt(`${b.sql} AND ${b.idColumn} ${op} ? ORDER BY ${b.idColumn} ASC LIMIT ?`).all(...b.params, from, limit) as FetchedRow[];
}

/** The matching message with this id, if any. */
export function selectMessageAt(s: Store, q: MessageQuery, id: number): FetchedRow | undefined {
  const b = base(q);
  // better-sqlite3 binds a number as a REAL, and FTS5 ignores a `rowid =` constraint whose value is
  // not an INTEGER (every match came back, the first taken for this id's).
  const at = b.idColumn === 'f.rowid' ? 'CAST(? AS INTEGER)' : '?';
  return s.prepareBuilt(`${b.sql} AND ${b.idColumn} = ${at}`).get(...b.params, id) as FetchedRow | undefined;
}

/**
 * The matching messages among these ids (sorted, distinct), oldest first, in one statement: a
 * search walks its index once within their range, where a statement per id would run the whole
 * search again for each (a one-letter search over 1,000 ids of 100,000 messages took 22 s).
 */
export function selectMessagesAmong(s: Store, q: MessageQuery, ids: readonly number[]): FetchedRow[] {
  if (ids.length === 0) return [];
  const b = base(q);
  const list = JSON.stringify(ids);
  if (b.idColumn !== 'f.rowid') return s.prepareBuilt(`${b.sql} AND ${b.idColumn} IN (SELECT value FROM json_each(?)) ORDER BY ${b.idColumn}`).all(...b.params, list) as FetchedRow[];
  // `+ 0`: a filter on the walk; as a constraint on the index's rowid, SQLite would search once per id.
  const sql = `${b.sql} AND f.rowid BETWEEN ? AND ? AND f.rowid + 0 IN (SELECT value FROM json_each(?)) ORDER BY f.rowid`;
  return s.prepareBuilt(sql).all(...b.params, ids[0], ids.at(-1), list) as FetchedRow[];
}

/**
 * The oldest matching message the user has not read (anchor=first_unread). Only a message the user
 * has an unread row for is unread (a channel's history counts as read, Zulip's "historical"
 * flags), so the user's unread rows are walked, oldest first: a few steps, however long the
 * channel's history (walking the channel from its oldest message took 9 ms for 10,000 messages).
 */
export function selectFirstUnread(s: Store, q: MessageQuery): number | undefined {
  const b = base(q, true);
  const sql = `${b.sql} AND (um.flags & 1) = 0 ORDER BY ${b.idColumn} ASC LIMIT 1`;
  return (s.prepareBuilt(sql).get(...b.params) as FetchedRow | undefined)?.id;
}
