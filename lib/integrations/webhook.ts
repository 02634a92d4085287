// What every incoming webhook integration shares (Zulip's zerver/lib/webhooks/common.py and the
// webhook_view decorator): the request an integration reads, the messages it produces, Zulip's
// webhook errors, the URL parameters every integration takes (`stream`, `topic`, `only_events`,
// `exclude_events`) and the event filter.
import { ApiError, badRequest } from '../errors.js';
import { checkTopic, normalizeContent } from '../domain/message_addressee.js';
import { fnmatch } from './python.js';
import { Wild, wildPayload } from './wild.js';

/** An incoming webhook request as the route hands it over. */
export interface WebhookRequest {
  /** The query string's parameters and a form body's fields, as sent. */
  params: ReadonlyMap<string, string>;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body's media type in lower case, without parameters ('' without a body). */
  contentType: string;
  /** The body as UTF-8 text ('' without a body). */
  body: string;
}

/** One message to post; `eventType` is what only_events / exclude_events match (Zulip's complete_event_type). */
export interface WebhookMessage {
  topic: string;
  content: string;
  eventType?: string | undefined;
}

/** A URL parameter an integration reads besides the common ones (the URL generator offers them). */
export interface UrlOption {
  name: string;
  label: string;
  /** `string`: taken as sent; `bool`: JSON `true` / `false` (Zulip's Json[bool]). */
  kind: 'string' | 'bool';
}

/** Zulip's PresetUrlOption.BRANCHES: pushes to other branches post nothing. */
export const BRANCHES_OPTION: UrlOption = { name: 'branches', label: 'Filter by branches (comma-separated list)', kind: 'string' };

/** What an integration's handler reads. */
export interface WebhookInput {
  request: WebhookRequest;
  /** The body parsed as JSON, as Zulip's JsonBodyPayload (`Malformed JSON` otherwise). */
  payload(): Wild;
  header(name: string): string | undefined;
  /** The `topic` parameter (Zulip's user_specified_topic): messages then name their subject in full. */
  userTopic: string | undefined;
  /** A string URL parameter. */
  text(name: string): string | undefined;
  /** A Json[bool] URL parameter. */
  flag(name: string, fallback: boolean): boolean;
}

export interface Integration {
  /** The URL's name: /api/v1/external/{name}. */
  name: string;
  displayName: string;
  /** Zulip's webhook_client_name: in errors ("by the GitHub webhook") and the client `Zulip{name}Webhook`. */
  webhookName: string;
  /** Event types only_events / exclude_events can name (Zulip's all_event_types); null: no filtering. */
  events: readonly string[] | null;
  urlOptions: readonly UrlOption[];
  /** Answers and errors in Slack's format (`{ok: ...}`). */
  slackAnswers?: boolean;
  handle(input: WebhookInput): WebhookMessage[];
}

/** Zulip's UnsupportedWebhookEventTypeError, before the decorator names the webhook. */
export class UnsupportedEvent extends Error {
  constructor(readonly eventType: string) {
    super(`The '${eventType}' event isn't currently supported`);
  }
}

/** Zulip's AnomalousWebhookPayloadError. */
export class AnomalousPayload extends Error {}

export function unsupportedEventError(webhookName: string, eventType: string): ApiError {
  return new ApiError('UNSUPPORTED_WEBHOOK_EVENT_TYPE', `The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`, {
    status: 200,
    extra: { webhook_name: webhookName, event_type: eventType },
  });
}

export function anomalousPayloadError(webhookName: string): ApiError {
  return new ApiError('ANOMALOUS_WEBHOOK_PAYLOAD', `Unable to parse request: Did ${webhookName} generate this event?`, {
    extra: { webhook_name: webhookName },
  });
}

/** Zulip's validate_extract_webhook_http_header. */
export function requireHeader(input: WebhookInput, header: string): string {
  const value = input.header(header);
  if (value === undefined) {
    throw new ApiError('MISSING_HTTP_EVENT_HEADER', `Missing the HTTP event header '${header}'`, { extra: { header } });
  }
  return value;
}

