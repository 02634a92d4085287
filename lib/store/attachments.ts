// SQL for uploaded files: the attachment table, its bytes (attachment_chunk), the messages that
// link it (attachment_message) and the temporary URL signing key (upload_url_key).
import type { Store } from './db.js';

export interface AttachmentRow {
  id: number;
  path_id: string;
  file_name: string;
  owner_id: number;
  size: number;
  content_type: string;
  create_time: number;
}

export interface AttachmentMessageRow {
  attachment_id: number;
  message_id: number;
  date_sent: number;
}

const COLUMNS = 'id, path_id, file_name, owner_id, size, content_type, create_time';

export function insertAttachment(s: Store, a: Omit<AttachmentRow, 'id'>): number {
  const result = s.run(
    `INSERT INTO attachment (path_id, file_name, owner_id, size, content_type, create_time) VALUES (?, ?, ?, ?, ?, ?)`,
    a.path_id,
    a.file_name,
    a.owner_id,
    a.size,
    a.content_type,
    a.create_time,
  );
  return Number(result.lastInsertRowid);
}

export function insertAttachmentChunk(s: Store, attachmentId: number, seq: number, data: Buffer): void {
  s.run('INSERT INTO attachment_chunk (attachment_id, seq, data) VALUES (?, ?, ?)', attachmentId, seq, data);
}

/** One piece of a file's bytes; undefined past its end. */
export function selectAttachmentChunk(s: Store, attachmentId: number, seq: number): Buffer | undefined {
  return s.get<{ data: Buffer }>('SELECT data FROM attachment_chunk WHERE attachment_id = ? AND seq = ?', attachmentId, seq)?.data;
}

export function selectAttachmentByPathId(s: Store, pathId: string): AttachmentRow | undefined {
  return s.get<AttachmentRow>(`SELECT ${COLUMNS} FROM attachment WHERE path_id = ?`, pathId);
}

export function selectAttachmentsByPathIds(s: Store, pathIds: readonly string[]): AttachmentRow[] {
  if (pathIds.length === 0) return [];
  return s.all<AttachmentRow>(`SELECT ${COLUMNS} FROM attachment WHERE path_id IN (SELECT value FROM json_each(?))`, JSON.stringify(pathIds));
}

export function selectAttachmentById(s: Store, id: number): AttachmentRow | undefined {
  return s.get<AttachmentRow>(`SELECT ${COLUMNS} FROM attachment WHERE id = ?`, id);
}

/** Uses attachment_owner. */
export function selectAttachmentsOfOwner(s: Store, ownerId: number): AttachmentRow[] {
  return s.all<AttachmentRow>(`SELECT ${COLUMNS} FROM attachment WHERE owner_id = ? ORDER BY id`, ownerId);
}

/** The messages linking the given attachments, oldest first. */
export function selectAttachmentMessages(s: Store, attachmentIds: readonly number[]): AttachmentMessageRow[] {
  if (attachmentIds.length === 0) return [];
  return s.all<AttachmentMessageRow>(
    `SELECT am.attachment_id, am.message_id, m.date_sent FROM attachment_message am JOIN message m ON m.id = am.message_id
     WHERE am.attachment_id IN (SELECT value FROM json_each(?)) ORDER BY am.message_id`,
    JSON.stringify(attachmentIds),
  );
}

/** The ids of the messages linking one attachment. */
export function selectAttachmentMessageIds(s: Store, attachmentId: number): number[] {
  return s.all<{ message_id: number }>('SELECT message_id FROM attachment_message WHERE attachment_id = ?', attachmentId).map((r) => r.message_id);
}

/** The attachments one message claims (uses attachment_message_message). */
export function selectMessageAttachments(s: Store, messageId: number): AttachmentRow[] {
  return s.all<AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachment WHERE id IN (SELECT attachment_id FROM attachment_message WHERE message_id = ?)`,
    messageId,
  );
}

export function insertAttachmentMessage(s: Store, attachmentId: number, messageId: number): void {
  s.run('INSERT OR IGNORE INTO attachment_message (attachment_id, message_id) VALUES (?, ?)', attachmentId, messageId);
}

export function deleteAttachmentMessage(s: Store, attachmentId: number, messageId: number): void {
  s.run('DELETE FROM attachment_message WHERE attachment_id = ? AND message_id = ?', attachmentId, messageId);
}

/** Deletes the file, its bytes and its claims (ON DELETE CASCADE). */
export function deleteAttachmentRow(s: Store, id: number): void {
  s.run('DELETE FROM attachment WHERE id = ?', id);
}

/** Zulip's upload_space_used: the bytes of every uploaded file. */
export function selectUploadSpaceUsed(s: Store): number {
  return s.get<{ used: number }>('SELECT coalesce(sum(size), 0) AS used FROM attachment')!.used;
}

export function selectUploadUrlKey(s: Store): Buffer | undefined {
  return s.get<{ key: Buffer }>('SELECT key FROM upload_url_key WHERE id = 1')?.key;
}

/** Keeps the key another process may have stored first. */
export function insertUploadUrlKey(s: Store, key: Buffer): void {
  s.run('INSERT INTO upload_url_key (id, key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING', key);
}
