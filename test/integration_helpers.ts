// Running an incoming webhook integration on a request built in a test: its messages (topic,
// content as Zulip stores it, event type) or the exact error, without a server.
import type { Test } from 'tap';
import { ApiError } from '../lib/errors.js';
import { runIntegration, type Integration, type WebhookMessage, type WebhookRequest } from '../lib/integrations/webhook.js';

export interface HookOptions {
  headers?: Record<string, string>;
  /** URL parameters; `stream` is `integrations` unless given (topics are then stored as for a channel); undefined leaves one out. */
  params?: Record<string, string | undefined>;
  contentType?: string;
  /** The body text as sent, instead of `payload` as JSON. */
  raw?: string;
}

export function webhookRequest(payload: unknown, options: HookOptions = {}): WebhookRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  return {
    params: new Map(Object.entries({ stream: 'integrations', ...options.params }).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    headers,
    contentType: options.contentType ?? 'application/json',
    body: options.raw ?? JSON.stringify(payload),
  };
}

/** The messages an integration posts for this request (after only_events / exclude_events and `topic`). */
export function hook(integration: Integration, payload: unknown, options: HookOptions = {}): WebhookMessage[] {
  return runIntegration(integration, webhookRequest(payload, options)).messages;
}

/** The one message an integration posts: its topic and content. */
export function message(integration: Integration, payload: unknown, options: HookOptions = {}): { topic: string; content: string } {
  const messages = hook(integration, payload, options);
  if (messages.length !== 1) throw new Error(`expected one message, got ${messages.length}`);
  return { topic: messages[0]!.topic, content: messages[0]!.content };
}

export interface ExpectedError {
  status: number;
  code: string;
  msg: string;
  extra?: Record<string, unknown>;
}

export function hookFails(t: Test, integration: Integration, payload: unknown, options: HookOptions, expected: ExpectedError): void {
  try {
    hook(integration, payload, options);
    t.fail(`expected: ${expected.msg}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    t.same({ status: error.status, code: error.code, msg: error.message }, { status: expected.status, code: expected.code, msg: expected.msg });
    t.same(error.extra, expected.extra ?? {});
  }
}

export const unsupported = (webhookName: string, eventType: string): ExpectedError => ({
  status: 200,
  code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
  msg: `The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`,
  extra: { webhook_name: webhookName, event_type: eventType },
});

export const malformed = (msg: string): ExpectedError => ({ status: 400, code: 'BAD_REQUEST', msg });
