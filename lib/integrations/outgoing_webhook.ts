// What an outgoing webhook bot's server receives and may answer (Zulip's zerver/lib/outgoing_webhook.py):
// the request body in Zulip's format (JSON) or Slack's (a form), the reply a response asks for, and
// the failure notices: "Failure! ..." in the conversation that triggered the bot, and a direct
// message to the bot's owner. https://zulip.com/api/outgoing-webhooks
import { z } from 'zod';
import { pythonBytesRepr, pythonStr, pythonStrRepr, stripPython } from './python.js';
import type { Trigger } from './outgoing_triggers.js';
import { truthy } from './wild.js';

/** Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS: how long a bot's server may take to answer. */
export const OUTGOING_TIMEOUT_SECONDS = 10;
/** Zulip's MAX_REQUEST_RETRIES: attempts after a timeout or a connection error (in parley a 5xx too), before giving up. */
export const MAX_RETRIES = 3;

/** The triggering message as Zulip sends it: Markdown `content`, the HTML kept as `rendered_content`, no flags. */
export const outgoingMessageSchema = z.looseObject({
  id: z.int(),
  type: z.enum(['stream', 'private']),
  content: z.string(),
  rendered_content: z.string(),
  sender_id: z.int(),
  sender_full_name: z.string(),
  sender_email: z.string(),
  avatar_url: z.string(),
  timestamp: z.int(),
  subject: z.string(),
  stream_id: z.int().optional(),
  display_recipient: z.union([z.string(), z.array(z.object({ id: z.int(), email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() }))]),
});
export type OutgoingMessage = z.infer<typeof outgoingMessageSchema>;

/** Zulip's GenericOutgoingWebhookService request body (JSON), in Zulip's key order. */
export const zulipRequestSchema = z.object({
  data: z.string().describe("The message's Markdown"),
  message: outgoingMessageSchema,
  bot_email: z.string(),
  bot_full_name: z.string(),
  token: z.string().describe("The bot's service token, for its server to check"),
  trigger: z.enum(['mention', 'direct_message']),
});
export type ZulipRequest = z.infer<typeof zulipRequestSchema>;

export interface OutgoingBot {
  id: number;
  email: string;
  fullName: string;
  token: string;
}

export function zulipRequest(bot: OutgoingBot, trigger: Trigger, message: OutgoingMessage): ZulipRequest {
  return { data: message.content, message, bot_email: bot.email, bot_full_name: bot.fullName, token: bot.token, trigger };
}

/** Zulip's SlackOutgoingWebhookService failure for direct messages, before any request. */
export const SLACK_DIRECT_MESSAGES = "Slack outgoing webhooks don't support direct messages.";

/**
 * Slack's outgoing webhook form (https://api.slack.com/legacy/custom-integrations/outgoing-webhooks),
 * as Zulip fills it; null for a direct message (SLACK_DIRECT_MESSAGES tells the sender).
 */
export function slackRequest(bot: OutgoingBot, trigger: Trigger, message: OutgoingMessage, realm: { id: number; host: string }): [string, string][] | null {
  if (message.type === 'private') return null;
  return [
    ['token', bot.token],
    ['team_id', `T${realm.id}`],
    ['team_domain', realm.host],
    ['channel_id', `C${message.stream_id}`],
    ['channel_name', pythonStr(message.display_recipient)],
    ['thread_ts', String(message.timestamp)],
    ['timestamp', String(message.timestamp)],
    ['user_id', `U${message.sender_id}`],
    ['user_name', message.sender_full_name],
    ['text', message.content],
    ['trigger_word', trigger],
    ['service_id', String(bot.id)],
  ];
}

