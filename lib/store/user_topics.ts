// SQL for the user_topic table (Zulip's UserTopic): visibility policies of topics per user.
import type { Store } from './db.js';

export interface UserTopicRow {
  user_id: number;
  stream_id: number;
  topic: string;
  visibility_policy: number;
  last_updated: number;
}

export function selectUserTopicsOfUser(s: Store, userId: number): UserTopicRow[] {
  return s.all<UserTopicRow>('SELECT * FROM user_topic WHERE user_id = ? ORDER BY stream_id, topic', userId);
}

export function selectUserTopic(s: Store, userId: number, streamId: number, topic: string): UserTopicRow | undefined {
  return s.get<UserTopicRow>('SELECT * FROM user_topic WHERE user_id = ? AND stream_id = ? AND topic = ?', userId, streamId, topic);
}

export function insertUserTopic(s: Store, row: UserTopicRow): void {
  s.run(
    'INSERT INTO user_topic (user_id, stream_id, topic, visibility_policy, last_updated) VALUES (?, ?, ?, ?, ?)',
    row.user_id,
    row.stream_id,
    row.topic,
    row.visibility_policy,
    row.last_updated,
  );
}

export function updateUserTopicPolicy(s: Store, userId: number, streamId: number, topic: string, policy: number, lastUpdated: number): void {
  s.run('UPDATE user_topic SET visibility_policy = ?, last_updated = ? WHERE user_id = ? AND stream_id = ? AND topic = ?', policy, lastUpdated, userId, streamId, topic);
}

export function deleteUserTopic(s: Store, userId: number, streamId: number, topic: string): void {
  s.run('DELETE FROM user_topic WHERE user_id = ? AND stream_id = ? AND topic = ?', userId, streamId, topic);
}
