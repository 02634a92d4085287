// Zulip's bot dictionary (realm_bots of POST /register, realm_bot add events) and who receives
// realm_bot events: the bot's owner and the organization's human administrators.
import type { Ctx } from '../context.js';
import { gravatarUrl } from './avatars.js';
import { selectBots, selectHumanAdminIds, type UserRow } from '../store/users.js';
import type { Actor } from './roles.js';
import { isAdmin } from './roles.js';

/** Zulip's get_owned_bot_dicts entry; parley has no default channels, uploaded avatars or services. */
export interface BotDict {
  email: string;
  user_id: number;
  full_name: string;
  bot_type: number;
  is_active: boolean;
  api_key: string;
  default_sending_stream: null;
  default_events_register_stream: null;
  default_all_public_streams: boolean;
  owner_id: number | null;
  avatar_url: string;
  services: never[];
}

export function formatBot(row: UserRow): BotDict {
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
    services: [],
  };
}

/** Zulip's bot_owner_user_ids for a bot without private default channels. */
export function botOwnerUserIds(ctx: Ctx, bot: UserRow): number[] {
  const ids = new Set(selectHumanAdminIds(ctx.store));
  if (bot.bot_owner_id !== null) ids.add(bot.bot_owner_id);
  return [...ids];
}

/** Zulip's realm_bots: every bot for a human administrator, one's own bots (active or not) for anyone else. */
export function fetchRealmBotState(ctx: Ctx, actor: Actor): { realm_bots: BotDict[] } {
  const seesAll = isAdmin(actor) && !actor.isBot;
  return { realm_bots: selectBots(ctx.store).filter((row) => seesAll || row.bot_owner_id === actor.id).map(formatBot) };
}
