// SQL for emoji reactions (the reaction table).
import type { Store } from './db.js';

export interface ReactionRow {
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

const COLUMNS = 'message_id, user_id, emoji_name, emoji_code, reaction_type';

/** A message's reactions, oldest first (Zulip orders them by id). */
export function selectReactionsOfMessage(s: Store, messageId: number): ReactionRow[] {
  return s.all<ReactionRow>(`SELECT ${COLUMNS} FROM reaction WHERE message_id = ? ORDER BY id`, messageId);
}

/** The reactions of many messages in one statement, oldest first. */
export function selectReactionsOfMessages(s: Store, messageIds: readonly number[]): ReactionRow[] {
  return s.all<ReactionRow>(
    `SELECT ${COLUMNS} FROM reaction WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    JSON.stringify(messageIds),
  );
}

/** The user's reaction with this emoji, if any. */
export function selectUserReaction(s: Store, messageId: number, userId: number, reactionType: string, emojiCode: string): ReactionRow | undefined {
  return s.get<ReactionRow>(
    `SELECT ${COLUMNS} FROM reaction WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?`,
    messageId,
    userId,
    reactionType,
    emojiCode,
  );
}

/** The name of the earliest reaction with this emoji on the message, if anyone reacted with it. */
export function selectReactionName(s: Store, messageId: number, reactionType: string, emojiCode: string): string | undefined {
  return s
    .prepare('SELECT emoji_name FROM reaction WHERE message_id = ? AND reaction_type = ? AND emoji_code = ? ORDER BY id LIMIT 1')
    .pluck()
    .get(messageId, reactionType, emojiCode) as string | undefined;
}

export function insertReaction(s: Store, r: ReactionRow): void {
  s.run(
    `INSERT INTO reaction (${COLUMNS}) VALUES (?, ?, ?, ?, ?)`,
    r.message_id,
    r.user_id,
    r.emoji_name,
    r.emoji_code,
    r.reaction_type,
  );
}

export function deleteReactionRow(s: Store, messageId: number, userId: number, reactionType: string, emojiCode: string): void {
  s.run('DELETE FROM reaction WHERE message_id = ? AND user_id = ? AND reaction_type = ? AND emoji_code = ?', messageId, userId, reactionType, emojiCode);
}
