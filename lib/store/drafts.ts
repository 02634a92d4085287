// SQL for drafts (the draft table).
import type { Store } from './db.js';

export interface DraftRow {
  id: number;
  user_id: number;
  type: '' | 'stream' | 'private';
  /** JSON list of ids. */
  to_ids: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

export type NewDraftRow = Omit<DraftRow, 'id' | 'user_id'>;

export function selectDrafts(s: Store, userId: number): DraftRow[] {
  return s.all<DraftRow>('SELECT * FROM draft WHERE user_id = ? ORDER BY last_edit_time, id', userId);
}

export function selectNewestDrafts(s: Store, userId: number, limit: number): DraftRow[] {
  return s.all<DraftRow>('SELECT * FROM draft WHERE user_id = ? ORDER BY last_edit_time DESC, id DESC LIMIT ?', userId, limit);
}

export function selectDraft(s: Store, userId: number, id: number): DraftRow | undefined {
  return s.get<DraftRow>('SELECT * FROM draft WHERE id = ? AND user_id = ?', id, userId);
}

export function insertDraft(s: Store, userId: number, d: NewDraftRow): number {
  const result = s.run(
    'INSERT INTO draft (user_id, type, to_ids, topic, content, last_edit_time) VALUES (?, ?, ?, ?, ?, ?)',
    userId,
    d.type,
    d.to_ids,
    d.topic,
    d.content,
    d.last_edit_time,
  );
  return Number(result.lastInsertRowid);
}

export function updateDraftRow(s: Store, id: number, d: NewDraftRow): void {
  s.run(
    'UPDATE draft SET type = ?, to_ids = ?, topic = ?, content = ?, last_edit_time = ? WHERE id = ?',
    d.type,
    d.to_ids,
    d.topic,
    d.content,
    d.last_edit_time,
    id,
  );
}

export function deleteDraftRow(s: Store, id: number): void {
  s.run('DELETE FROM draft WHERE id = ?', id);
}

export function deleteDraftsOfUser(s: Store, userId: number): void {
  s.run('DELETE FROM draft WHERE user_id = ?', userId);
}

export function selectDraftsSyncEnabled(s: Store, userId: number): boolean {
  return s.prepare('SELECT enable_drafts_synchronization FROM user WHERE id = ?').pluck().get(userId) === 1;
}
