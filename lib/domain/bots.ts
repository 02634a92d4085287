// Bots: GET /bots, POST /bots, PATCH /bots/{bot_id}, DELETE /bots/{bot_id}, POST
// /bots/{bot_id}/api_key/regenerate. Zulip's access_bot_by_id: the bot's owner or an administrator
// acts on a bot.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { selectBots, selectUserByEmail, selectUserById, type UserRow } from '../store/users.js';
import { gravatarUrl } from './avatars.js';
import { rotateApiKey } from './api_keys.js';
import type { CreatedBot } from './bot_dicts.js';
import { botDomain, getRealm } from './realm.js';
import { isAdmin, type Actor } from './roles.js';
import { changeBotService, checkInterfaceType, INTERFACES, OUTGOING_WEBHOOK_BOT } from './bot_services.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { deactivate } from './user_activation.js';
import { addUser, changeFullName, checkFullName, requireMemberOrAdmin } from './users.js';
import { checkBotCreationPolicy, checkMayOwnAnotherBot } from './bot_limits.js';

/** Zulip's access_bot_by_id. */
function accessBotById(ctx: Ctx, actor: Actor, botId: number): UserRow {
  const target = selectUserById(ctx.store, botId);
  if (!target || target.bot_type === null) throw badRequest('No such bot');
  if (!(isAdmin(actor) || target.bot_owner_id === actor.id)) throw badRequest('Insufficient permission');
  return target;
}

export interface NewBot {
  fullName: string;
  shortName: string;
  botType?: number | undefined;
  /** An outgoing webhook bot's service: where it POSTs (Zulip's default ''), in which format (default 1). */
  payloadUrl?: string | undefined;
  interfaceType?: number | undefined;
  /** The service's name (Zulip's default: the short name). */
  serviceName?: string | undefined;
}

/**
 * POST /bots: members and administrators (not guests, not bots) create a bot they own, as the
 * bot creation policy allows, up to the active bots a user may own (lib/domain/bot_limits.ts).
 */
export async function createBot(ctx: Ctx, actor: Actor, input: NewBot): Promise<CreatedBot> {
  requireMemberOrAdmin(actor);
  const shortName = input.shortName.trim().toLowerCase();
  if (!/^[a-z0-9_.-]+$/.test(shortName)) throw badRequest('Bad name or username');
  const botType = input.botType ?? 1;
  if (![1, 2, 3, 4].includes(botType)) throw badRequest('Invalid bot_type');
  const interfaceType = input.interfaceType ?? INTERFACES.generic;
  checkInterfaceType(interfaceType);
  const local = shortName.endsWith('-bot') ? shortName : `${shortName}-bot`;
  const email = `${local}@${botDomain(getRealm(ctx))}`;
  if (selectUserByEmail(ctx.store, email)) throw badRequest('Username already in use');
  const service =
    botType === OUTGOING_WEBHOOK_BOT ? { name: input.serviceName ?? input.shortName.trim(), baseUrl: input.payloadUrl ?? '', interface: interfaceType } : undefined;
  checkBotCreationPolicy(ctx, actor, botType);
  const created = await addUser(ctx, {
    email,
    fullName: input.fullName,
    botType,
    botOwnerId: actor.id,
    service,
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

export const ownBotsSchema = z.object({
  bots: z.array(
    z.object({
      username: z.string().describe("The bot's email"),
      full_name: z.string(),
      api_key: z.string(),
      avatar_url: z.string(),
      default_sending_stream: z.string().nullable(),
      default_events_register_stream: z.string().nullable(),
      default_all_public_streams: z.boolean(),
    }),
  ),
});

/** GET /bots: the caller's active bots, oldest first (Zulip's get_bots_backend; no services, as Zulip). */
export function listOwnBots(ctx: Ctx, actor: Actor): z.infer<typeof ownBotsSchema> {
  requireMemberOrAdmin(actor);
  const own = selectBots(ctx.store)
    .filter((row) => row.bot_owner_id === actor.id && row.is_active === 1)
    .sort((a, b) => a.date_joined - b.date_joined || a.id - b.id);
  return {
    bots: own.map((row) => ({
      username: row.email,
      full_name: row.full_name,
      api_key: row.api_key,
      avatar_url: gravatarUrl(row.email),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    })),
  };
}

export const updatedBotSchema = z.object({
  full_name: z.string(),
  avatar_url: z.string(),
  service_interface: z.int().describe('The interface the request named (1 when it named none), as Zulip answers'),
  service_payload_url: z.string().nullable().describe('The URL the request named, or null'),
  config_data: z.null(),
  default_sending_stream: z.string().nullable(),
  default_events_register_stream: z.string().nullable(),
  default_all_public_streams: z.boolean(),
  bot_owner: z.string().optional().describe("The owner's email; absent for a bot without an owner"),
});

export interface BotChange {
  botId: number;
  fullName?: string | undefined;
  servicePayloadUrl?: string | undefined;
  serviceInterface?: number | undefined;
}

/**
 * PATCH /bots/{bot_id}: the bot's name and its outgoing webhook service (Zulip's patch_bot_backend;
 * parley's bots have no role, owner, default channel or configuration to change here).
 */
export function updateBot(ctx: Ctx, actor: Actor, input: BotChange): z.infer<typeof updatedBotSchema> {
  requireMemberOrAdmin(actor);
  return ctx.tx(() => {
    const bot = accessBotById(ctx, actor, input.botId);
    if (input.fullName !== undefined) changeFullName(ctx, bot, checkFullName(input.fullName));
    changeBotService(ctx, bot, { baseUrl: input.servicePayloadUrl, interface: input.serviceInterface });
    const row = selectUserById(ctx.store, bot.id)!;
    const owner = row.bot_owner_id === null ? undefined : selectUserById(ctx.store, row.bot_owner_id);
    return {
      full_name: row.full_name,
      avatar_url: gravatarUrl(row.email),
      service_interface: input.serviceInterface ?? INTERFACES.generic,
      service_payload_url: input.servicePayloadUrl ?? null,
      config_data: null,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      ...(owner ? { bot_owner: apiEmail(fakeEmailDomain(ctx), owner) } : {}),
    };
  });
}
