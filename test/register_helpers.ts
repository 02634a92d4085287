// Shared by the client start-up tests (register_flutter, register_terminal): a world with channels
// (public, private, one left), direct messages (one-to-one, group, to oneself), a starred message,
// an unread mention, a custom emoji and a user status, and the wire form of a client's requests.
import type { Test } from 'tap';
import type { z } from 'zod';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { ok, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { IMAGES, uploadEmoji } from './user_status_helpers.js';

export interface World {
  s: TestServer;
  me: TestUser;
  alice: TestUser;
  bob: TestUser;
  /** Message ids, oldest first: channel, one-to-one, group, to oneself. */
  messages: { channel: number; direct: number; group: number; self: number };
}

export async function clientWorld(t: Test): Promise<World> {
  const s = await startServer();
  t.teardown(() => s.close());
  const me = await s.user('member', { fullName: 'Mia Mobile' });
  const alice = await s.user('member', { fullName: 'Alice Client' });
  const bob = await s.user('member', { fullName: 'Bob Client' });
  ok(t, await subscribe(s, me, ['lobby', 'left behind'], { principals: [me.user_id, alice.user_id] }));
  ok(t, await subscribe(s, alice, ['secret'], { principals: [me.user_id, alice.user_id], invite_only: true }));
  ok(t, await subscribe(s, bob, ['elsewhere']));
  ok(t, await s.request('DELETE', '/users/me/subscriptions', { as: me, params: { subscriptions: ['left behind'] } }));
  const channel = await sendToStream(s, alice, 'lobby', 'start-up', "hello @**Mia Mobile**");
  const direct = await sendDirect(s, alice, [me.user_id], 'a direct message');
  const group = await sendDirect(s, bob, [me.user_id, alice.user_id], 'a group message');
  const self = await sendDirect(s, me, [me.user_id], 'a note to myself');
  ok(t, await s.request('POST', '/messages/flags', { as: me, params: { messages: [direct], op: 'add', flag: 'starred' } }));
  await uploadEmoji(s, alice, 'parrot', [{ filename: 'parrot.png', data: IMAGES.png }]);
  ok(t, await s.request('POST', '/users/me/status', { as: alice, params: { status_text: 'on the road', emoji_name: 'car' } }));
  return { s, me, alice, bob, messages: { channel, direct, group, self } };
}

/** Parses with the client's schema; on failure, the issues (so the test names the missing key). */
export function parses(t: Test, schema: z.ZodType, value: unknown, label: string): void {
  const result = schema.safeParse(value);
  t.ok(result.success, result.success ? label : `${label}: ${JSON.stringify(result.error.issues.slice(0, 5))}`);
}
