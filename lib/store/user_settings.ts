// SQL for the user_setting table: a user's settings that differ from Zulip's defaults, as JSON.
import type { Store } from './db.js';

export function selectUserSettings(s: Store, userId: number): Map<string, unknown> {
  const rows = s.prepare('SELECT name, value FROM user_setting WHERE user_id = ?').raw().all(userId) as [string, string][];
  return new Map(rows.map(([name, value]) => [name, JSON.parse(value) as unknown]));
}

export function upsertUserSetting(s: Store, userId: number, name: string, value: unknown): void {
  s.run(
    'INSERT INTO user_setting (user_id, name, value) VALUES (?, ?, ?) ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value',
    userId,
    name,
    JSON.stringify(value),
  );
}

export function deleteUserSetting(s: Store, userId: number, name: string): void {
  s.run('DELETE FROM user_setting WHERE user_id = ? AND name = ?', userId, name);
}

/** The users whose setting `name` is stored with the value `value`. */
export function selectUsersWithSetting(s: Store, name: string, value: unknown): Set<number> {
  return new Set(s.prepare('SELECT user_id FROM user_setting WHERE name = ? AND value = ?').pluck().all(name, JSON.stringify(value)) as number[]);
}
