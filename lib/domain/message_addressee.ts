// Where a message goes (Zulip's Addressee): the `to` and `topic` parameters of POST /messages
// decoded as Zulip does, with its messages for every malformed or unknown recipient.
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { selectStreamById, selectStreamByName, type StreamRow } from '../store/streams.js';
import { selectUserById, type UserRow } from '../store/users.js';
import { userByEmail } from './email_visibility.js';
import type { Actor } from './roles.js';
import { firstUnprintable, streamNameProblem } from './stream_dicts.js';

export const MAX_TOPIC_LENGTH = 60;
export const MAX_MESSAGE_LENGTH = 10000;

export type Addressee =
  | { kind: 'stream'; name: string; topic: string }
  | { kind: 'stream_id'; id: number; topic: string }
  | { kind: 'direct'; users: UserRow[] };

/** Zulip's truncate_content: at most `limit` code points, the suffix included. */
export function truncate(text: string, limit: number, suffix: string): string {
  const chars = [...text];
  return chars.length <= limit ? text : chars.slice(0, limit - [...suffix].length).join('') + suffix;
}

/** Zulip's check_stream_topic and truncate_topic; "(no topic)" means the empty topic. */
export function checkTopic(raw: string): string {
  const topic = raw.trim();
  const position = firstUnprintable(topic);
  if (position !== undefined) throw badRequest(`Invalid character in topic, at position ${position}!`);
  if (topic === '(no topic)') return '';
  return truncate(topic, MAX_TOPIC_LENGTH, '...');
}

/** Zulip's normalize_body. */
export function normalizeContent(raw: string): string {
  const body = raw.trimEnd().replace(/^\n+/, '');
  if (body.length === 0) throw badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  return truncate(body, MAX_MESSAGE_LENGTH, '\n[message truncated]');
}

function channelIndicator(to: unknown): string | number {
  let value = to;
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest('Expected exactly one channel');
    value = value[0];
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw badRequest('Invalid data type for channel');
}

function directRecipients(ctx: Ctx, actor: Actor, to: unknown): UserRow[] {
  const data = typeof to === 'string' ? to.split(',') : to;
  if (!Array.isArray(data)) throw badRequest('Invalid data type for recipients');
  if (data.length === 0) throw badRequest('Message must have recipients');
  if (typeof data[0] === 'string') {
    if (!data.every((item) => typeof item === 'string')) {
      throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
    }
    const emails = [...new Set((data as string[]).map((email) => email.trim()))].filter(Boolean);
    if (emails.length === 0) throw badRequest('Message must have recipients');
    return emails.map((email) => {
      const user = userByEmail(ctx, actor, email);
      if (!user) throw badRequest(`Invalid email '${email}'`);
      return user;
    });
  }
  if (typeof data[0] !== 'number' || !Number.isInteger(data[0])) throw badRequest('Invalid data type for recipients');
  if (!data.every((item) => typeof item === 'number' && Number.isInteger(item))) {
    throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
  }
  return [...new Set(data as number[])].map((id) => {
    const user = selectUserById(ctx.store, id);
    if (!user) throw badRequest(`Invalid user ID ${id}`);
    return user;
  });
}

/** Zulip's Addressee.legacy_build. */
export function buildAddressee(ctx: Ctx, actor: Actor, type: 'stream' | 'private', to: unknown, topic: string | undefined): Addressee {
  if (type === 'stream') {
    if (to === undefined) throw badRequest('Missing channel');
    const indicator = channelIndicator(to);
    if (topic === undefined) throw badRequest('Missing topic');
    const checked = checkTopic(topic);
    return typeof indicator === 'number' ? { kind: 'stream_id', id: indicator, topic: checked } : { kind: 'stream', name: indicator, topic: checked };
  }
  if (to === undefined) throw badRequest('Message must have recipients');
  return { kind: 'direct', users: directRecipients(ctx, actor, to) };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!);
}

/** The channel a message is addressed to (Zulip's validate_stream_*_with_pm_notification). */
export function addressedStream(ctx: Ctx, addressee: Exclude<Addressee, { kind: 'direct' }>): StreamRow {
  if (addressee.kind === 'stream_id') {
    const stream = selectStreamById(ctx.store, addressee.id);
    if (!stream) {
      throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${addressee.id}' does not exist`, {
        extra: { stream_id: addressee.id },
      });
    }
    return stream;
  }
  const name = addressee.name.trim();
  const problem = streamNameProblem(name);
  if (problem) throw badRequest(problem);
  const stream = selectStreamByName(ctx.store, name);
  if (!stream) {
    const escaped = escapeHtml(name);
    throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${escaped}' does not exist`, { extra: { stream: escaped } });
  }
  return stream;
}
