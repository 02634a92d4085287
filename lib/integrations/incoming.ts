// POST /api/v1/external/{integration}: an incoming webhook's messages posted as the calling bot
// (Zulip's webhook_view and check_send_webhook_message): into the `stream` parameter's channel (a
// name, or an id when all digits), or as a direct message to the bot's owner without one. A channel
// that does not exist posts nothing and tells the bot's owner (at most once per 5 minutes).
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { selectOwnerNoticeTime, upsertOwnerNoticeTime } from '../store/bot_services.js';
import { selectHasActiveSubscriber, type StreamRow } from '../store/streams.js';
import { selectUserById } from '../store/users.js';
import { addressedStream, checkTopic } from '../domain/message_addressee.js';
import { sendMessage } from '../domain/message_send.js';
import type { Actor } from '../domain/roles.js';
import { INTEGRATIONS } from './registry.js';
import { runIntegration, type Integration, type WebhookMessage, type WebhookRequest } from './webhook.js';

/** Zulip's BOT_OWNER_STREAM_ALERT_WAITPERIOD. */
const OWNER_NOTICE_SECONDS = 5 * 60;

/** A success: `{}`, or Slack's `{ok: true}` for the Slack-compatible integration. */
export const webhookAnswerSchema = z.object({ ok: z.literal(true).optional() });
export type WebhookAnswer = z.infer<typeof webhookAnswerSchema>;

/**
 * An error of the Slack-compatible integration, answered over HTTP as Slack does (Zulip's
 * slack_error_handler): `{"ok": false, "error": msg}` with the error's status.
 */
export class SlackWebhookError extends ApiError {
  override wireBody(): { ok: false; error: string } {
    return { ok: false, error: this.message };
  }
}

/** Zulip's INVALID_JSON_MESSAGE (zerver/lib/webhooks/common.py), told to the bot's owner. */
const invalidJsonNotice = (webhookName: string): string =>
  `Hi there! It looks like you tried to set up the Zulip ${webhookName} integration,\nbut didn't correctly configure the webhook to send data in the JSON format\nthat this integration expects!`;

/** Zulip's client name for a webhook's messages: ZulipGitHubWebhook. */
export const webhookClient = (integration: Integration): string => `Zulip${integration.webhookName}Webhook`;

/** Zulip's send_rate_limited_pm_notification_to_bot_owner (sent by the bot: parley has no notification bot). */
function noticeToOwner(ctx: Ctx, actor: Actor, content: string, client: string): void {
  if (!actor.isBot || actor.botOwnerId === null) return;
  const last = selectOwnerNoticeTime(ctx.store, actor.id);
  if (last !== undefined && ctx.now() - last <= OWNER_NOTICE_SECONDS) return;
  const owner = selectUserById(ctx.store, actor.botOwnerId);
  if (!owner || owner.is_active === 0) return;
  sendMessage(ctx, actor, { type: 'private', to: [owner.id], content }, client);
  upsertOwnerNoticeTime(ctx.store, actor.id, ctx.now());
}

/** The channel a message goes to; undefined (and a notice) for a channel name that does not exist. */
function channelFor(ctx: Ctx, actor: Actor, stream: string, topic: string, notices: string[]): StreamRow | undefined {
  const identity = `\`${actor.email}\``;
  const byId = /^[0-9]+$/.test(stream);
  const checked = checkTopic(topic);
  try {
    const row = byId ? addressedStream(ctx, { kind: 'stream_id', id: Number(stream), topic: checked }) : addressedStream(ctx, { kind: 'stream', name: stream, topic: checked });
    if (!selectHasActiveSubscriber(ctx.store, row.id)) {
      notices.push(`Your bot ${identity} tried to send a message to channel #**${row.name}**. The channel exists but does not have any subscribers.`);
    }
    return row;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'STREAM_DOES_NOT_EXIST') throw error;
    if (byId) {
      notices.push(`Your bot ${identity} tried to send a message to channel ID ${stream}, but there is no channel with that ID.`);
      throw error;
    }
    // Zulip answers success here: the owner is told, the service is not.
    notices.push(`Your bot ${identity} tried to send a message to channel #**${stream.trim()}**, but that channel does not exist. Click [here](#channels/new) to create it.`);
    return undefined;
  }
}

function post(ctx: Ctx, actor: Actor, stream: string | undefined, message: WebhookMessage, client: string, notices: string[]): void {
  if (stream === undefined) {
    if (actor.botOwnerId === null) throw badRequest('Missing channel');
    sendMessage(ctx, actor, { type: 'private', to: [actor.botOwnerId], content: message.content }, client);
    return;
  }
  const channel = channelFor(ctx, actor, stream, message.topic, notices);
  if (channel) sendMessage(ctx, actor, { type: 'stream', to: channel.id, topic: message.topic, content: message.content }, client);
}

/**
 * Runs the integration on the request and posts its messages in one transaction. Not for a
 * transaction of the caller's: a failed post still tells the bot's owner, in a transaction of its own.
 */
export function receiveWebhook(ctx: Ctx, actor: Actor, integrationName: string, request: WebhookRequest): WebhookAnswer {
  const integration = INTEGRATIONS.get(integrationName);
  if (!integration) throw new ApiError('NOT_FOUND', 'Not Found');
  const client = webhookClient(integration);
  const notices: string[] = [];
  try {
    const posts = runIntegration(integration, request);
    ctx.tx(() => {
      for (const message of posts.messages) post(ctx, actor, posts.stream, message, client, notices);
    });
    return integration.slackAnswers ? { ok: true } : {};
  } catch (error) {
    if (integration.slackAnswers && error instanceof ApiError) {
      throw new SlackWebhookError(error.code, error.message, { status: error.status, headers: error.headers });
    }
    // Zulip's webhook_view: a body that is not JSON is the sender's setup, so the owner is told.
    if (error instanceof ApiError && error.code === 'INVALID_JSON') notices.unshift(invalidJsonNotice(integration.webhookName));
    throw error;
  } finally {
    const first = notices[0];
    if (first !== undefined) ctx.tx(() => noticeToOwner(ctx, actor, first, client));
  }
}
