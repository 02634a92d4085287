// The outgoing webhooks a new message triggers, written as deliveries in its send transaction
// (Zulip's get_service_bot_events and its outgoing_webhooks queue); outgoing_delivery.ts sends them.
import type { Ctx } from '../context.js';
import { enqueueDelivery, type DeliveryKindName } from '../deliveries/outbox.js';
import { botIds } from '../notifications/decide.js';
import { serviceBotsAmong } from './outgoing_message.js';
import { serviceBotEvents, type Trigger } from './outgoing_triggers.js';
import type { BotReply, Failure } from './outgoing_webhook.js';

/** What an attempt came to, for the delivery's hooks to post in the transaction that ends it. */
export type OutgoingResult = { reply: BotReply } | { failure: Failure };

/** One request to one bot's server about one message (Zulip's outgoing_webhooks queue event). */
export interface OutgoingPayload {
  message_id: number;
  bot_id: number;
  trigger: Trigger;
  result?: OutgoingResult;
}

/** The delivery kind's name: lib/integrations/outgoing_delivery.ts is the kind. */
export const OUTGOING_WEBHOOK: DeliveryKindName<OutgoingPayload> = { name: 'outgoing_webhook' };

/** A message just written, as its send transaction knows it. */
export interface TriggeringMessage {
  id: number;
  senderIsBot: boolean;
  kind: 'stream' | 'private';
  recipientIds: readonly number[];
  /** Users mentioned, members of mentioned groups included; silent and wildcard mentions not. */
  mentionedUserIds: ReadonlySet<number>;
}

/**
 * Writes a delivery per outgoing webhook bot the message triggers (call in the send transaction).
 * Only mentioned users can be triggered by a channel message and only recipients by a direct
 * one: a send that reaches no bot reads nothing more than the cached set of bots.
 */
export function queueOutgoingWebhooks(ctx: Ctx, message: TriggeringMessage): void {
  const possible = message.kind === 'stream' ? [...message.mentionedUserIds] : message.recipientIds;
  if (message.senderIsBot || possible.length === 0) return;
  const bots = botIds(ctx);
  const candidates = possible.filter((id) => bots.has(id));
  if (candidates.length === 0) return;
  const events = serviceBotEvents({
    senderIsBot: message.senderIsBot,
    kind: message.kind,
    recipientIds: new Set(message.recipientIds),
    mentionedUserIds: message.mentionedUserIds,
    serviceBots: serviceBotsAmong(ctx, candidates),
  });
  for (const event of events) {
    if (event.queue !== 'outgoing_webhooks') continue;
    enqueueDelivery(ctx, OUTGOING_WEBHOOK, { message_id: message.id, bot_id: event.botId, trigger: event.trigger });
  }
}
