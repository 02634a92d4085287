// SQL for the web_session table (lib/accounts/sessions.ts): a session is found by the SHA-256 of
// its token and ends by losing its row.
import type { Store } from './db.js';

export interface WebSessionRow {
  id: number;
  user_id: number;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  user_agent: string;
}

export function insertWebSession(s: Store, row: Omit<WebSessionRow, 'id'> & { token_hash: Buffer }): number {
  return Number(
    s.run(
      'INSERT INTO web_session (user_id, token_hash, created_at, last_used_at, expires_at, user_agent) VALUES (?, ?, ?, ?, ?, ?)',
      row.user_id,
      row.token_hash,
      row.created_at,
      row.last_used_at,
      row.expires_at,
      row.user_agent,
    ).lastInsertRowid,
  );
}

const COLUMNS = 'id, user_id, created_at, last_used_at, expires_at, user_agent';

export function selectWebSessionByTokenHash(s: Store, tokenHash: Buffer): WebSessionRow | undefined {
  return s.get<WebSessionRow>(`SELECT ${COLUMNS} FROM web_session WHERE token_hash = ?`, tokenHash);
}

export function selectWebSessionsOfUser(s: Store, userId: number): WebSessionRow[] {
  return s.all<WebSessionRow>(`SELECT ${COLUMNS} FROM web_session WHERE user_id = ? ORDER BY id`, userId);
}

export function touchWebSession(s: Store, id: number, lastUsedAt: number): void {
  s.run('UPDATE web_session SET last_used_at = ? WHERE id = ?', lastUsedAt, id);
}

/** Deletes one of the user's sessions; false when the user has no session of that id. */
export function deleteWebSession(s: Store, userId: number, id: number): boolean {
  return s.run('DELETE FROM web_session WHERE id = ? AND user_id = ?', id, userId).changes > 0;
}

/** Ends the user's sessions but `keepId` (null: all of them); returns how many ended. */
export function deleteWebSessionsOfUser(s: Store, userId: number, keepId: number | null = null): number {
  return s.run('DELETE FROM web_session WHERE user_id = ? AND id IS NOT ?', userId, keepId).changes;
}

export function deleteExpiredWebSessions(s: Store, now: number): number {
  return s.run('DELETE FROM web_session WHERE expires_at <= ?', now).changes;
}
