// SQL for channels (stream), subscriptions and former subscriptions.
import type { Store } from './db.js';

export interface StreamRow {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: number;
  history_public_to_subscribers: number;
  is_archived: number;
  date_created: number;
  creator_id: number | null;
  first_message_id: number | null;
}

export interface SubscriptionRow {
  user_id: number;
  stream_id: number;
  color: string;
  is_muted: number;
  pin_to_top: number;
  date_subscribed: number;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

/** The subscription columns POST /users/me/subscriptions/properties writes. */
export type SubscriptionColumn =
  | 'color'
  | 'is_muted'
  | 'pin_to_top'
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify';

const UPDATE_SUBSCRIPTION: Record<SubscriptionColumn, string> = {
  color: 'UPDATE subscription SET color = ? WHERE user_id = ? AND stream_id = ?',
  is_muted: 'UPDATE subscription SET is_muted = ? WHERE user_id = ? AND stream_id = ?',
  pin_to_top: 'UPDATE subscription SET pin_to_top = ? WHERE user_id = ? AND stream_id = ?',
  desktop_notifications: 'UPDATE subscription SET desktop_notifications = ? WHERE user_id = ? AND stream_id = ?',
  audible_notifications: 'UPDATE subscription SET audible_notifications = ? WHERE user_id = ? AND stream_id = ?',
  push_notifications: 'UPDATE subscription SET push_notifications = ? WHERE user_id = ? AND stream_id = ?',
  email_notifications: 'UPDATE subscription SET email_notifications = ? WHERE user_id = ? AND stream_id = ?',
  wildcard_mentions_notify: 'UPDATE subscription SET wildcard_mentions_notify = ? WHERE user_id = ? AND stream_id = ?',
};

export function updateSubscriptionColumn(s: Store, userId: number, streamId: number, column: SubscriptionColumn, value: string | number | null): void {
  s.run(UPDATE_SUBSCRIPTION[column], value, userId, streamId);
}

export function updateStreamName(s: Store, streamId: number, name: string): void {
  s.run('UPDATE stream SET name = ? WHERE id = ?', name, streamId);
}

export function updateStreamDescription(s: Store, streamId: number, description: string, rendered: string): void {
  s.run('UPDATE stream SET description = ?, rendered_description = ? WHERE id = ?', description, rendered, streamId);
}

export function updateStreamPrivacy(s: Store, streamId: number, inviteOnly: number, historyPublic: number): void {
  s.run('UPDATE stream SET invite_only = ?, history_public_to_subscribers = ? WHERE id = ?', inviteOnly, historyPublic, streamId);
}

/** Archiving keeps the channel, its messages and its subscriptions (Zulip's deactivated channels). */
export function archiveStream(s: Store, streamId: number): void {
  s.run('UPDATE stream SET is_archived = 1 WHERE id = ?', streamId);
}

export function selectDefaultStreamIds(s: Store): number[] {
  return s.prepare('SELECT stream_id FROM default_stream ORDER BY stream_id').pluck().all() as number[];
}

export function insertDefaultStream(s: Store, streamId: number): void {
  s.run('INSERT OR IGNORE INTO default_stream (stream_id) VALUES (?)', streamId);
}

export function deleteDefaultStream(s: Store, streamId: number): void {
  s.run('DELETE FROM default_stream WHERE stream_id = ?', streamId);
}

export function selectStreamById(s: Store, id: number): StreamRow | undefined {
  return s.get<StreamRow>('SELECT * FROM stream WHERE id = ?', id);
}

/** Case-insensitive (the name column is COLLATE NOCASE). */
export function selectStreamByName(s: Store, name: string): StreamRow | undefined {
  return s.get<StreamRow>('SELECT * FROM stream WHERE name = ?', name);
}

export function selectStreams(s: Store): StreamRow[] {
  return s.all<StreamRow>('SELECT * FROM stream ORDER BY id');
}

export function insertStream(
  s: Store,
  row: Pick<StreamRow, 'name' | 'description' | 'rendered_description' | 'invite_only' | 'history_public_to_subscribers' | 'date_created' | 'creator_id'>,
): number {
  const result = s.run(
    `INSERT INTO stream (name, description, rendered_description, invite_only, history_public_to_subscribers, date_created, creator_id)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    row.name,
    row.description,
    row.rendered_description,
    row.invite_only,
    row.history_public_to_subscribers,
    row.date_created,
    row.creator_id,
  );
  return Number(result.lastInsertRowid);
}

export function updateStreamFirstMessageId(s: Store, streamId: number, messageId: number): void {
  s.run('UPDATE stream SET first_message_id = ? WHERE id = ? AND first_message_id IS NULL', messageId, streamId);
}

/** After the channel's first message was deleted: its oldest remaining one, or null. */
export function replaceStreamFirstMessageId(s: Store, streamId: number, messageId: number | null): void {
  s.run('UPDATE stream SET first_message_id = ? WHERE id = ?', messageId, streamId);
}

export function selectSubscription(s: Store, userId: number, streamId: number): SubscriptionRow | undefined {
  return s.get<SubscriptionRow>('SELECT * FROM subscription WHERE user_id = ? AND stream_id = ?', userId, streamId);
}

export function selectSubscriptionsOfUser(s: Store, userId: number): SubscriptionRow[] {
  return s.all<SubscriptionRow>('SELECT * FROM subscription WHERE user_id = ?', userId);
}

export function selectSubscribedStreamIds(s: Store, userId: number): number[] {
  return s.prepare('SELECT stream_id FROM subscription WHERE user_id = ?').pluck().all(userId) as number[];
}

/** Active subscribers, in id order: the recipients of a channel message. */
export function selectActiveSubscriberIds(s: Store, streamId: number): number[] {
  return s
    .prepare(
      `SELECT s.user_id FROM subscription s JOIN user u ON u.id = s.user_id
       WHERE s.stream_id = ? AND u.is_active = 1 ORDER BY s.user_id`,
    )
    .pluck()
    .all(streamId) as number[];
}

/** Whether a channel has any active subscriber (an incoming webhook tells the bot's owner when not). */
export function selectHasActiveSubscriber(s: Store, streamId: number): boolean {
  return (
    s.prepare('SELECT 1 FROM subscription s JOIN user u ON u.id = s.user_id WHERE s.stream_id = ? AND u.is_active = 1 LIMIT 1').pluck().get(streamId) !== undefined
  );
}

export function selectIsSubscribed(s: Store, userId: number, streamId: number): boolean {
  return s.prepare('SELECT 1 FROM subscription WHERE user_id = ? AND stream_id = ?').pluck().get(userId, streamId) !== undefined;
}

/**
 * Every channel's active subscribers, in id order (include_subscribers of POST /register): one
 * read of the covering index subscription_by_stream, the few deactivated users left out after.
 */
export function selectActiveSubscriberIdsByStream(s: Store): Map<number, number[]> {
  const inactive = new Set(s.prepare('SELECT id FROM user WHERE is_active = 0').pluck().all() as number[]);
  const rows = s.prepare('SELECT stream_id, user_id FROM subscription ORDER BY stream_id, user_id').raw().all() as [number, number][];
  const byStream = new Map<number, number[]>();
  for (const [streamId, userId] of rows) {
    if (inactive.has(userId)) continue;
    const list = byStream.get(streamId);
    if (list) list.push(userId);
    else byStream.set(streamId, [userId]);
  }
  return byStream;
}

/** Active subscriber counts of every channel that has any. */
export function selectSubscriberCounts(s: Store): Map<number, number> {
  const rows = s
    .prepare(
      `SELECT s.stream_id, count(*) FROM subscription s JOIN user u ON u.id = s.user_id
       WHERE u.is_active = 1 GROUP BY s.stream_id`,
    )
    .raw()
    .all() as [number, number][];
  return new Map(rows);
}

export function selectSubscriberCount(s: Store, streamId: number): number {
  return s
    .prepare('SELECT count(*) FROM subscription s JOIN user u ON u.id = s.user_id WHERE s.stream_id = ? AND u.is_active = 1')
    .pluck()
    .get(streamId) as number;
}

/** `wasSubscribed`: the user has a former_subscription row for the channel, which goes. */
export function insertSubscription(s: Store, userId: number, streamId: number, now: number, wasSubscribed: boolean): void {
  s.run('INSERT INTO subscription (user_id, stream_id, date_subscribed) VALUES (?, ?, ?)', userId, streamId, now);
  if (wasSubscribed) s.run('DELETE FROM former_subscription WHERE user_id = ? AND stream_id = ?', userId, streamId);
}

export function deleteSubscription(s: Store, userId: number, streamId: number): void {
  s.run('DELETE FROM subscription WHERE user_id = ? AND stream_id = ?', userId, streamId);
  s.run('INSERT OR IGNORE INTO former_subscription (user_id, stream_id) VALUES (?, ?)', userId, streamId);
}

export function selectFormerSubscriptionStreamIds(s: Store, userId: number): number[] {
  return s.prepare('SELECT stream_id FROM former_subscription WHERE user_id = ?').pluck().all(userId) as number[];
}

/** Active users of the given roles or better (role <= maxRole), e.g. administrators for private channels. */
export function selectActiveUserIdsWithRoleAtMost(s: Store, maxRole: number): number[] {
  return s.prepare('SELECT id FROM user WHERE is_active = 1 AND role <= ? ORDER BY id').pluck().all(maxRole) as number[];
}
