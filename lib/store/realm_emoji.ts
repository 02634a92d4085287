// SQL for the realm_emoji table: custom emoji rows (without their image) and the image itself.
import type { Store } from './db.js';

export interface RealmEmojiRow {
  id: number;
  name: string;
  author_id: number | null;
  deactivated: number;
  file_name: string;
  content_type: string;
}

export interface RealmEmojiImage {
  content_type: string;
  image: Buffer;
}

const COLUMNS = 'id, name, author_id, deactivated, file_name, content_type';

/** Every custom emoji, deactivated ones included, by id. */
export function selectRealmEmoji(s: Store): RealmEmojiRow[] {
  return s.all<RealmEmojiRow>(`SELECT ${COLUMNS} FROM realm_emoji ORDER BY id`);
}

export function selectRealmEmojiById(s: Store, id: number): RealmEmojiRow | undefined {
  return s.get<RealmEmojiRow>(`SELECT ${COLUMNS} FROM realm_emoji WHERE id = ?`, id);
}

/** Uses realm_emoji_active_name. */
export function selectActiveRealmEmojiByName(s: Store, name: string): RealmEmojiRow | undefined {
  return s.get<RealmEmojiRow>(`SELECT ${COLUMNS} FROM realm_emoji WHERE name = ? AND deactivated = 0`, name);
}

export function selectRealmEmojiImage(s: Store, fileName: string): RealmEmojiImage | undefined {
  return s.get<RealmEmojiImage>('SELECT content_type, image FROM realm_emoji WHERE file_name = ?', fileName);
}

export function insertRealmEmoji(
  s: Store,
  e: { name: string; author_id: number; file_name: string; content_type: string; image: Buffer; date_created: number },
): number {
  const result = s.run(
    `INSERT INTO realm_emoji (name, author_id, file_name, content_type, image, date_created)
     VALUES (?, ?, ?, ?, ?, ?)`,
    e.name,
    e.author_id,
    e.file_name,
    e.content_type,
    e.image,
    e.date_created,
  );
  return Number(result.lastInsertRowid);
}

export function updateRealmEmojiDeactivated(s: Store, id: number): void {
  s.run('UPDATE realm_emoji SET deactivated = 1 WHERE id = ?', id);
}
