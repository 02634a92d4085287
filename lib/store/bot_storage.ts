// SQL for the bot_storage table: a bot's key-value entries.
import type { Store } from './db.js';

export function selectBotStorage(s: Store, userId: number): { key: string; value: string }[] {
  return s.all<{ key: string; value: string }>('SELECT key, value FROM bot_storage WHERE user_id = ? ORDER BY key', userId);
}

/** Zulip's get_bot_storage_size: characters of every key and value. */
export function selectBotStorageSize(s: Store, userId: number): number {
  return s.get<{ size: number }>('SELECT coalesce(sum(length(key) + length(value)), 0) AS size FROM bot_storage WHERE user_id = ?', userId)!.size;
}

export function upsertBotStorage(s: Store, userId: number, key: string, value: string): void {
  s.run('INSERT INTO bot_storage (user_id, key, value) VALUES (?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value', userId, key, value);
}

export function deleteBotStorageKey(s: Store, userId: number, key: string): number {
  return s.run('DELETE FROM bot_storage WHERE user_id = ? AND key = ?', userId, key).changes;
}
