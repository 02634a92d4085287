// SQL for messages, direct-message conversations (direct_group) and what rendering reads:
// groups for mentions (users: lib/domain/user_list.ts), topic participants, alert words.
import type { Store } from './db.js';
import { NEXT_MESSAGE_ID_SQL, periodFlagsSql } from './subscription_periods.js';

export interface MessageRow {
  id: number;
  sender_id: number;
  stream_id: number | null;
  direct_group_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  topic_links: string;
  date_sent: number;
  last_edit_time: number | null;
  sending_client: string;
  has_link: number;
  has_image: number;
  has_attachment: number;
  /** 1: sent to a big channel, its subscribers have it by their subscription periods (schema.sql). */
  by_period: number;
}

export function selectMessageById(s: Store, id: number): MessageRow | undefined {
  return s.get<MessageRow>('SELECT * FROM message WHERE id = ?', id);
}

/** A new message, with the next id: above every id ever handed out (schema.sql message_sequence). */
export function insertMessage(s: Store, m: Omit<MessageRow, 'id' | 'last_edit_time'>): number {
  const result = s.run(
    `INSERT INTO message (id, sender_id, stream_id, direct_group_id, topic, content, rendered_content, topic_links, date_sent, sending_client,
       has_link, has_image, has_attachment, by_period)
     VALUES (${NEXT_MESSAGE_ID_SQL}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    m.sender_id,
    m.stream_id,
    m.direct_group_id,
    m.topic,
    m.content,
    m.rendered_content,
    m.topic_links,
    m.date_sent,
    m.sending_client,
    m.has_link,
    m.has_image,
    m.has_attachment,
    m.by_period,
  );
  return Number(result.lastInsertRowid);
}

/** The columns a render sets: the HTML and what it contains. */
export type RenderedColumns = Pick<MessageRow, 'rendered_content' | 'has_link' | 'has_image' | 'has_attachment'>;

export function updateMessageContent(s: Store, id: number, content: string, rendered: RenderedColumns, editTime: number): void {
  s.run(
    'UPDATE message SET content = ?, rendered_content = ?, has_link = ?, has_image = ?, has_attachment = ?, last_edit_time = ? WHERE id = ?',
    content,
    rendered.rendered_content,
    rendered.has_link,
    rendered.has_image,
    rendered.has_attachment,
    editTime,
    id,
  );
}

/** Deletes a message; its reactions and edit history go with it (ON DELETE CASCADE). */
export function deleteMessageRow(s: Store, id: number): void {
  s.run('DELETE FROM message WHERE id = ?', id);
}

/** A channel's oldest message (message_by_stream), or null when it has none. */
export function selectFirstStreamMessageId(s: Store, streamId: number): number | null {
  return (s.prepare('SELECT min(id) FROM message WHERE stream_id = ?').pluck().get(streamId) as number | null) ?? null;
}

export function updateMessageTopic(s: Store, id: number, topic: string, topicLinks: string): void {
  s.run('UPDATE message SET topic = ?, topic_links = ? WHERE id = ?', topic, topicLinks, id);
}

/** Ids of a channel topic's messages (case-insensitively, as Zulip compares topics), from `fromId` on. */
export function selectTopicMessageIds(s: Store, streamId: number, topic: string, fromId: number): number[] {
  return s
    .prepare('SELECT id FROM message WHERE stream_id = ? AND topic = ? COLLATE NOCASE AND id >= ? ORDER BY id')
    .pluck()
    .all(streamId, topic, fromId) as number[];
}

/**
 * Up to `limit` ids of a topic's messages (case-insensitively) from `fromId` on, other than
 * `exceptId` and those already named exactly `newTopic`: the next batch of a topic move.
 */
export function selectTopicMessageIdsToMove(
  s: Store,
  streamId: number,
  topic: string,
  newTopic: string,
  fromId: number,
  exceptId: number,
  limit: number,
): number[] {
  return s
    .prepare(
      `SELECT id FROM message WHERE stream_id = ? AND topic = ? COLLATE NOCASE AND topic <> ? COLLATE BINARY
       AND id >= ? AND id <> ? ORDER BY id LIMIT ?`,
    )
    .pluck()
    .all(streamId, topic, newTopic, fromId, exceptId, limit) as number[];
}

/** Zulip's topic participants: everyone who sent a message to the topic (parley has no reactions). */
export function selectTopicSenderIds(s: Store, streamId: number, topic: string): number[] {
  return s
    .prepare('SELECT DISTINCT sender_id FROM message WHERE stream_id = ? AND topic = ? COLLATE NOCASE')
    .pluck()
    .all(streamId, topic) as number[];
}

/**
 * [topic, newest id] of a channel's topics, newest first; with `userId`, only over the messages
 * that user received (protected history).
 */
export function selectTopicHistory(s: Store, streamId: number, userId: number | null): [string, number][] {
  if (userId === null) {
    return s.prepare('SELECT topic, max(id) AS max_id FROM message WHERE stream_id = ? GROUP BY topic ORDER BY max_id DESC').raw().all(streamId) as [string, number][];
  }
  return s
    .prepare(
      `SELECT m.topic, max(m.id) AS max_id FROM message m WHERE m.stream_id = ? AND (
         EXISTS (SELECT 1 FROM user_message um WHERE um.user_id = ? AND um.message_id = m.id) OR ${periodFlagsSql('?')} IS NOT NULL)
       GROUP BY m.topic ORDER BY max_id DESC`,
    )
    .raw()
    .all(streamId, userId, userId) as [string, number][];
}

// --- direct-message conversations -------------------------------------------------------------

export function selectDirectGroupId(s: Store, memberKey: string): number | undefined {
  return s.prepare('SELECT id FROM direct_group WHERE member_key = ?').pluck().get(memberKey) as number | undefined;
}

export function insertDirectGroup(s: Store, memberKey: string, memberIds: readonly number[]): number {
  const id = Number(s.run('INSERT INTO direct_group (member_key) VALUES (?)', memberKey).lastInsertRowid);
  for (const userId of memberIds) s.run('INSERT INTO direct_group_member (direct_group_id, user_id) VALUES (?, ?)', id, userId);
  return id;
}

export function selectDirectGroupMemberIds(s: Store, directGroupId: number): number[] {
  return s
    .prepare('SELECT user_id FROM direct_group_member WHERE direct_group_id = ? ORDER BY user_id')
    .pluck()
    .all(directGroupId) as number[];
}

// --- what rendering reads ---------------------------------------------------------------------

/** The groups a mention may name: not the system groups (Zulip's can_mention_group for them is role:nobody). */
export function selectGroupNames(s: Store): { id: number; name: string }[] {
  return s.all<{ id: number; name: string }>("SELECT id, name FROM user_group WHERE name NOT LIKE 'role:%' ORDER BY id");
}

export function selectGroupMemberIds(s: Store, groupId: number): number[] {
  return s.prepare('SELECT user_id FROM user_group_member WHERE group_id = ? ORDER BY user_id').pluck().all(groupId) as number[];
}

/** Every user's alert words (rows of [user_id, word]); empty for most organizations. */
export function selectAlertWordPairs(s: Store): [number, string][] {
  return s.prepare('SELECT user_id, word FROM alert_word').raw().all() as [number, string][];
}

export interface SenderRow {
  id: number;
  email: string;
  full_name: string;
  email_address_visibility: number;
}

export function selectSenderRow(s: Store, id: number): SenderRow | undefined {
  return s.get<SenderRow>('SELECT id, email, full_name, email_address_visibility FROM user WHERE id = ?', id);
}
