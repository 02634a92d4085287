// Custom emoji (issue 5).
import type { Ctx } from '../context.js';
import type { StateOptions } from '../events/state.js';
import type { Actor } from './roles.js';

/** POST /register state for this feature. */
export function fetchRealmEmojiState(_ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { realm_emoji: {} };
}
