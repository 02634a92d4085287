// SQL for the message_edit table: the edit history of messages (lib/domain/message_history.ts).
import type { Store } from './db.js';

export interface MessageEditRow {
  message_id: number;
  user_id: number;
  timestamp: number;
  prev_content: string | null;
  prev_rendered_content: string | null;
  prev_topic: string | null;
  topic: string | null;
}

const COLUMNS = 'message_id, user_id, timestamp, prev_content, prev_rendered_content, prev_topic, topic';

export function insertMessageEdit(s: Store, row: MessageEditRow): void {
  s.run(
    `INSERT INTO message_edit (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    row.message_id,
    row.user_id,
    row.timestamp,
    row.prev_content,
    row.prev_rendered_content,
    row.prev_topic,
    row.topic,
  );
}

/** A message's edits, newest first (message_edit_by_message). */
export function selectMessageEdits(s: Store, messageId: number): MessageEditRow[] {
  return s.all<MessageEditRow>(`SELECT ${COLUMNS} FROM message_edit WHERE message_id = ? ORDER BY id DESC`, messageId);
}

/** The edits of many messages in one statement, newest first. */
export function selectMessageEditsOf(s: Store, messageIds: readonly number[]): MessageEditRow[] {
  return s.all<MessageEditRow>(
    `SELECT ${COLUMNS} FROM message_edit WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY id DESC`,
    JSON.stringify(messageIds),
  );
}
