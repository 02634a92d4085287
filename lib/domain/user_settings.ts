// The user_settings part of POST /register (Zulip's `user_settings` object): the personal settings
// parley stores. The user_settings update event is sent where a setting changes (user_status.ts: away).
import type { Ctx } from '../context.js';
import type { StateOptions } from '../events/state.js';
import { selectUserById } from '../store/users.js';
import type { Actor } from './roles.js';

export function fetchUserSettingsState(ctx: Ctx, actor: Actor, _options: StateOptions): Record<string, unknown> {
  const row = selectUserById(ctx.store, actor.id)!;
  return {
    user_settings: {
      presence_enabled: row.presence_enabled === 1,
      enable_drafts_synchronization: row.enable_drafts_synchronization === 1,
      timezone: row.timezone,
    },
  };
}
