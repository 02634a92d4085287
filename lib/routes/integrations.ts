// POST /api/v1/external/{integration}: Zulip's incoming webhook URL. A third-party service posts its
// payload (JSON, or a form as Slack and GitHub can send) with the bot's key in the URL
// (`?api_key=KEY&stream=...`, Zulip's webhook_view) or in HTTP Basic auth; the integration turns it
// into messages posted as that bot. https://zulip.com/api/incoming-webhooks-overview
import { receiveWebhook, webhookAnswerSchema } from '../integrations/incoming.js';
import { toWebhookRequest } from '../integrations/route.js';
import { sentRaw } from '../http/request.js';
import { pathStr, str } from '../http/params.js';
import { route } from './route.js';

export const integrationRoutes = {
  receive: route({
    method: 'POST',
    path: '/external/:integration',
    access: 'user',
    // Zulip's webhook_view takes any account's key; incoming webhook bots are what it is for.
    waysIn: ['webhookKey', 'basic'],
    allowIncomingWebhooks: true,
    rawBody: true,
    summary: "An incoming webhook: a service's payload posted into a channel by the calling bot",
    params: {
      integration: pathStr().describe('The integration: json, slack_incoming, github, gitlab, gitea, sentry, alertmanager, grafana (docs/integrations.md)'),
      stream: str().optional().describe("The channel to post to, by name or id; without it, a direct message to the bot's owner"),
      topic: str().optional().describe("The topic of every message, in place of the integration's own"),
      onlyEvents: str().optional().describe('JSON list of event types to post (Unix shell-style wildcards); others post nothing'),
      excludeEvents: str().optional().describe('JSON list of event types not to post (Unix shell-style wildcards)'),
      payload: str().optional().describe("The payload as a form field's JSON text (Slack's and GitHub's form content type), in place of a JSON body"),
    },
    response: webhookAnswerSchema,
    errors: [
      'BAD_REQUEST',
      'REQUEST_VARIABLE_MISSING',
      'INVALID_API_KEY',
      'USER_DEACTIVATED',
      'INVALID_JSON',
      'MISSING_HTTP_EVENT_HEADER',
      'ANOMALOUS_WEBHOOK_PAYLOAD',
      // Zulip's UnsupportedWebhookEventTypeError answers 200: the service should not retry.
      { code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE', status: 200 },
      'STREAM_DOES_NOT_EXIST',
      'NOT_FOUND',
    ],
    handler: (ctx, { actor }, { integration, stream, topic, onlyEvents, excludeEvents, payload }, request) =>
      receiveWebhook(ctx, actor, integration, toWebhookRequest(request.raw ?? sentRaw({}), { stream, topic, only_events: onlyEvents, exclude_events: excludeEvents, payload })),
  }),
};
