// Shared by the messaging tests (streams, user groups, messages, mentions, alert words, flags):
// error checks over HTTP and in-process, and small request helpers. Event schemas and the
// apply-events check are in messaging_events.ts.
import type { Test } from 'tap';
import type { Reply, TestServer, TestUser } from './helpers.js';
import { USER_MESSAGE_ALL } from './schema_23.js';

export { bad, bothFail, isError, throwsApiError, type Expected } from './assertions.js';

export function ok(t: Test, reply: Reply, label = 'succeeds'): Record<string, any> {
  t.equal(reply.status, 200, label);
  t.equal(reply.body.result, 'success', `${label}: result`);
  return reply.body;
}

export async function subscribe(s: TestServer, user: TestUser, names: string[], params: Record<string, unknown> = {}): Promise<Reply> {
  return s.request('POST', '/users/me/subscriptions', { as: user, params: { subscriptions: names.map((name) => ({ name })), ...params } });
}

export async function sendToStream(s: TestServer, user: TestUser, to: string | number, topic: string, content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const reply = await s.request('POST', '/messages', { as: user, params: { type: 'stream', to, topic, content, ...extra } });
  if (reply.status !== 200) throw new Error(`send failed: ${JSON.stringify(reply.body)}`);
  return reply.body.id as number;
}

export async function sendDirect(s: TestServer, user: TestUser, to: number[], content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const reply = await s.request('POST', '/messages', { as: user, params: { type: 'direct', to, content, ...extra } });
  if (reply.status !== 200) throw new Error(`send failed: ${JSON.stringify(reply.body)}`);
  return reply.body.id as number;
}

/**
 * The user's flag bits on a message, straight from the tables (test/schema_23.ts USER_MESSAGE_ALL: a
 * row, or a subscription period's default), a starred_message row as bit 1 (undefined: the user
 * does not have it). Bit 1 of a stored `flags` must be 0: starred has its own table.
 */
export function flagBits(s: TestServer, userId: number, messageId: number): number | undefined {
  const stored = s.db.prepare('SELECT flags FROM user_message WHERE user_id = ? AND message_id = ?').pluck().get(userId, messageId) as number | undefined;
  if (stored !== undefined && stored & 2) throw new Error(`user_message.flags of user ${userId}, message ${messageId} has bit 1 (starred) set`);
  return s.db.prepare(`SELECT flags FROM (${USER_MESSAGE_ALL}) WHERE user_id = ? AND message_id = ?`).pluck().get(userId, messageId) as number | undefined;
}

/** Stars the user's row for a message behind the API's back (with its other flags set by hand). */
export function starByHand(s: TestServer, userId: number, messageId: number): void {
  s.db.prepare('INSERT INTO starred_message (user_id, message_id) VALUES (?, ?)').run(userId, messageId);
}

export function addAlertWord(s: TestServer, userId: number, word: string): void {
  s.db.prepare('INSERT INTO alert_word (user_id, word) VALUES (?, ?)').run(userId, word);
}

export const MESSAGING_TYPES = ['subscription', 'stream', 'user_group', 'message', 'delete_message'];

export async function register(s: TestServer, user: TestUser, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const reply = await s.request('POST', '/register', { as: user, params: { event_types: MESSAGING_TYPES, ...params } });
  if (reply.status !== 200) throw new Error(`register failed: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export async function poll(s: TestServer, user: TestUser, queue: Record<string, any>): Promise<Record<string, any>[]> {
  const reply = await s.request('GET', '/events', { as: user, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } });
  if (reply.status !== 200) throw new Error(`poll failed: ${JSON.stringify(reply.body)}`);
  return reply.body.events as Record<string, any>[];
}

/** The first item of a list the test expects to be non-empty; throws when it is empty. */
export function first<T>(items: readonly T[]): T {
  const item = items[0];
  if (item === undefined) throw new Error('expected a non-empty list');
  return item;
}

/** HTTP parameter names to the in-process API's camelCase keys. */
export function camelize(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), value]));
}

let pairs = 0;
/** Two fresh members subscribed to a fresh public channel named `${prefix}-N`. */
export async function memberPair(t: Test, s: TestServer, prefix: string): Promise<{ alice: TestUser; bob: TestUser; channel: string }> {
  pairs += 1;
  const alice = await s.user('member', { fullName: `Alice ${prefix} ${pairs}` });
  const bob = await s.user('member', { fullName: `Bob ${prefix} ${pairs}` });
  const channel = `${prefix}-${pairs}`;
  ok(t, await subscribe(s, alice, [channel], { principals: [alice.user_id, bob.user_id] }));
  return { alice, bob, channel };
}
