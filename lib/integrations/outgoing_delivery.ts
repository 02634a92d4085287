// The outgoing_webhook delivery (Zulip's outgoing_webhooks worker): after the triggering message
// commits, POSTs it to the bot's server and ends with what Zulip does: the reply posted, nothing,
// or the failure notices; timeouts, connection errors and 5xx answers are retried first.
import type { Ctx } from '../context.js';
import type { DeliveryKind, DeliveryOutcome } from '../deliveries/outbox.js';
import { INTERFACES } from '../domain/bot_services.js';
import { getRealm, ZULIP_VERSION } from '../domain/realm.js';
import { noticeContext, outgoingMessage, outgoingServices, type OutgoingService } from './outgoing_message.js';
import { postInConversation, postToOwner } from './outgoing_post.js';
import { OUTGOING_WEBHOOK, type OutgoingPayload } from './outgoing_queue.js';
import { requestBot, type BotRequest, type RequestLimits, type RequestResult } from './outgoing_request.js';
import {
  formBody,
  interpretResponse,
  isRetried,
  MAX_RETRIES,
  OUTGOING_TIMEOUT_SECONDS,
  senderNotice,
  SLACK_DIRECT_MESSAGES,
  slackRequest,
  transportFailure,
  zulipRequest,
  type Failure,
  type NoticeContext,
  type OutgoingMessage,
} from './outgoing_webhook.js';

const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 15_000];
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const DEFAULT_MAX_CONCURRENT_PER_BOT = 4;
/** A delivery to a bot with no free slot waits this long before it looks again. */
const BUSY_WAIT_MS = 1_000;
/** The delivery's own deadline outlasts the request's, which ends first with its own outcome. */
const DEADLINE_MARGIN_MS = 5_000;

function limits(ctx: Ctx): RequestLimits & { retryDelaysMs: readonly number[]; maxConcurrentPerBot: number } {
  const o = ctx.options.outgoingWebhooks ?? {};
  return {
    allowPrivateAddresses: o.allowPrivateAddresses ?? false,
    timeoutMs: o.timeoutMs ?? OUTGOING_TIMEOUT_SECONDS * 1000,
    maxResponseBytes: o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    fetch: o.fetch,
    retryDelaysMs: o.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS.slice(0, MAX_RETRIES),
    maxConcurrentPerBot: o.maxConcurrentPerBot ?? DEFAULT_MAX_CONCURRENT_PER_BOT,
  };
}

const SLOTS = Symbol('parley.outgoingWebhookSlots');

/** A slot for one request to the bot: the function that gives it back, or undefined when all are taken. */
function takeSlot(ctx: Ctx, botId: number, most: number): (() => void) | undefined {
  const inUse = ctx.once(SLOTS, () => new Map<number, number>());
  const mine = inUse.get(botId) ?? 0;
  if (mine >= most) return undefined;
  inUse.set(botId, mine + 1);
  return () => {
    const left = inUse.get(botId)! - 1;
    if (left === 0) inUse.delete(botId);
    else inUse.set(botId, left);
  };
}

interface Prepared {
  service: OutgoingService;
  message: OutgoingMessage;
  context: NoticeContext;
  /** Null for a request Slack's format cannot make (a direct message). */
  request: BotRequest | null;
}

/** What the attempt sends, read in one transaction; undefined when the message or the bot is gone. */
function prepare(ctx: Ctx, payload: OutgoingPayload): Prepared | undefined {
  const message = outgoingMessage(ctx, payload.message_id);
  const service = outgoingServices(ctx, payload.bot_id)[0];
  if (!message || !service) return undefined;
  const context = noticeContext(ctx, message, service.bot);
  const userAgent = `ZulipOutgoingWebhook/${ZULIP_VERSION}`;
  if (service.interface === INTERFACES.slack) {
    const host = new URL(getRealm(ctx).url).host;
    const form = slackRequest(service.bot, payload.trigger, message, { id: 1, host });
    const request = form && { url: service.baseUrl, contentType: 'application/x-www-form-urlencoded', body: formBody(form), userAgent };
    return { service, message, context, request };
  }
  const body = JSON.stringify(zulipRequest(service.bot, payload.trigger, message));
  return { service, message, context, request: { url: service.baseUrl, contentType: 'application/json', body, userAgent } };
}

