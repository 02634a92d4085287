// Alert words (issue 8).
import type { Ctx } from '../context.js';
import type { StateOptions } from '../events/state.js';
import type { Actor } from './roles.js';

/** POST /register state for this feature. */
export function fetchAlertWordState(_ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { alert_words: [] };
}
