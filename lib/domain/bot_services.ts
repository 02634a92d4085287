// Outgoing webhook bots' services (Zulip's Service): made with the bot by POST /bots (`payload_url`,
// `interface_type`), changed by PATCH /bots/{bot_id} (`service_payload_url`, `service_interface`),
// shown in realm_bots and realm_bot update events. The token is Zulip's: 32 random characters the
// bot's server checks each request by (so it is shown to the bot's owners and kept as it is).
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { insertBotService, selectBotServices, updateBotService, type BotServiceRow } from '../store/bot_services.js';
import type { UserRow } from '../store/users.js';
import { botOwnerUserIds } from './bot_dicts.js';
export { OUTGOING_WEBHOOK_BOT } from './bot_dicts.js';
import { generateApiKey } from './credentials.js';
import { emit } from './event_types.js';

/** Zulip's Service.GENERIC (its own request format) and Service.SLACK (Slack's outgoing webhooks). */
export const INTERFACES = { generic: 1, slack: 2 } as const;

/** Zulip's check_valid_interface_type. */
export function checkInterfaceType(value: number): void {
  if (value !== INTERFACES.generic && value !== INTERFACES.slack) throw badRequest('Invalid interface type');
}

export interface NewService {
  name: string;
  baseUrl: string;
  interface: number;
}

/** Zulip's add_service, in the transaction that creates the bot. */
export function addBotService(ctx: Ctx, botId: number, service: NewService): void {
  insertBotService(ctx.store, { bot_id: botId, name: service.name, base_url: service.baseUrl, token: generateApiKey(ctx.random), interface: service.interface });
}

/**
 * Zulip's do_update_outgoing_webhook_service: the fields given change; the bot's owners get a
 * realm_bot update with the service when one did.
 */
export function changeBotService(ctx: Ctx, bot: UserRow, change: { baseUrl?: string | undefined; interface?: number | undefined }): void {
  if (change.interface !== undefined) checkInterfaceType(change.interface);
  if (change.baseUrl === undefined && change.interface === undefined) return;
  const service: BotServiceRow | undefined = selectBotServices(ctx.store, bot.id)[0];
  if (!service) throw badRequest('This bot has no outgoing webhook service');
  const baseUrl = change.baseUrl ?? service.base_url;
  const iface = change.interface ?? service.interface;
  if (baseUrl === service.base_url && iface === service.interface) return;
  updateBotService(ctx.store, service.id, baseUrl, iface);
  emit(ctx, botOwnerUserIds(ctx, bot), {
    type: 'realm_bot',
    op: 'update',
    bot: { user_id: bot.id, services: [{ base_url: baseUrl, interface: iface, token: service.token }] },
  });
}
