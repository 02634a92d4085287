// Two integrations without a service of their own: Zulip's generic JSON integration (the payload,
// pretty-printed) and Slack-compatible incoming webhooks (any tool that posts to a Slack webhook
// URL: `text`, `blocks`, `attachments`). https://zulip.com/integrations/json
// https://zulip.com/integrations/slack_incoming
import { ApiError, badRequest } from '../errors.js';
import { pythonJsonDumps, stripPython } from './python.js';
import { convertSlackFormatting, joinPieces, renderAttachment, renderBlock, replaceLinks } from './slack_format.js';
import { parseJsonBody, type Integration, type WebhookInput, type WebhookMessage } from './webhook.js';
import { wildPayload } from './wild.js';

export const json: Integration = {
  name: 'json',
  displayName: 'JSON formatter',
  webhookName: 'JSON',
  events: null,
  urlOptions: [],
  handle: (input) => {
    const payload = input.payload();
    if (typeof payload.value !== 'object' || payload.value === null || Array.isArray(payload.value)) throw badRequest('payload is not a dict');
    return [{ topic: 'JSON', content: `\`\`\`json\n${pythonJsonDumps(payload.value)}\n\`\`\`` }];
  },
};

/** Slack takes the payload as a JSON body, or as JSON text in the `payload` form field. */
function slackPayload(input: WebhookInput): ReturnType<typeof wildPayload> {
  if (input.request.contentType === 'application/json') return input.payload();
  const text = input.request.params.get('payload');
  if (text === undefined) throw new ApiError('REQUEST_VARIABLE_MISSING', "Missing 'payload' argument", { extra: { var_name: 'payload' } });
  return wildPayload(parseJsonBody(text));
}

function slackMessages(input: WebhookInput): WebhookMessage[] {
  const payload = slackPayload(input);
  let topic = input.userTopic;
  if (topic === undefined && payload.has('channel')) topic = payload.at('channel').str().replace(/^[@#]/, '');
  const pieces: string[] = [];
  if (payload.get('blocks').truthy) pieces.push(...payload.at('blocks').items().map(renderBlock));
  if (payload.get('attachments').truthy) pieces.push(...payload.at('attachments').items().map(renderAttachment));
  let body = joinPieces(pieces);
  if (body === '' && payload.get('text').truthy) {
    if (payload.get('icon_emoji').truthy) body = `${payload.at('icon_emoji').str()} `;
    body = stripPython(body + payload.at('text').str());
  }
  if (body === '') return [];
  return [{ topic: topic ?? '(no topic)', content: convertSlackFormatting(stripPython(replaceLinks(body))) }];
}

export const slackIncoming: Integration = {
  name: 'slack_incoming',
  displayName: 'Slack-compatible webhook',
  webhookName: 'SlackIncoming',
  events: null,
  urlOptions: [],
  slackAnswers: true,
  handle: slackMessages,
};
