// Personal message flags (issue 6).
import type { Ctx } from '../context.js';
import type { StateOptions } from '../events/state.js';
import type { Actor } from './roles.js';

/** POST /register state for this feature. */
export function fetchUnreadState(_ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return {};
}
