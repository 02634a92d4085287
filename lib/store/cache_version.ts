// SQL for the cache_version table: the version of what each process keeps in memory of some
// tables' rows (ctx.cached), changed by the triggers of schema.sql on every write to them.
import type { Store } from './db.js';

/**
 * What is kept: the callers' user rows, the alert-word matcher, the compiled linkifiers, users'
 * notification settings, who has a push device, which users are bots, who has a browser to notify.
 */
export type CacheName = 'user' | 'alert_word' | 'linkifier' | 'user_setting' | 'device' | 'bot' | 'web_push';

/** 0 before the first write to the name's tables. */
export function selectCacheVersion(s: Store, name: CacheName): number {
  return (s.prepare('SELECT version FROM cache_version WHERE name = ?').pluck().get(name) as number | undefined) ?? 0;
}
