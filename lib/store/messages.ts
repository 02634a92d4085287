// SQL for messages, their recipients and the per-user flags (user_message).
import type { Store } from './db.js';

export function selectMaxMessageId(s: Store): number {
  return (s.prepare('SELECT coalesce(max(id), -1) FROM message').pluck().get() as number) ?? -1;
}
