// Channels and subscriptions (issue 3).
import type { Ctx } from '../context.js';
import type { StateOptions } from '../events/state.js';
import type { Actor } from './roles.js';

/** POST /register state for this feature. */
export function fetchSubscriptionState(_ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { subscriptions: [], unsubscribed: [], never_subscribed: [] };
}

export function fetchStreamState(_ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { streams: [] };
}
