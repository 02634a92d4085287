// SQL for the presence table: one row per user, with the sequence number of its last change.
import type { Store } from './db.js';

export interface PresenceRow {
  user_id: number;
  last_active_time: number | null;
  last_connected_time: number;
  last_update_id: number;
}

/** A row with what the answers need from the user: the email (legacy keys) and date_joined (a never-active user). */
export interface ShownPresenceRow extends PresenceRow {
  email: string;
  date_joined: number;
}

const SHOWN = `SELECT p.user_id, p.last_active_time, p.last_connected_time, p.last_update_id, u.email, u.date_joined
  FROM presence p JOIN user u ON u.id = p.user_id`;

export function selectPresence(s: Store, userId: number): ShownPresenceRow | undefined {
  return s.get<ShownPresenceRow>(`${SHOWN} WHERE p.user_id = ?`, userId);
}

/** Zulip's get_presence_dict_by_realm: active users, not bots, changed after `afterUpdateId` and connected since `connectedSince`. */
export function selectShownPresences(s: Store, afterUpdateId: number, connectedSince: number): ShownPresenceRow[] {
  return s.all<ShownPresenceRow>(
    `${SHOWN} WHERE p.last_update_id > ? AND p.last_connected_time >= ? AND u.is_active = 1 AND u.bot_type IS NULL ORDER BY p.user_id`,
    afterUpdateId,
    connectedSince,
  );
}

/** Writes a user's presence with the next last_update_id (presence_by_update_id); rows are never deleted, so ids only grow. */
export function upsertPresence(s: Store, userId: number, lastActive: number | null, lastConnected: number): void {
  s.run(
    `INSERT INTO presence (user_id, last_active_time, last_connected_time, last_update_id)
     VALUES (@user_id, @last_active, @last_connected, (SELECT coalesce(max(last_update_id), 0) + 1 FROM presence))
     ON CONFLICT (user_id) DO UPDATE SET last_active_time = excluded.last_active_time,
       last_connected_time = excluded.last_connected_time, last_update_id = excluded.last_update_id`,
    { user_id: userId, last_active: lastActive, last_connected: lastConnected },
  );
}

/** Active users connected (or active) at or after `since`, ascending. */
export function selectRecentlyActiveUserIds(s: Store, since: number): number[] {
  return s
    .prepare(
      `SELECT p.user_id FROM presence p JOIN user u ON u.id = p.user_id
       WHERE (p.last_connected_time >= ? OR p.last_active_time >= ?) AND u.is_active = 1 ORDER BY p.user_id`,
    )
    .pluck()
    .all(since, since) as number[];
}
