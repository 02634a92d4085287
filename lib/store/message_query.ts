// SQL for GET /messages: a narrow's conditions over the user's own messages (their user_message
// rows joined to message, in the user's primary-key order, merged with the messages they have by
// a subscription period: lib/store/message_query_periods.ts) or over a channel's whole history
// (message with the user's flags, if any, left-joined). A search walks the full-text index in id
// order instead, and reads the user's flags and the message of each match. Equivalent narrows
// share one SQL text (their conditions sorted and deduplicated), of which the store keeps the most
// recently used prepared.
import type { Store } from './db.js';
import { READ_BIT, STARRED_BIT, flagsSql, starredSql } from './user_message.js';
import { PERIOD_FLAGS_SQL, selectPeriodMessages } from './message_query_periods.js';
import { ROW_FLAGS, canonical, fragment, isStarredTerm, type FetchedRow, type FlagsSource, type MessageQuery, type NarrowCondition } from './narrow_sql.js';

export type { FetchedRow, MessageQuery, NarrowCondition } from './narrow_sql.js';

const UM_FLAGS = flagsSql('um');

/**
 * The flags the user has on message m: its row's, else its period's (PERIOD_FLAGS_SQL, whose one
 * parameter is the user's id), else NULL. For the bases that read messages rather than the
 * user's rows.
 */
const EFFECTIVE_FLAGS = `coalesce(${UM_FLAGS}, ${PERIOD_FLAGS_SQL})`;
const effective = (userId: number): FlagsSource => ({ flags: `coalesce(um.flags, ${PERIOD_FLAGS_SQL})`, flagsParams: [userId], starred: starredSql('um') });

