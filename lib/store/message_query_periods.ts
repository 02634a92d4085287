// GET /messages over the messages a user has by a subscription period rather than a row
// (lib/store/subscription_periods.ts): each period of the user is a range of its channel's
// messages (message_by_stream), narrowed by the query's conditions with the period's flags (read
// up to read_through, unread after); the pages are merged with the user's rows by
// lib/store/message_query.ts. A condition no message of a period can meet skips the period.
import type { Store } from './db.js';
import { canonical, fragment, type FetchedRow, type FlagsSource, type MessageQuery, type NarrowCondition } from './narrow_sql.js';
import { periodFlagsSql, selectPeriodsWithMessages, type Period } from './subscription_periods.js';
import { READ_BIT, STARRED_BIT } from './user_message.js';

/** SQL: the flags message m has by a period of the user (its one parameter), NULL without one. */
export const PERIOD_FLAGS_SQL = periodFlagsSql('?');

/** A period's messages have no row: their flags are um_flags, never starred. */
const PERIOD: FlagsSource = { flags: 'm.um_flags', starred: '0' };

export interface IdRange {
  /** Ids from this one (inclusive). */
  from?: number;
  /** Ids below this one. */
  below?: number;
  limit: number;
  descending: boolean;
}

/**
 * The ids of the period a condition leaves possible, [low, high), or null when none: channel
 * conditions decide by the period's channel, flag conditions by read_through.
 */
function narrowed(s: Store, period: Period, conditions: readonly NarrowCondition[], range: IdRange): [number, number] | null {
  let low = Math.max(period.first, range.from ?? 0);
  let high = Math.min(period.end, range.below ?? Infinity);
  for (const c of conditions) {
    const holds = (value: boolean) => value !== ('negated' in c && c.negated);
    switch (c.kind) {
      case 'stream':
        if (!holds(c.streamId === period.streamId)) return null;
        break;
      case 'direct_group':
      case 'is_direct':
        if (!holds(false)) return null;
        break;
      case 'public_streams':
        if (!holds(s.prepare('SELECT invite_only FROM stream WHERE id = ?').pluck().get(period.streamId) === 0)) return null;
        break;
      case 'flags': {
        if ((c.mask & READ_BIT) === 0 || c.mask === STARRED_BIT) {
          // A period's flags have no bit of the mask.
          if (!holds(!c.set)) return null;
          break;
        }
        // Read up to read_through, unread after: the condition keeps one side.
        if (holds(c.set)) high = Math.min(high, period.readThrough + 1);
        else low = Math.max(low, period.readThrough + 1);
        break;
      }
      default:
        break;
    }
  }
  return low < high ? [low, high] : null;
}

/** The matching messages the user has by a period and not by a row, in the range, at most `limit`. */
export function selectPeriodMessages(s: Store, q: MessageQuery, range: IdRange): FetchedRow[] {
  const found: FetchedRow[] = [];
  for (const period of selectPeriodsWithMessages(s, q.userId)) {
    const ids = narrowed(s, period, q.conditions, range);
    if (ids === null) continue;
    const params: unknown[] = [period.readThrough, period.streamId, ids[0], Number.isFinite(ids[1]) ? ids[1] : Number.MAX_SAFE_INTEGER, q.userId];
    const conditions = canonical(q.conditions)
      .map((c) => fragment(c, params, PERIOD))
      .filter((f): f is string => f !== undefined)
      .map((f) => ` AND ${f}`)
      .join('');
    const sql = `SELECT * FROM (
        SELECT m.*, CASE WHEN m.id <= ? THEN 1 ELSE 0 END AS um_flags FROM message m WHERE m.stream_id = ? AND m.id >= ? AND m.id < ? AND m.by_period = 1
        AND NOT EXISTS (SELECT 1 FROM user_message x WHERE x.user_id = ? AND x.message_id = m.id)) m
      WHERE 1${conditions} ORDER BY m.id ${range.descending ? 'DESC' : 'ASC'} LIMIT ?`;
    found.push(...(s.prepareBuilt(sql).all(...params, range.limit) as FetchedRow[]));
  }
  return found;
}
