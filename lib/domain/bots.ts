// Bots: POST /bots, DELETE /bots/{bot_id}, POST /bots/{bot_id}/api_key/regenerate. Zulip's
// access_bot_by_id: the bot's owner or an administrator acts on a bot.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { selectUserByEmail, selectUserById, type UserRow } from '../store/users.js';
import { rotateApiKey } from './api_keys.js';
import type { CreatedBot } from './bot_dicts.js';
import { botDomain, getRealm } from './realm.js';
import { isAdmin, type Actor } from './roles.js';
import { deactivate } from './user_activation.js';
import { addUser, requireMemberOrAdmin } from './users.js';
import { checkBotCreationPolicy, checkMayOwnAnotherBot } from './bot_limits.js';

/** Zulip's access_bot_by_id. */
function accessBotById(ctx: Ctx, actor: Actor, botId: number): UserRow {
  const target = selectUserById(ctx.store, botId);
  if (!target || target.bot_type === null) throw badRequest('No such bot');
  if (!(isAdmin(actor) || target.bot_owner_id === actor.id)) throw badRequest('Insufficient permission');
  return target;
}

/**
 * POST /bots: members and administrators (not guests, not bots) create a bot they own, as the
 * bot creation policy allows, up to the active bots a user may own (lib/domain/bot_limits.ts).
 */
export async function createBot(
  ctx: Ctx,
  actor: Actor,
  input: { fullName: string; shortName: string; botType?: number | undefined },
): Promise<CreatedBot> {
  requireMemberOrAdmin(actor);
  const shortName = input.shortName.trim().toLowerCase();
  if (!/^[a-z0-9_.-]+$/.test(shortName)) throw badRequest('Bad name or username');
  const botType = input.botType ?? 1;
  if (![1, 2, 3, 4].includes(botType)) throw badRequest('Invalid bot_type');
  const local = shortName.endsWith('-bot') ? shortName : `${shortName}-bot`;
  const email = `${local}@${botDomain(getRealm(ctx))}`;
  if (selectUserByEmail(ctx.store, email)) throw badRequest('Username already in use');
  checkBotCreationPolicy(ctx, actor, botType);
  const created = await addUser(ctx, {
    email,
    fullName: input.fullName,
    botType,
    botOwnerId: actor.id,
    checkInTransaction: () => checkMayOwnAnotherBot(ctx, actor.id),
  });
  return {
    user_id: created.user_id,
    api_key: created.api_key,
    email: created.email,
    avatar_url: null,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
  };
}

/** DELETE /bots/{bot_id}: nothing happens to a bot already deactivated (Zulip's do_deactivate_user). */
export function deactivateBot(ctx: Ctx, actor: Actor, input: { botId: number }): Record<string, never> {
  return ctx.tx(() => {
    deactivate(ctx, accessBotById(ctx, actor, input.botId).id);
    return {};
  });
}

/** POST /bots/{bot_id}/api_key/regenerate: Zulip's @require_member_or_admin, then access_bot_by_id. */
export function regenerateBotApiKey(ctx: Ctx, actor: Actor, input: { botId: number }): { api_key: string } {
  requireMemberOrAdmin(actor);
  return ctx.tx(() => ({ api_key: rotateApiKey(ctx, accessBotById(ctx, actor, input.botId).id) }));
}
