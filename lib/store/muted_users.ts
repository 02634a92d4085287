// SQL for the muted_user table (Zulip's MutedUser).
import type { Store } from './db.js';
import { selectNewestUnreadMessageIds } from './message_flags.js';

export interface MutedUserRow {
  user_id: number;
  muted_user_id: number;
  date_muted: number;
}

/** The users `userId` muted, oldest first. */
export function selectMutedUsersOf(s: Store, userId: number): MutedUserRow[] {
  return s.all<MutedUserRow>('SELECT * FROM muted_user WHERE user_id = ? ORDER BY date_muted, muted_user_id', userId);
}

export function selectIsMuted(s: Store, userId: number, mutedUserId: number): boolean {
  return s.get('SELECT 1 FROM muted_user WHERE user_id = ? AND muted_user_id = ?', userId, mutedUserId) !== undefined;
}

/** Who muted `senderId` (Zulip's get_muting_users). */
export function selectMutingUserIds(s: Store, senderId: number): number[] {
  return s.prepare('SELECT user_id FROM muted_user WHERE muted_user_id = ?').pluck().all(senderId) as number[];
}

export function insertMutedUser(s: Store, row: MutedUserRow): void {
  s.run('INSERT INTO muted_user (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)', row.user_id, row.muted_user_id, row.date_muted);
}

export function deleteMutedUser(s: Store, userId: number, mutedUserId: number): void {
  s.run('DELETE FROM muted_user WHERE user_id = ? AND muted_user_id = ?', userId, mutedUserId);
}

/** The user's unread messages from `senderId`, oldest first (Zulip's do_mark_muted_user_messages_as_read). */
export function selectUnreadMessageIdsFromSender(s: Store, userId: number, senderId: number): number[] {
  return selectNewestUnreadMessageIds(s, userId, Number.MAX_SAFE_INTEGER, { senderId }).reverse();
}