/** The form body as Python's requests encodes it (urlencode: quote_plus, so `*` and `~` too). */
export function formBody(pairs: readonly [string, string][]): string {
  const quote = (text: string): string =>
    encodeURIComponent(text)
      .replace(/[!'()*~]/g, (c) => (c === '~' ? c : `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
      .replace(/%20/g, '+');
  return pairs.map(([key, value]) => `${quote(key)}=${quote(value)}`).join('&');
}

/** What the bot posts back in the triggering conversation, as the bot. */
export interface BotReply {
  content: string;
  widgetContent?: unknown;
}

/** A failure: "Failure! ..." in the conversation, and the owner's direct message (none for some). */
export interface Failure {
  senderNotice: string;
  ownerNotice?: string;
}

export type ResponseOutcome = { kind: 'reply'; reply: BotReply } | { kind: 'nothing' } | { kind: 'failure'; failure: Failure };

/** Where the owner's notice points: Zulip's message_link_url, and the bot's name. */
export interface NoticeContext {
  messageUrl: string;
  botFullName: string;
}

/** Zulip's notify_bot_owner. */
export function ownerNotice(
  context: NoticeContext,
  details: { statusCode?: number; responseContent?: string | undefined; failureMessage?: string; exception?: { type: string; message: string } },
): string {
  let notice = `[A message](${context.messageUrl}) to your bot @_**${context.botFullName}** triggered an outgoing webhook.`;
  if (details.exception) {
    notice += `\nWhen trying to send a request to the webhook service, an exception of type ${details.exception.type} occurred:\n\`\`\`\n${details.exception.message}\n\`\`\``;
  } else if (details.failureMessage) notice += `\n${details.failureMessage}`;
  else if (details.statusCode === 407) notice += '\nThe URL configured for the webhook is for a private or disallowed network.';
  else if (details.statusCode) notice += `\nThe webhook got a response with status code *${details.statusCode}*.`;
  if (details.responseContent) notice += `\nThe response contains the following payload:\n\`\`\`\n${details.responseContent}\n\`\`\``;
  return notice;
}

/** Zulip's fail_with_message text. */
export const senderNotice = (message: string): string => `Failure! ${message}`;

/** Zulip's process_success for each interface: the reply's content, or null for none. */
function replyOf(iface: number, json: Record<string, unknown>): BotReply | null {
  if (iface === 2) {
    // Slack's `text` is taken as it is; Zulip fails on one that is not text, posting nothing.
    return 'text' in json && typeof json.text === 'string' ? { content: json.text } : null;
  }
  if (truthy(json.response_not_required)) return null;
  if ('response_string' in json) return { content: pythonStr(json.response_string) };
  if ('content' in json) return 'widget_content' in json ? { content: pythonStr(json.content), widgetContent: json.widget_content } : { content: pythonStr(json.content) };
  return null;
}

/**
 * Zulip's do_rest_call for an answered request: a 2xx body is read for a reply (an invalid one
 * fails); any other status fails with the response shown to the owner.
 */
export function interpretResponse(iface: number, response: { status: number; body: Uint8Array }, context: NoticeContext): ResponseOutcome {
  const text = Buffer.from(response.body).toString('utf8');
  if (response.status < 200 || response.status > 299) {
    return {
      kind: 'failure',
      failure: {
        senderNotice: senderNotice(`Third party responded with ${response.status}`),
        ownerNotice: ownerNotice(context, { statusCode: response.status, responseContent: response.body.length > 0 ? pythonBytesRepr(response.body) : undefined }),
      },
    };
  }
  const invalid = (error: string): ResponseOutcome => ({
    kind: 'failure',
    failure: {
      senderNotice: senderNotice(error),
      ownerNotice: ownerNotice(context, {
        responseContent: text === '' ? undefined : pythonStrRepr(text),
        failureMessage: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error}`,
      }),
    },
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return invalid('Invalid JSON in response');
  }
  // zulip_botserver before 2021-05 answered "" for "no response required".
  if (json === '') return { kind: 'nothing' };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return invalid('Invalid response format');
  const reply = replyOf(iface, json as Record<string, unknown>);
  if (reply === null || stripPython(reply.content) === '') return { kind: 'nothing' };
  return { kind: 'reply', reply };
}

/** Why a request got no response: retried (MAX_RETRIES) for timeouts and connection errors, not for others. */
export type TransportError = { kind: 'timeout' } | { kind: 'connection' } | { kind: 'other'; type: string; message: string };

export function isRetried(error: TransportError): boolean {
  return error.kind !== 'other';
}

/** The failure after a request got no response (after the last retry, for those retried). */
export function transportFailure(error: TransportError, context: NoticeContext, command: string, timeoutSeconds = OUTGOING_TIMEOUT_SECONDS): Failure {
  if (error.kind === 'other') {
    return {
      senderNotice: senderNotice(`An exception of type *${error.type}* occurred for message \`${command}\`! See the Zulip server logs for more information.`),
      ownerNotice: ownerNotice(context, { exception: { type: error.type, message: error.message } }),
    };
  }
  const why = error.kind === 'timeout' ? `Request timed out after ${timeoutSeconds} seconds.` : 'A connection error occurred. Is my bot server down?';
  return { senderNotice: senderNotice('Bot is unavailable'), ownerNotice: ownerNotice(context, { failureMessage: why }) };
}

/** Zulip's encode_hash_component: URL-quoted (only `*` kept), then `%` -> `.`, `.` -> `.2E`. */
export function encodeHashComponent(text: string): string {
  const quoted = encodeURIComponent(text).replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return quoted.replace(/[%.]/g, (c) => (c === '%' ? '.' : '.2E'));
}

/** Zulip's message_link_url: the message in its conversation. */
export function messageLinkUrl(realmUrl: string, message: Pick<OutgoingMessage, 'id' | 'type' | 'stream_id' | 'display_recipient' | 'subject'>): string {
  if (message.type === 'stream') {
    const channel = `${message.stream_id}-${encodeHashComponent(pythonStr(message.display_recipient).replaceAll(' ', '-'))}`;
    return `${realmUrl}/#narrow/channel/${channel}/topic/${encodeHashComponent(message.subject)}/near/${message.id}`;
  }
  const ids = (message.display_recipient as { id: number }[]).map((recipient) => recipient.id).sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(',')}${ids.length >= 3 ? '-group' : ''}/near/${message.id}`;
}
