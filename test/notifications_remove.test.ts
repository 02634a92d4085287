// Withdrawing push notifications: once a pushed message is read (however: flags, a narrow, a
// topic, all messages) or deleted, the user's phones get a `remove` payload (NotifPayloadRemove)
// at the lower priority, naming at most the newest 200 messages, as Zulip's
// handle_remove_push_notification. And the bouncer's answers are honoured: delete_token_ids and
// realm_push_status.
import t from 'tap';
import { activeDevice } from './push_helpers.js';
import { sendDirect, sendToStream } from './messaging_helpers.js';
import { notifyWorld, received, settle } from './notification_helpers.js';

const world = await notifyWorld(t);
const { s, bouncer } = world;

t.afterEach(() => {
  t.same(bouncer.problems, [], 'removals parse as the app\'s NotifPayloadRemove, at the lower priority');
});

const flag = (user: { auth: string }, messages: number[]) => s.request('POST', '/messages/flags', { as: user as never, params: { messages, op: 'add', flag: 'read' } });

t.test('Reading a pushed message withdraws it from the phones; reading one that was not pushed sends nothing', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob', 'apns')];
  const channel = await world.channel([ada, bob]);
  const pushed = await sendDirect(s, ada, [bob.user_id], 'ping');
  const quiet = await sendToStream(s, ada, channel.name, 'x', 'no notification for this');
  await settle(s);
  t.equal((await flag(bob, [quiet])).status, 200);
  await settle(s);
  t.same(received(bouncer, bob, 'remove'), [], 'nothing was pushed for it');
  t.equal((await flag(bob, [pushed])).status, 200);
  await settle(s);
  t.match(received(bouncer, bob, 'remove'), [{ type: 'remove', message_ids: [pushed], user_id: bob.user_id }]);
  t.equal((await flag(bob, [pushed])).status, 200);
  await settle(s);
  t.equal(received(bouncer, bob, 'remove').length, 1, 'withdrawn once');
});

t.test('Marking a topic, a narrow or everything read withdraws what it covers', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  const inTopic = await sendToStream(s, ada, channel.name, 'plans', '@**Bob** one');
  const inNarrow = await sendToStream(s, ada, channel.name, 'other', '@**Bob** two');
  const direct = await sendDirect(s, ada, [bob.user_id], 'three');
  await settle(s);
  t.equal((await s.request('POST', '/mark_topic_as_read', { as: bob, params: { stream_id: channel.id, topic_name: 'plans' } })).status, 200);
  await settle(s);
  const narrow = [{ operator: 'channel', operand: channel.id }, { operator: 'topic', operand: 'other' }];
  const params = { anchor: 'newest', num_before: 10, num_after: 0, narrow, op: 'add', flag: 'read' };
  t.equal((await s.request('POST', '/messages/flags/narrow', { as: bob, params })).status, 200);
  await settle(s);
  t.equal((await s.request('POST', '/mark_all_as_read', { as: bob })).status, 200);
  await settle(s);
  t.same(received(bouncer, bob, 'remove').map((p) => p.message_ids), [[inTopic], [inNarrow], [direct]]);
});

t.test('Deleting a pushed message withdraws it from every phone showing it', async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  const id = await sendDirect(s, ada, [bob.user_id, cy.user_id], 'oops');
  await settle(s);
  t.equal((await s.request('DELETE', `/messages/${id}`, { as: ada })).status, 200);
  await settle(s);
  for (const user of [bob, cy]) t.match(received(bouncer, user, 'remove'), [{ message_ids: [id] }]);
});

t.test('A removal names the newest 200 messages, in order', async (t) => {
  const [ada, bob] = [await s.user('member', { fullName: 'Ada' }), await s.user('member', { fullName: 'Bob' })];
  const ids: number[] = [];
  for (let i = 0; i < 230; i++) ids.push(s.chat.api.messages.send(ada.user_id, { type: 'direct', to: [bob.user_id], content: `m${i}` }).id);
  // As if each had been pushed to a phone registered before (Bob had none then).
  s.db.prepare('UPDATE user_message SET flags = flags | 4096 WHERE user_id = ?').run(bob.user_id);
  await activeDevice(s, bob, bouncer);
  t.equal((await s.request('POST', '/mark_all_as_read', { as: bob })).status, 200);
  await settle(s);
  t.same(received(bouncer, bob, 'remove').map((p) => p.message_ids), [ids.slice(-200)]);
  t.equal(s.db.prepare('SELECT count(*) FROM user_message WHERE user_id = ? AND (flags & 4096) <> 0').pluck().get(bob.user_id), 0, 'none left marked as shown');
});

t.test('A token the bouncer reports deleted leaves its device, and is not pushed to again', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const token = s.db.prepare('SELECT push_token_id FROM device WHERE user_id = ?').pluck().get(bob.user_id) as string;
  bouncer.deleteTokenIds.add(token);
  await sendDirect(s, ada, [bob.user_id], 'first');
  await settle(s);
  bouncer.deleteTokenIds.delete(token);
  t.equal(s.db.prepare('SELECT push_token_id FROM device WHERE user_id = ?').pluck().get(bob.user_id), null);
  const requests = bouncer.requests.length;
  await sendDirect(s, ada, [bob.user_id], 'second');
  await settle(s);
  t.equal(bouncer.requests.length, requests, 'no request for a user without a device');
});

t.test('realm_push_status.can_push false: the organization stops pushing until the bouncer says it may again', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  bouncer.canPush = false;
  await sendDirect(s, ada, [bob.user_id], 'first');
  await settle(s);
  t.equal((await s.request('GET', '/server_settings')).body.push_notifications_enabled, false);
  const requests = bouncer.requests.length;
  await sendDirect(s, ada, [bob.user_id], 'second');
  await settle(s);
  t.equal(bouncer.requests.length, requests, 'nothing is pushed meanwhile');
  bouncer.canPush = true;
  t.equal((await s.request('POST', '/mobile_push/e2ee/test_notification', { as: bob })).status, 200);
  t.equal((await s.request('GET', '/server_settings')).body.push_notifications_enabled, true);
  const third = await sendDirect(s, ada, [bob.user_id], 'third');
  await settle(s);
  t.equal(received(bouncer, bob).at(-1)!.message_id, third);
});
