// SQL for Web Push: the VAPID key pair (web_push_vapid_key) and browsers' push subscriptions
// (web_push_subscription).
import type { Store } from './db.js';

export interface VapidKeyRow {
  public_key: string;
  private_key: string;
}

export interface WebPushSubscriptionRow {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export function selectVapidKey(s: Store): VapidKeyRow | undefined {
  return s.get<VapidKeyRow>('SELECT public_key, private_key FROM web_push_vapid_key WHERE id = 1');
}

/** Keeps the pair another process may have stored first. */
export function insertVapidKey(s: Store, key: VapidKeyRow): void {
  s.run('INSERT INTO web_push_vapid_key (id, public_key, private_key) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING', key.public_key, key.private_key);
}

/** Adds the subscription, or gives its endpoint's row to this user with these keys. */
export function upsertWebPushSubscription(s: Store, row: Omit<WebPushSubscriptionRow, 'id'> & { created_at: number }): void {
  s.run(
    `INSERT INTO web_push_subscription (user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at`,
    row.user_id,
    row.endpoint,
    row.p256dh,
    row.auth,
    row.created_at,
  );
}

/** Deletes the user's oldest subscriptions beyond the newest `keep`. */
export function deleteOldestWebPushSubscriptions(s: Store, userId: number, keep: number): void {
  s.run(
    `DELETE FROM web_push_subscription WHERE user_id = ? AND id NOT IN
       (SELECT id FROM web_push_subscription WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`,
    userId,
    userId,
    keep,
  );
}

/** Deletes the user's subscription at this endpoint; false when there was none. */
export function deleteWebPushSubscription(s: Store, userId: number, endpoint: string): boolean {
  return s.run('DELETE FROM web_push_subscription WHERE user_id = ? AND endpoint = ?', userId, endpoint).changes > 0;
}

/** A subscription the push service said is gone (404, 410), unless it was registered again since it was read. */
export function deleteExpiredWebPushSubscription(s: Store, row: Pick<WebPushSubscriptionRow, 'id' | 'p256dh' | 'auth'>): void {
  s.run('DELETE FROM web_push_subscription WHERE id = ? AND p256dh = ? AND auth = ?', row.id, row.p256dh, row.auth);
}

export function selectWebPushSubscriptionsOf(s: Store, userId: number): WebPushSubscriptionRow[] {
  return s.all<WebPushSubscriptionRow>('SELECT id, user_id, endpoint, p256dh, auth FROM web_push_subscription WHERE user_id = ? ORDER BY id', userId);
}

export function selectUsersWithWebPush(s: Store): Set<number> {
  return new Set(s.prepare('SELECT DISTINCT user_id FROM web_push_subscription').pluck().all() as number[]);
}

/** The first owner's email: who push services may contact about this server when nothing else is configured. */
export function selectFirstOwnerEmail(s: Store): string | undefined {
  return s.prepare('SELECT email FROM user WHERE role = 100 AND is_active = 1 AND bot_type IS NULL ORDER BY id LIMIT 1').pluck().get() as string | undefined;
}
