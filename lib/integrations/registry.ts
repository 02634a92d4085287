// The incoming webhook integrations parley offers, by URL name: what a listing of integrations and the
// web client's integration URL generator show (name, display name, event types, URL options).
import { z } from 'zod';
import { alertmanager, grafana } from './alerting.js';
import { gitea } from './gitea.js';
import { github } from './github.js';
import { gitlab } from './gitlab.js';
import { sentry } from './sentry.js';
import { json, slackIncoming } from './simple.js';
import type { Integration } from './webhook.js';

const ALL: readonly Integration[] = [alertmanager, gitea, github, gitlab, grafana, json, sentry, slackIncoming];

export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map(ALL.map((integration) => [integration.name, integration]));

export const integrationSummarySchema = z.object({
  name: z.string().describe('The URL name: /api/v1/external/{name}'),
  display_name: z.string(),
  /** Null: the integration's messages cannot be filtered by event type. */
  all_event_types: z.array(z.string()).nullable(),
  /** Options set when the bot is created: none of parley's integrations has one. */
  config_options: z.array(z.never()),
  url_options: z.array(z.object({ key: z.string(), label: z.string(), validator: z.enum(['check_string', 'check_bool']) })),
});
export type IntegrationSummary = z.infer<typeof integrationSummarySchema>;

/** POST /register's realm_incoming_webhook_bots: the same for everyone, and never changing while the server runs. */
export const incomingWebhookBotStateSchema = z.object({ realm_incoming_webhook_bots: z.array(integrationSummarySchema) });

export function fetchIncomingWebhookBotState(): z.infer<typeof incomingWebhookBotStateSchema> {
  return { realm_incoming_webhook_bots: listIntegrations() };
}

/**
 * The integrations in the shape of Zulip's realm_incoming_webhook_bots (POST /register): event
 * types for only_events / exclude_events and the URL parameters each takes.
 */
export function listIntegrations(): IntegrationSummary[] {
  return ALL.map((integration) => ({
    name: integration.name,
    display_name: integration.displayName,
    all_event_types: integration.events === null ? null : [...integration.events],
    config_options: [],
    url_options: integration.urlOptions.map((option) => ({
      key: option.name,
      label: option.label,
      validator: option.kind === 'bool' ? ('check_bool' as const) : ('check_string' as const),
    })),
  }));
}
