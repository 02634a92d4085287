// SQL for the cache_version table: the version of what each process keeps in memory of some
// tables' rows (ctx.cached), changed by the triggers of schema.sql on every write to them.
import type { Store } from './db.js';

/**
* What is kept: the callers' user rows, the organization's user list (lib/domain/user_list.ts),
 * the alert-word matcher, the compiled linkifiers, users' notification settings, who has a push
 * device, which users are bots, who has a browser to notify.
 */
export type CacheName = 'user' | 'user_list' | 'alert_word' | 'linkifier' | 'user_setting' | 'device' | 'bot' | 'web_push';

/** The cache_version row each name follows: both kinds of user rows change with the user table. */
const VERSION_ROW: Record<CacheName, string> = {
  user: 'user',
  user_list: 'user',
  alert_word: 'alert_word',
  linkifier: 'linkifier',
  user_setting: 'user_setting',
  device: 'device',
  bot: 'bot',
  web_push: 'web_push',
};

/** 0 before the first write to the name's tables. */
export function selectCacheVersion(s: Store, name: CacheName): number {
  return (s.prepare('SELECT version FROM cache_version WHERE name = ?').pluck().get(VERSION_ROW[name]) as number | undefined) ?? 0;
}