/** Zulip's get_setup_webhook_message. */
export function setupMessage(integration: string, userName?: string | null): string {
  return `${integration} webhook has been successfully configured${userName ? ` by ${userName}` : ''}.`;
}

/** How deeply a webhook body may nest (parley's limit for JSON parameters). */
const MAX_DEPTH = 100;

function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Zulip's JsonBodyPayload: the body as JSON, else `Malformed JSON` (INVALID_JSON). */
export function parseJsonBody(body: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new ApiError('INVALID_JSON', 'Malformed JSON');
  }
  if (depthOf(value, MAX_DEPTH) > MAX_DEPTH) throw badRequest(`payload is nested too deeply (limit: ${MAX_DEPTH} levels)`);
  return value;
}

function jsonParam(name: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
}

/** A Json[bool] parameter. */
function boolParam(params: ReadonlyMap<string, string>, name: string, fallback: boolean): boolean {
  const raw = params.get(name);
  if (raw === undefined) return fallback;
  const value = jsonParam(name, raw);
  if (typeof value !== 'boolean') throw badRequest(`${name} is not a boolean`);
  return value;
}

/** A Json[list[str]] parameter (only_events, exclude_events). */
function listParam(params: ReadonlyMap<string, string>, name: string): string[] | undefined {
  const raw = params.get(name);
  if (raw === undefined) return undefined;
  const value = jsonParam(name, raw);
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  value.forEach((item, i) => {
    if (typeof item !== 'string') throw badRequest(`${name}[${i}] is not a string`);
  });
  return value as string[];
}

function inputFor(request: WebhookRequest): WebhookInput {
  let payload: Wild | undefined;
  return {
    request,
    payload: () => (payload ??= wildPayload(parseJsonBody(request.body))),
    header: (name) => request.headers[name.toLowerCase()],
    userTopic: request.params.get('topic'),
    text: (name) => request.params.get(name),
    flag: (name, fallback) => boolParam(request.params, name, fallback),
  };
}

/**
 * Zulip's check_send_webhook_message filter: an event type that matches none of only_events, or
 * any of exclude_events (Unix shell-style wildcards), posts nothing.
 */
function wanted(message: WebhookMessage, only: string[] | undefined, exclude: string[] | undefined): boolean {
  const type = message.eventType;
  if (type === undefined) return true;
  if (only !== undefined && only.every((pattern) => !fnmatch(type, pattern))) return false;
  return !(exclude !== undefined && exclude.some((pattern) => fnmatch(type, pattern)));
}

/** What a webhook request posts: where (`stream`: name or id; none: a direct message to the bot's owner) and what. */
export interface WebhookPosts {
  stream: string | undefined;
  messages: WebhookMessage[];
}

/**
 * Runs an integration on a request: its messages after the event filter, each with the `topic`
 * parameter's topic when one was given. Zulip's webhook errors come out as ApiErrors.
 */
export function runIntegration(integration: Integration, request: WebhookRequest): WebhookPosts {
  const input = inputFor(request);
  // The integration's own parameters are checked first, as Zulip's typed_endpoint does.
  for (const option of integration.urlOptions) if (option.kind === 'bool') input.flag(option.name, false);
  let messages: WebhookMessage[];
  try {
    messages = integration.handle(input);
  } catch (error) {
    if (error instanceof UnsupportedEvent) throw unsupportedEventError(integration.webhookName, error.eventType);
    if (error instanceof AnomalousPayload) throw anomalousPayloadError(integration.webhookName);
    throw error;
  }
  // Read when a message is sent (Zulip's check_send_webhook_message), so only then checked.
  const only = messages.length > 0 ? listParam(request.params, 'only_events') : undefined;
  const exclude = messages.length > 0 ? listParam(request.params, 'exclude_events') : undefined;
  const stream = request.params.get('stream');
  // As Zulip stores them: the topic stripped and cut to 60 characters (direct messages have none),
  // the content without trailing whitespace and leading newlines, cut to 10000 characters.
  return {
    stream,
    messages: messages.filter((message) => wanted(message, only, exclude)).map((message) => {
      const topic = input.userTopic ?? message.topic;
      return { ...message, topic: stream === undefined ? topic : checkTopic(topic), content: normalizeContent(message.content) };
    }),
  };
}
