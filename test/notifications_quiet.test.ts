// When a message must not notify, as Zulip's UserMessageNotificationsData decides: the sender's
// own messages, a muted sender, a muted channel or topic (but not for direct messages and personal
// mentions), settings turned off, a recipient active in a client (unless online push is on), and
// a message the recipient can no longer see or has read by the time it would be sent.
import t from 'tap';
import { sendDirect, sendToStream } from './messaging_helpers.js';
import { makeActive, notifyWorld, received, setSettings, setSubscriptionProperty, setTopicPolicy, settle } from './notification_helpers.js';

const world = await notifyWorld(t);
const { s, bouncer } = world;

t.afterEach(() => {
  t.same(bouncer.problems, []);
});

t.test('Never for the sender\'s own message, even mentioning themselves or to themselves', async (t) => {
  const ada = await world.person('Ada');
  const channel = await world.channel([ada]);
  await sendToStream(s, ada, channel.name, 'me', '@**Ada** note to self');
  await sendDirect(s, ada, [ada.user_id], 'a self DM');
  await settle(s);
  t.same(received(bouncer, ada), []);
});

t.test('Never from a muted sender', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  t.equal((await s.request('POST', `/users/me/muted_users/${ada.user_id}`, { as: bob })).status, 200);
  const channel = await world.channel([ada, bob]);
  await sendDirect(s, ada, [bob.user_id], 'hello?');
  await sendToStream(s, ada, channel.name, 'x', '@**Bob** hello?');
  await settle(s);
  t.same(received(bouncer, bob), []);
});

t.test('A muted channel silences its channel setting and wildcard mentions, not personal mentions; a followed topic still notifies', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  await setSubscriptionProperty(s, bob, channel.id, 'push_notifications', true);
  await setSubscriptionProperty(s, bob, channel.id, 'is_muted', true);
  await sendToStream(s, ada, channel.name, 'a', 'ordinary');
  await sendToStream(s, ada, channel.name, 'a', '@**all** wildcard');
  const mention = await sendToStream(s, ada, channel.name, 'a', '@**Bob** personal');
  await setTopicPolicy(s, bob, channel.id, 'followed', 3);
  const followed = await sendToStream(s, ada, channel.name, 'followed', 'in a followed topic');
  await settle(s);
  t.same(received(bouncer, bob).map((p) => p.message_id), [mention, followed]);
});

t.test('A muted topic silences the channel setting and wildcard mentions there, not personal mentions; an unmuted topic of a muted channel notifies', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  await setSubscriptionProperty(s, bob, channel.id, 'push_notifications', true);
  await setTopicPolicy(s, bob, channel.id, 'noise', 1);
  await sendToStream(s, ada, channel.name, 'noise', 'ordinary');
  await sendToStream(s, ada, channel.name, 'noise', '@**all** wildcard');
  const mention = await sendToStream(s, ada, channel.name, 'noise', '@**Bob** personal');
  const elsewhere = await sendToStream(s, ada, channel.name, 'signal', 'another topic');
  await setSubscriptionProperty(s, bob, channel.id, 'is_muted', true);
  await setTopicPolicy(s, bob, channel.id, 'signal', 2);
  const unmuted = await sendToStream(s, ada, channel.name, 'signal', 'unmuted topic of a muted channel');
  await settle(s);
  t.same(received(bouncer, bob).map((p) => p.message_id), [mention, elsewhere, unmuted]);
});

t.test('Muting never silences direct messages', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  await setSubscriptionProperty(s, bob, channel.id, 'is_muted', true);
  const id = await sendDirect(s, ada, [bob.user_id], 'direct');
  await settle(s);
  t.match(received(bouncer, bob), [{ message_id: id }]);
});

t.test('enable_offline_push_notifications off: no push for direct messages and mentions', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  await setSettings(s, bob, { enable_offline_push_notifications: false });
  await sendDirect(s, ada, [bob.user_id], 'direct');
  await sendToStream(s, ada, channel.name, 'x', '@**Bob** mention');
  await sendToStream(s, ada, channel.name, 'x', '@**all** wildcard');
  await settle(s);
  t.same(received(bouncer, bob), []);
});

t.test('An active recipient is pushed to only with enable_online_push_notifications (on by default)', async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  await makeActive(s, bob);
  await makeActive(s, cy);
  await setSettings(s, cy, { enable_online_push_notifications: false });
  const id = await sendDirect(s, ada, [bob.user_id, cy.user_id], 'are you there?');
  await settle(s);
  t.match(received(bouncer, bob), [{ message_id: id }], 'online push on');
  t.same(received(bouncer, cy), [], 'active, online push off');
});

t.test('Idle as Zulip decides it: no queue receiving messages, or presence not active within 140 s', async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  for (const user of [bob, cy]) await setSettings(s, user, { enable_online_push_notifications: false });
  await makeActive(s, bob);
  s.db.prepare('UPDATE presence SET last_active_time = last_active_time - 141 WHERE user_id = ?').run(bob.user_id);
  t.equal((await s.request('POST', '/register', { as: cy, params: { event_types: ['typing'] } })).status, 200);
  t.equal((await s.request('POST', '/users/me/presence', { as: cy, params: { status: 'active' } })).status, 200);
  const id = await sendDirect(s, ada, [bob.user_id, cy.user_id], 'anyone?');
  await settle(s);
  t.match(received(bouncer, bob), [{ message_id: id }], 'last active 141 s ago');
  t.match(received(bouncer, cy), [{ message_id: id }], 'its only queue does not receive messages');
});

t.test('Not for a message read, deleted or no longer the recipient\'s by the time it would be sent', async (t) => {
  const [ada, bob, cy, dee] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy'), await world.person('Dee')];
  bouncer.mode.notify = 'server_error';
  const read = await sendDirect(s, ada, [bob.user_id], 'read before it went out');
  const deleted = await sendDirect(s, ada, [cy.user_id], 'deleted before it went out');
  await sendDirect(s, ada, [dee.user_id], 'to a user deactivated meanwhile');
  await settle(s);
  t.equal((await s.request('POST', '/messages/flags', { as: bob, params: { messages: [read], op: 'add', flag: 'read' } })).status, 200);
  t.equal((await s.request('DELETE', `/messages/${deleted}`, { as: ada })).status, 200);
  s.chat.admin.deactivateUser(dee.user_id);
  bouncer.mode.notify = 'ok';
  await new Promise((resolve) => setTimeout(resolve, 30));
  await settle(s);
  for (const user of [bob, cy, dee]) t.same(received(bouncer, user), []);
  t.equal(s.db.prepare("SELECT count(*) FROM delivery WHERE kind LIKE 'push_%'").pluck().get(), 0, 'nothing left to send');
});