const failed = (payload: OutgoingPayload, failure: Failure, reason: string): DeliveryOutcome<OutgoingPayload> => ({
  status: 'failed',
  reason,
  payload: { ...payload, result: { failure } },
});

async function send(ctx: Ctx, payload: OutgoingPayload, signal: AbortSignal): Promise<DeliveryOutcome<OutgoingPayload>> {
  const settings = limits(ctx);
  const release = takeSlot(ctx, payload.bot_id, settings.maxConcurrentPerBot);
  if (!release) return { status: 'busy', dueAt: ctx.clock() + BUSY_WAIT_MS };
  try {
    const prepared = ctx.tx(() => prepare(ctx, payload));
    if (!prepared) return { status: 'sent' };
    if (prepared.request === null) return failed(payload, { senderNotice: senderNotice(SLACK_DIRECT_MESSAGES) }, 'direct message to a Slack-format bot');
    const result = await requestBot(prepared.request, settings, ctx.timers, signal);
    return outcomeOf(payload, prepared, result, settings.timeoutMs);
  } finally {
    release();
  }
}

/** Zulip's do_rest_call's outcome of a request, as the delivery's. */
function outcomeOf(payload: OutgoingPayload, prepared: Prepared, result: RequestResult, timeoutMs: number): DeliveryOutcome<OutgoingPayload> {
  const { service, message, context } = prepared;
  if (result.kind === 'refused') {
    // Zulip's outgoing proxy (smokescreen) answers a disallowed address with a 407.
    const outcome = interpretResponse(service.interface, { status: 407, body: new Uint8Array() }, context);
    return failed(payload, outcome.kind === 'failure' ? outcome.failure : { senderNotice: senderNotice('Third party responded with 407') }, 'refused address');
  }
  if (result.kind === 'failed') {
    const failure = transportFailure(result.error, context, message.content, timeoutMs / 1000);
    if (!isRetried(result.error)) return failed(payload, failure, result.error.kind === 'other' ? result.error.type : result.error.kind);
    return { status: 'retry', reason: result.error.kind, payload: { ...payload, result: { failure } } };
  }
  const outcome = interpretResponse(service.interface, { status: result.status, body: result.body }, context);
  if (outcome.kind === 'reply') return { status: 'sent', payload: { ...payload, result: { reply: outcome.reply } } };
  if (outcome.kind === 'nothing') return { status: 'sent' };
  // A 5xx is tried again as a timeout is; after the last try it is reported as Zulip reports it.
  if (result.status >= 500 && result.status <= 599) {
    return { status: 'retry', reason: 'server error', code: String(result.status), payload: { ...payload, result: { failure: outcome.failure } } };
  }
  return failed(payload, outcome.failure, `status ${result.status}`);
}

/** The failure notices: "Failure! ..." where the message was, then the owner's direct message. */
function postFailure(ctx: Ctx, payload: OutgoingPayload, failure: Failure): void {
  postInConversation(ctx, payload.bot_id, payload.message_id, failure.senderNotice, 'failure notice');
  if (failure.ownerNotice !== undefined) postToOwner(ctx, payload.bot_id, failure.ownerNotice);
}

export const outgoingWebhookDelivery: DeliveryKind<OutgoingPayload> = {
  name: OUTGOING_WEBHOOK.name,
  enabled: () => true,
  timeoutMs: (ctx) => limits(ctx).timeoutMs + DEADLINE_MARGIN_MS,
  retryDelaysMs: (ctx) => limits(ctx).retryDelaysMs,
  send: (ctx, { payload, signal }) => send(ctx, payload, signal),
  succeeded(ctx, payload) {
    const result = payload.result;
    if (result && 'reply' in result) postInConversation(ctx, payload.bot_id, payload.message_id, result.reply.content, 'reply');
  },
  failed(ctx, payload) {
    const result = payload.result;
    if (result && 'failure' in result) {
      postFailure(ctx, payload, result.failure);
      return;
    }
    // The delivery's own deadline passed before the request's (or the attempt crashed): Zulip's timeout.
    const message = outgoingMessage(ctx, payload.message_id);
    const service = outgoingServices(ctx, payload.bot_id)[0];
    if (!message || !service) return;
    postFailure(ctx, payload, transportFailure({ kind: 'timeout' }, noticeContext(ctx, message, service.bot), message.content, limits(ctx).timeoutMs / 1000));
  },
};
