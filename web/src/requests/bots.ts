// The requests about one's bots (https://zulip.com/help/add-a-bot-or-integration): create,
// regenerate a key, deactivate. The list itself comes from realm_bots and its events.
import type { Api } from '../api.js';
import type { CreatedBot } from '../types.js';

/** Zulip's bot types: a generic bot, and an incoming webhook bot (it can only post through integrations). */
export const GENERIC_BOT = 1;
export const INCOMING_WEBHOOK_BOT = 2;

export class BotRequests {
  constructor(private readonly api: Api) {}

  create(fullName: string, shortName: string, botType: number): Promise<CreatedBot> {
    return this.api.post<CreatedBot>('bots', { full_name: fullName, short_name: shortName, bot_type: botType });
  }

  /** A new key: the bot's old one (and every URL holding it) stops working at once. */
  regenerateKey(botId: number): Promise<unknown> {
    return this.api.post(`bots/${botId}/api_key/regenerate`);
  }

  deactivate(botId: number): Promise<unknown> {
    return this.api.delete(`bots/${botId}`);
  }
}
