// Presence in POST /register (Zulip's `presence` fetch type) and the presence timings clients
// read from the `realm` state. parley records no presence yet: `presences` is empty (in both the
// slim, user-id-keyed format and the legacy email-keyed one) and the organization reports
// presence as disabled; this file is what a presence store replaces.
import type { Ctx } from '../context.js';
import type { StateOptions } from '../events/state.js';
import type { Actor } from './roles.js';

/** Zulip's PRESENCE_PING_INTERVAL_SECS and OFFLINE_THRESHOLD_SECS. */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECONDS = 140;

/** Whether parley records presence (realm_presence_disabled is its negation). */
export const PRESENCE_RECORDED = false;

export function fetchPresenceState(ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return {
    presences: {},
    // Zulip's value before any presence update was fetched.
    presence_last_update_id: -1,
    server_timestamp: ctx.clock() / 1000,
  };
}
