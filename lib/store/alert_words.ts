// SQL for alert words (the alert_word table): per-user words, in insertion order.
import type { Store } from './db.js';

export function selectAlertWords(s: Store, userId: number): string[] {
  return s.prepare('SELECT word FROM alert_word WHERE user_id = ? ORDER BY id').pluck().all(userId) as string[];
}

/** [id, word] pairs in insertion order (arrays, not objects: a user may have thousands). */
export function selectAlertWordPairsOfUser(s: Store, userId: number): [number, string][] {
  return s.prepare('SELECT id, word FROM alert_word WHERE user_id = ? ORDER BY id').raw().all(userId) as [number, string][];
}

export function insertAlertWord(s: Store, userId: number, word: string): void {
  s.run('INSERT INTO alert_word (user_id, word) VALUES (?, ?)', userId, word);
}

export function deleteAlertWord(s: Store, id: number): void {
  s.run('DELETE FROM alert_word WHERE id = ?', id);
}