function base(q: MessageQuery): { sql: string; params: unknown[]; idColumn: string } {
  const search = q.conditions.some((c) => c.kind === 'search' && c.match !== null);
  const starred = !search && !q.history && q.conditions.some(isStarredTerm);
  // The parameters in the order of their placeholders: the select list's and the join's come first.
  const reads = search || q.history;
  const params: unknown[] = reads ? [q.userId, q.userId, ...(search && !q.history ? [q.userId] : [])] : [q.userId];
  const source = reads ? effective(q.userId) : ROW_FLAGS;
  const where = canonical(q.conditions)
    .filter((c) => !(starred && isStarredTerm(c)))
    .map((c) => fragment(c, params, source))
    .filter((f): f is string => f !== undefined);
  const conditions = where.map((w) => ` AND ${w}`).join('');
  if (search) {
    // CROSS JOIN keeps the index outermost: it yields matches in id order, so a page stops early.
    // Without history, only the user's messages: a row, or a period's.
    const mine = q.history ? '' : ` AND (um.user_id IS NOT NULL OR ${PERIOD_FLAGS_SQL} IS NOT NULL)`;
    const sql = `SELECT m.*, ${EFFECTIVE_FLAGS} AS um_flags FROM message_fts f CROSS JOIN message m ON m.id = f.rowid
                 LEFT JOIN user_message um ON um.message_id = f.rowid AND um.user_id = ? WHERE 1${mine}${conditions}`;
    return { sql, params, idColumn: 'f.rowid' };
  }
  if (q.history) {
    const sql = `SELECT m.*, ${EFFECTIVE_FLAGS} AS um_flags FROM message m LEFT JOIN user_message um ON um.message_id = m.id AND um.user_id = ? WHERE 1${conditions}`;
    return { sql, params, idColumn: 'm.id' };
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
  // Ordering by um.message_id walks the user's primary key: the newest N rows need N steps. With
  // is:unread, the user's unread rows only (the partial index; CROSS JOIN keeps it outermost).
  const unread = q.conditions.some((c) => c.kind === 'flags' && c.mask === READ_BIT && !c.set && !c.negated);
  const rows = unread ? 'user_message um INDEXED BY user_message_unread CROSS JOIN message m' : 'user_message um JOIN message m';
  return {
    sql: `SELECT m.*, ${UM_FLAGS} AS um_flags FROM ${rows} ON m.id = um.message_id WHERE um.user_id = ?${conditions}`,
    params,
    idColumn: 'um.message_id',
  };
}

/** Whether the query reads the user's rows only, and the periods' messages must be merged in. */
const withPeriods = (q: MessageQuery): boolean => !q.history && !q.conditions.some((c) => (c.kind === 'search' && c.match !== null) || isStarredTerm(c));

/** Matching messages with an id below `below`, newest first, at most `limit`. */
export function selectMessagesBefore(s: Store, q: MessageQuery, below: number, limit: number): FetchedRow[] {
  const b = base(q);
  const rows = s.prepareBuilt(`${b.sql} AND ${b.idColumn} < ? ORDER BY ${b.idColumn} DESC LIMIT ?`).all(...b.params, below, limit) as FetchedRow[];
  if (!withPeriods(q)) return rows;
  return [...rows, ...selectPeriodMessages(s, q, { below, limit, descending: true })].sort((x, y) => y.id - x.id).slice(0, limit);
}

/** Matching messages with an id above (or from, when inclusive) `from`, oldest first, at most `limit`. */
export function selectMessagesAfter(s: Store, q: MessageQuery, from: number, inclusive: boolean, limit: number): FetchedRow[] {
  const b = base(q);
  const op = inclusive ? '>=' : '>';
  const rows = s.prepareBuilt(`${b.sql} AND ${b.idColumn} ${op} ? ORDER BY ${b.idColumn} ASC LIMIT ?`).all(...b.params, from, limit) as FetchedRow[];
  if (!withPeriods(q)) return rows;
  return [...rows, ...selectPeriodMessages(s, q, { from: inclusive ? from : from + 1, limit, descending: false })].sort((x, y) => x.id - y.id).slice(0, limit);
}

/** The matching message with this id, if any. */
export function selectMessageAt(s: Store, q: MessageQuery, id: number): FetchedRow | undefined {
  const b = base(q);
  // better-sqlite3 binds a number as a REAL, and FTS5 ignores a `rowid =` constraint whose value is
  // not an INTEGER (every match came back, the first taken for this id's).
  const at = b.idColumn === 'f.rowid' ? 'CAST(? AS INTEGER)' : '?';
  const row = s.prepareBuilt(`${b.sql} AND ${b.idColumn} = ${at}`).get(...b.params, id) as FetchedRow | undefined;
  if (row !== undefined || !withPeriods(q)) return row;
  return selectPeriodMessages(s, q, { from: id, below: id + 1, limit: 1, descending: false })[0];
}

/**
 * The matching messages among these ids (sorted, distinct), oldest first, in one statement: a
 * search walks its index once within their range, where a statement per id would run the whole
 * search again for each (a one-letter search over 1,000 ids of 100,000 messages took 22 s). Asked
 * over history (lib/domain/message_fetch.ts), whose flags are a row's or a period's.
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
 * The oldest matching message the user has not read (anchor=first_unread): the narrow's messages
 * that are unread, oldest first (a message without the user's flags counts as read), so the walk
 * follows the user's unread rows (user_message_unread) and each period's messages after its
 * read_through, not the size of the narrowed channel.
 */
export function selectFirstUnread(s: Store, q: MessageQuery): number | undefined {
  const unread: NarrowCondition = { kind: 'flags', mask: READ_BIT, set: false, negated: false };
  if (q.conditions.some((c) => c.kind === 'search' && c.match !== null)) {
    const b = base(q);
    const sql = `${b.sql} AND (coalesce(um.flags, ${PERIOD_FLAGS_SQL}, 1) & 1) = 0 ORDER BY ${b.idColumn} ASC LIMIT 1`;
    return (s.prepareBuilt(sql).get(...b.params, q.userId) as FetchedRow | undefined)?.id;
  }
  return selectMessagesAfter(s, { ...q, history: false, conditions: [...q.conditions, unread] }, 0, true, 1)[0]?.id;
}
