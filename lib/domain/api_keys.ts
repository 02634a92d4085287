// API key regeneration: POST /users/me/api_key/regenerate (POST /bots/{bot_id}/api_key/regenerate
// is in bots.ts). Zulip's do_regenerate_api_key: the old key stops working at once (the user row
// changes, so remembered callers are read again); a bot's owners get a realm_bot update.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { selectUserById, updateUserApiKey } from '../store/users.js';
import { emit } from './event_types.js';
import { botOwnerUserIds } from './bot_dicts.js';
import { generateApiKey } from './credentials.js';
import type { Actor } from './roles.js';

/** POST /users/me/api_key/regenerate (humans: the route is Zulip's @human_users_only). */
export function regenerateOwnApiKey(ctx: Ctx, actor: Actor): { api_key: string } {
  return { api_key: rotateApiKey(ctx, actor.id) };
}

/** A new key for a user or bot, without a permission check (also the CLI and chat.admin). */
export function rotateApiKey(ctx: Ctx, userId: number): string {
  return ctx.tx(() => {
    const row = selectUserById(ctx.store, userId);
    if (!row) throw badRequest('No such user');
    const apiKey = generateApiKey(ctx.random);
    updateUserApiKey(ctx.store, row.id, apiKey);
    if (row.bot_type !== null) {
      emit(ctx, botOwnerUserIds(ctx, row), { type: 'realm_bot', op: 'update', bot: { user_id: row.id, api_key: apiKey } });
    }
    return apiKey;
  });
}
