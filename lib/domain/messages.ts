// Messages: the max_message_id state of POST /register. Sending, fetching and editing live in
// message_send.ts, message_fetch.ts and message_edit.ts.
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import { selectUserMaxMessageId } from '../store/user_message.js';
import type { Actor } from './roles.js';

/** POST /register: the newest message the user received (Zulip), -1 without any. */
export function fetchMessageState(ctx: Ctx, actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { max_message_id: selectUserMaxMessageId(ctx.store, actor.id) };
}
