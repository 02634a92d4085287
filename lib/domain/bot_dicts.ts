// Zulip's bot dictionary (realm_bots of POST /register, the realm_bot events, POST /bots' answer)
// and who receives realm_bot events: the bot's owner and the organization's human administrators.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { gravatarUrl } from './avatars.js';
import { selectAllBotServices, selectBotServices, type BotServiceRow } from '../store/bot_services.js';
import { selectBots, selectHumanAdminIds, type UserRow } from '../store/users.js';
import type { Actor } from './roles.js';
import { isAdmin } from './roles.js';

/** Zulip's UserProfile.OUTGOING_WEBHOOK_BOT. */
export const OUTGOING_WEBHOOK_BOT = 3;

export const outgoingServiceSchema = z.object({
  base_url: z.string().describe("Where the bot's triggering messages are POSTed"),
  interface: z.int().describe("1: Zulip's format; 2: Slack's outgoing webhook format"),
  token: z.string().describe("Sent with every request, for the bot's server to check"),
});

/** Zulip's get_owned_bot_dicts entry; parley has no default channels or uploaded avatars. */
const botDictSchema = z.object({
  email: z.string(),
  user_id: z.int(),
  full_name: z.string(),
  bot_type: z.int(),
  is_active: z.boolean(),
  api_key: z.string(),
  default_sending_stream: z.string().nullable(),
  default_events_register_stream: z.string().nullable(),
  default_all_public_streams: z.boolean(),
  owner_id: z.int().nullable(),
  avatar_url: z.string(),
  services: z.array(outgoingServiceSchema).describe("An outgoing webhook bot's one service; [] for other bots (parley's embedded bots have no configuration)"),
});
type BotDict = z.infer<typeof botDictSchema>;

/** POST /bots: the new bot (Zulip's add_bot_backend answer). */
export const createdBotSchema = z.object({
  user_id: z.int(),
  api_key: z.string(),
  email: z.string(),
  avatar_url: z.string().nullable(),
  default_sending_stream: z.string().nullable(),
  default_events_register_stream: z.string().nullable(),
  default_all_public_streams: z.boolean(),
});
export type CreatedBot = z.infer<typeof createdBotSchema>;

export const realmBotStateSchema = z.object({ realm_bots: z.array(botDictSchema) });
type RealmBotState = z.infer<typeof realmBotStateSchema>;

/** The `bot` of a realm_bot update: the bot's id and the one thing that changed. */
const botUpdateSchema = z.union([
  z.object({ user_id: z.int(), full_name: z.string() }),
  z.object({ user_id: z.int(), is_active: z.boolean() }),
  z.object({ user_id: z.int(), api_key: z.string() }),
  z.object({ user_id: z.int(), owner_id: z.int() }),
  z.object({ user_id: z.int(), services: z.array(outgoingServiceSchema) }),
]);

export const botEventSchemas = [
  z.object({ type: z.literal('realm_bot'), op: z.literal('add'), bot: botDictSchema }),
  z.object({ type: z.literal('realm_bot'), op: z.literal('update'), bot: botUpdateSchema }),
  z.object({ type: z.literal('realm_bot'), op: z.literal('delete'), bot: z.object({ user_id: z.int() }) }),
] as const;

/** Zulip's get_service_dicts_for_bot: an outgoing webhook bot's services. */
function serviceDicts(row: UserRow, services: readonly BotServiceRow[]): BotDict['services'] {
  if (row.bot_type !== OUTGOING_WEBHOOK_BOT) return [];
  return services.map((service) => ({ base_url: service.base_url, interface: service.interface, token: service.token }));
}

/** A bot's dictionary with its services read. */
export function botDict(ctx: Ctx, row: UserRow): BotDict {
  return formatBot(row, selectBotServices(ctx.store, row.id));
}

function formatBot(row: UserRow, services: readonly BotServiceRow[]): BotDict {
  return {
    email: row.email,
    user_id: row.id,
    full_name: row.full_name,
    bot_type: row.bot_type!,
    is_active: row.is_active === 1,
    api_key: row.api_key,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    owner_id: row.bot_owner_id,
    avatar_url: gravatarUrl(row.email),
    services: serviceDicts(row, services),
  };
}

/** Zulip's bot_owner_user_ids for a bot without private default channels. */
export function botOwnerUserIds(ctx: Ctx, bot: UserRow): number[] {
  const ids = new Set(selectHumanAdminIds(ctx.store));
  if (bot.bot_owner_id !== null) ids.add(bot.bot_owner_id);
  return [...ids];
}

/** Zulip's realm_bots: every bot for a human administrator, one's own bots (active or not) for anyone else. */
export function fetchRealmBotState(ctx: Ctx, actor: Actor): RealmBotState {
  const seesAll = isAdmin(actor) && !actor.isBot;
  const services = selectAllBotServices(ctx.store);
  const rows = selectBots(ctx.store).filter((row) => seesAll || row.bot_owner_id === actor.id);
  return { realm_bots: rows.map((row) => formatBot(row, services.get(row.id) ?? [])) };
}
