// SQL for the user_status table: one row per user, partial updates (a NULL leaves a column as it is).
import type { Store } from './db.js';

export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  /** From the user table: the deprecated `away` is its negation. */
  presence_enabled: number;
}

/** The fields to change; null leaves the stored value. */
export interface UserStatusChange {
  status_text: string | null;
  emoji_name: string | null;
  emoji_code: string | null;
  reaction_type: string | null;
}

const COLUMNS = 's.user_id, s.status_text, s.emoji_name, s.emoji_code, s.reaction_type, u.presence_enabled';

export function selectUserStatus(s: Store, userId: number): UserStatusRow | undefined {
  return s.get<UserStatusRow>(`SELECT ${COLUMNS} FROM user_status s JOIN user u ON u.id = s.user_id WHERE s.user_id = ?`, userId);
}

/** Zulip's get_all_users_status_dict: active users whose status says something (or who are away). */
export function selectShownUserStatuses(s: Store): UserStatusRow[] {
  return s.all<UserStatusRow>(
    `SELECT ${COLUMNS} FROM user_status s JOIN user u ON u.id = s.user_id
     WHERE u.is_active = 1 AND (u.presence_enabled = 0 OR s.status_text <> '' OR s.emoji_name <> '')
     ORDER BY s.user_id`,
  );
}

export function upsertUserStatus(s: Store, userId: number, change: UserStatusChange, now: number): void {
  s.prepare(
    `INSERT INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, updated_at)
     VALUES (@user_id, coalesce(@status_text, ''), coalesce(@emoji_name, ''), coalesce(@emoji_code, ''),
             coalesce(@reaction_type, 'unicode_emoji'), @now)
     ON CONFLICT (user_id) DO UPDATE SET
       status_text = coalesce(@status_text, status_text),
       emoji_name = coalesce(@emoji_name, emoji_name),
       emoji_code = coalesce(@emoji_code, emoji_code),
       reaction_type = coalesce(@reaction_type, reaction_type),
       updated_at = @now`,
  ).run({ user_id: userId, ...change, now });
}
