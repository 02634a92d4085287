// What the notification suites share: a server with a push bouncer stand-in (and optionally a
// real SMTP server), users whose phones are registered, waiting until every delivery due now was
// attempted, the payloads each phone decrypted, and making a user active or idle as Zulip sees it.
import type { Test } from 'tap';
import type { ChatOptions, PushOptions } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import type { Delivery, StandInBouncer } from './bouncer.js';
import type { TestServer, TestUser } from './helpers.js';
import { activeDevice, pushWorld } from './push_helpers.js';
import { ok, subscribe } from './messaging_helpers.js';

export interface NotifyWorld {
  s: TestServer;
  bouncer: StandInBouncer;
  /** A new member with one registered phone (FCM unless `kind` says APNs). */
  person(name: string, kind?: 'fcm' | 'apns'): Promise<TestUser>;
  /** A fresh channel with these subscribers. */
  channel(users: TestUser[]): Promise<{ id: number; name: string }>;
}

export async function notifyWorld(t: Test, options: { push?: Partial<PushOptions>; chat?: ChatOptions } = {}): Promise<NotifyWorld> {
  const { s, bouncer } = await pushWorld(t, { push: { retryDelaysMs: [20, 20, 20], ...options.push }, ...(options.chat ? { chat: options.chat } : {}) });
  let channels = 0;
  return {
    s,
    bouncer,
    async person(name, kind = 'fcm') {
      const user = await s.user('member', { fullName: name });
      await activeDevice(s, user, bouncer, kind);
      return user;
    },
    async channel(users) {
      channels += 1;
      const name = `notify-${channels}`;
      ok(t as never, await subscribe(s, users[0]!, [name], { principals: users.map((u) => u.user_id) }));
      return { id: s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number, name };
    },
  };
}

/** Waits until every delivery due now has been attempted (and what those attempts wrote). */
export async function settle(s: TestServer): Promise<void> {
  const runner = deliveryRunner(contextOf(s.chat))!;
  await runner.settled();
}

/** The decrypted payloads a user's phones received, of one type, in order. */
export function received(bouncer: StandInBouncer, user: TestUser, type: 'message' | 'remove' = 'message'): Record<string, any>[] {
  return bouncer.deliveries.filter((d: Delivery) => d.payload.user_id === user.user_id && d.payload.type === type).map((d) => d.payload);
}

/** Zulip's "not idle": an event queue that receives messages, and presence active just now. */
export async function makeActive(s: TestServer, user: TestUser): Promise<void> {
  for (const [path, params] of [['/register', { event_types: ['message'] }], ['/users/me/presence', { status: 'active' }]] as const) {
    const reply = await s.request('POST', path, { as: user, params });
    if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  }
}

export async function setSettings(s: TestServer, user: TestUser, settings: Record<string, unknown>): Promise<void> {
  const reply = await s.request('PATCH', '/settings', { as: user, params: settings });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
}

export async function setSubscriptionProperty(s: TestServer, user: TestUser, streamId: number, property: string, value: unknown): Promise<void> {
  const reply = await s.request('POST', '/users/me/subscriptions/properties', {
    as: user,
    params: { subscription_data: [{ stream_id: streamId, property, value }] },
  });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
}

export async function setTopicPolicy(s: TestServer, user: TestUser, streamId: number, topic: string, policy: number): Promise<void> {
  const reply = await s.request('POST', '/user_topics', { as: user, params: { stream_id: streamId, topic, visibility_policy: policy } });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
}
