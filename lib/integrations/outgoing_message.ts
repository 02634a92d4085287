// The database's half of outgoing webhooks, for the delivery that will send them: which service
// bots a message may trigger, a bot's service, and the triggering message as Zulip sends it.
import type { Ctx } from '../context.js';
import { gravatarUrl } from '../domain/avatars.js';
import { messageDict, newDictCache } from '../domain/message_dicts.js';
import { getRealm } from '../domain/realm.js';
import { selectActiveServiceBots, selectBotServices } from '../store/bot_services.js';
import { selectMessageById, selectSenderRow } from '../store/messages.js';
import { selectUserById } from '../store/users.js';
import { SERVICE_BOT_TYPES, type ServiceBot } from './outgoing_triggers.js';
import { messageLinkUrl, outgoingMessageSchema, type NoticeContext, type OutgoingBot, type OutgoingMessage } from './outgoing_webhook.js';

/** serviceBotEvents' candidates: the active service bots among a message's recipients and mentioned users. */
export function serviceBotsAmong(ctx: Ctx, userIds: Iterable<number>): ServiceBot[] {
  return selectActiveServiceBots(ctx.store, [...new Set(userIds)]).map((row) => ({ id: row.id, botType: row.bot_type }));
}

/** An active outgoing webhook bot with its service: where and how to send, and what to sign with. */
export interface OutgoingService {
  bot: OutgoingBot;
  baseUrl: string;
  interface: number;
}

export function outgoingServices(ctx: Ctx, botId: number): OutgoingService[] {
  const row = selectUserById(ctx.store, botId);
  if (!row || row.is_active === 0 || row.bot_type !== SERVICE_BOT_TYPES.outgoingWebhook) return [];
  return selectBotServices(ctx.store, botId).map((service) => ({
    bot: { id: row.id, email: row.email, fullName: row.full_name, token: service.token },
    baseUrl: service.base_url,
    interface: service.interface,
  }));
}

/**
 * Zulip's MessageDict.finalize_payload as outgoing webhooks get it: Markdown content, the HTML kept
 * as rendered_content, the sender's avatar URL always given (client_gravatar off), no flags.
 */
export function outgoingMessage(ctx: Ctx, messageId: number): OutgoingMessage | undefined {
  const row = selectMessageById(ctx.store, messageId);
  if (!row) return undefined;
  const sender = selectSenderRow(ctx.store, row.sender_id);
  const dict = messageDict(ctx, newDictCache(), row, false);
  return outgoingMessageSchema.parse({ ...dict, rendered_content: row.rendered_content, avatar_url: gravatarUrl(sender?.email ?? '') });
}

/** The owner's notice's link to the message and the bot's name. */
export function noticeContext(ctx: Ctx, message: OutgoingMessage, bot: OutgoingBot): NoticeContext {
  return { messageUrl: messageLinkUrl(getRealm(ctx).url, message), botFullName: bot.fullName };
}
