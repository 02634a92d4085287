// Which outgoing webhook (and embedded) bots a new message triggers, and how (Zulip's
// get_service_bot_events in zerver/actions/message_send.py): a channel message that mentions the
// bot triggers "mention"; a direct message the bot receives, "direct_message". Messages sent by
// bots trigger nothing, so bots cannot answer each other forever.

/** Zulip's UserProfile.OUTGOING_WEBHOOK_BOT and EMBEDDED_BOT. */
export const SERVICE_BOT_TYPES = { outgoingWebhook: 3, embedded: 4 } as const;

export type Trigger = 'mention' | 'direct_message';

export interface ServiceBot {
  id: number;
  botType: number;
}

export interface TriggerInput {
  senderIsBot: boolean;
  kind: 'stream' | 'private';
  /** Who receives the message (Zulip's active_user_ids: a direct message's participants, the sender included). */
  recipientIds: ReadonlySet<number>;
  /** Users the message mentions, members of mentioned groups included; silent and wildcard mentions not. */
  mentionedUserIds: ReadonlySet<number>;
  /** The active service bots among the recipients and the mentioned users, in Zulip's order (by id). */
  serviceBots: readonly ServiceBot[];
}

/** One triggered bot: its queue (Zulip's outgoing_webhooks or embedded_bots) and why. */
export interface ServiceBotEvent {
  botId: number;
  queue: 'outgoing_webhooks' | 'embedded_bots';
  trigger: Trigger;
}

export function serviceBotEvents(input: TriggerInput): ServiceBotEvent[] {
  if (input.senderIsBot) return [];
  const events: ServiceBotEvent[] = [];
  for (const bot of input.serviceBots) {
    const queue = bot.botType === SERVICE_BOT_TYPES.outgoingWebhook ? 'outgoing_webhooks' : bot.botType === SERVICE_BOT_TYPES.embedded ? 'embedded_bots' : null;
    if (queue === null) continue;
    // Mention syntax inside a code block is no mention: neither mentioned nor a recipient, no event.
    const mentioned = input.mentionedUserIds.has(bot.id);
    const receives = input.recipientIds.has(bot.id);
    if (input.kind === 'stream' && mentioned) events.push({ botId: bot.id, queue, trigger: 'mention' });
    else if (input.kind === 'private' && receives) events.push({ botId: bot.id, queue, trigger: 'direct_message' });
  }
  return events;
}
