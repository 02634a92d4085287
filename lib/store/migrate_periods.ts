// Schema 24's data migration: a database with one user_message row per recipient gets the
// subscription periods of its current subscriptions (schema.sql). A small channel's periods begin
// now (its messages keep a row per recipient). A big channel's messages (by its subscriber count:
// DEFAULT_LARGE_CHANNEL_SUBSCRIBERS) become had by period and lose the rows that say only what a
// period says: for each active subscriber, the period begins at the channel's newest run of
// messages the user has a received row for, all of them (a gap, such as a time the user had left,
// ends the run: older messages keep their rows), and read_through at the end of that run's first
// stretch of read messages; the rows of the run whose flags are the period's default (read up to
// read_through, unread after, nothing else, not starred) go. What every user has of every
// message, and its flags, is the same before and after.
import type { Database } from './db.js';
import { DEFAULT_LARGE_CHANNEL_SUBSCRIBERS } from './subscription_periods.js';

const READ = 1;
const HISTORICAL = 1024;

export function migrateToPeriods(db: Database): void {
  const next =
    ((db.prepare('SELECT max(coalesce((SELECT max(id) FROM message), 0), coalesce((SELECT last_id FROM message_sequence WHERE id = 1), 0)) + 1').pluck().get() as number) ?? 1);
  const streams = db.prepare('SELECT DISTINCT s.stream_id FROM subscription s JOIN user u ON u.id = s.user_id WHERE u.is_active = 1').pluck().all() as number[];
  const isBig = db.prepare('SELECT subscriber_count >= ? FROM stream WHERE id = ?').pluck();
  const markBig = db.prepare('UPDATE message SET by_period = 1 WHERE stream_id = ?');
  const messagesOf = db.prepare('SELECT id FROM message WHERE stream_id = ? ORDER BY id').pluck();
  const subscribersOf = db.prepare('SELECT s.user_id FROM subscription s JOIN user u ON u.id = s.user_id WHERE s.stream_id = ? AND u.is_active = 1').pluck();
  const row = db
    .prepare(
      `SELECT um.flags, EXISTS (SELECT 1 FROM starred_message sm WHERE sm.user_id = um.user_id AND sm.message_id = um.message_id)
       FROM user_message um WHERE um.user_id = ? AND um.message_id = ?`,
    )
    .raw();
  const insert = db.prepare('INSERT OR REPLACE INTO subscription_period (user_id, stream_id, first_message_id, end_message_id, read_through) VALUES (?, ?, ?, NULL, ?)');
  const drop = db.prepare('DELETE FROM user_message WHERE user_id = ? AND message_id = ?');
  for (const streamId of streams) {
    const big = isBig.get(DEFAULT_LARGE_CHANNEL_SUBSCRIBERS, streamId) === 1;
    if (big) markBig.run(streamId);
    const ids = big ? (messagesOf.all(streamId) as number[]) : [];
    for (const userId of subscribersOf.all(streamId) as number[]) {
      // The newest run of messages the user received, walked from the newest back.
      const run: [number, number, number][] = [];
      for (let i = ids.length - 1; i >= 0; i--) {
        const found = row.get(userId, ids[i]) as [number, number] | undefined;
        if (found === undefined || (found[0] & HISTORICAL) !== 0) break;
        run.push([ids[i]!, found[0], found[1]]);
      }
      run.reverse();
      const first = run[0]?.[0] ?? next;
      let readThrough = first - 1;
      for (const [id, flags] of run) {
        if ((flags & READ) === 0) break;
        readThrough = id;
      }
      insert.run(userId, streamId, first, readThrough);
      for (const [id, flags, starred] of run) {
        if (starred === 0 && flags === (id <= readThrough ? READ : 0)) drop.run(userId, id);
      }
    }
  }
}
