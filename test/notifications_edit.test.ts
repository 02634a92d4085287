// Notifications of an edit, as Zulip's maybe_enqueue_notifications_for_message_update decides: an
// edit of a channel message that newly mentions someone notifies them (their phones through the
// bouncer stand-in, with the edited content; a missed-message email through a real SMTP server),
// once; not who was mentioned before, not a direct message's recipients (notified of the message
// itself), not who the channel's settings notified of every message already, not the editor.
import t from 'tap';
import { type ReceivedMail, startSmtp } from './smtp.js';
import { sendDirect, sendToStream } from './messaging_helpers.js';
import { notifyWorld, received, setSubscriptionProperty, setTopicPolicy, settle } from './notification_helpers.js';
import type { TestServer, TestUser } from './helpers.js';
import { contextOf } from '../lib/context.js';

const smtp = await startSmtp();
t.teardown(() => smtp.close());
const world = await notifyWorld(t, { chat: { email: { transport: smtp.url, batchingSeconds: 0 } } });
const { s, bouncer } = world;

t.afterEach(() => {
  t.same(bouncer.problems, [], "every payload parses as the app's");
});

async function edit(s: TestServer, user: TestUser, id: number, content: string): Promise<void> {
  const reply = await s.request('PATCH', `/messages/${id}`, { as: user, params: { content } });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
}

/** Waits for the deliveries, and for the emails they send to arrive. */
async function delivered(): Promise<void> {
  await settle(s);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await settle(s);
}

const mailsTo = (user: TestUser) => smtp.received.filter((m: ReceivedMail) => m.envelope.to.includes(user.email));

t.test('An edit that mentions someone new notifies them once, with the edited content', async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  const channel = await world.channel([ada, bob, cy]);
  const id = await sendToStream(s, ada, channel.name, 'plans', 'who can check this?');
  await delivered();
  t.same(received(bouncer, bob), [], 'no mention: nobody notified');

  await edit(s, ada, id, 'who can check this? @**Bob**');
  await delivered();
  t.match(received(bouncer, bob), [{ message_id: id, recipient_type: 'channel', channel_id: channel.id, topic: 'plans', content: 'who can check this? @Bob' }], 'the newly mentioned user is pushed to');
  t.equal(mailsTo(bob).length, 1, 'and emailed');
  t.match(mailsTo(bob)[0]!.parsed.text, /who can check this\? @Bob/, "with the edited content");

  await edit(s, ada, id, 'who can check this? @**Bob** (typo fixed)');
  await edit(s, ada, id, 'who can check this, @**Bob** or @**Cy**?');
  await delivered();
  t.equal(received(bouncer, bob).length, 1, 'mentioned before the edits: not notified again');
  t.equal(mailsTo(bob).length, 1);
  t.match(received(bouncer, cy), [{ message_id: id, content: 'who can check this, @Bob or @Cy?' }], 'the one the last edit adds is');
  t.same(received(bouncer, ada), [], 'never the editor');
});

t.test('A wildcard mention added by an edit notifies the subscribers as the message would have', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  const id = await sendToStream(s, ada, channel.name, 'all hands', 'meeting at noon');
  await edit(s, ada, id, 'meeting at noon @**all**');
  await delivered();
  t.match(received(bouncer, bob), [{ message_id: id, content: 'meeting at noon @all' }]);
});

t.test("An edit of a direct message notifies nobody again: its recipients were notified of the message", async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  const id = await sendDirect(s, ada, [bob.user_id, cy.user_id], 'lunch?');
  await delivered();
  t.equal(received(bouncer, bob).length, 1, 'the message itself notifies');
  await edit(s, ada, id, 'lunch, @**Bob**?');
  await delivered();
  t.equal(received(bouncer, bob).length, 1, 'the edit does not');
});

t.test("Who the channel's push setting notified of the message is not notified of the edit's mention", async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  await setSubscriptionProperty(s, bob, channel.id, 'push_notifications', true);
  const id = await sendToStream(s, ada, channel.name, 'news', 'an update');
  await delivered();
  t.equal(received(bouncer, bob).length, 1, 'notified by the channel setting');
  await edit(s, ada, id, 'an update for @**Bob**');
  await delivered();
  t.equal(received(bouncer, bob).length, 1, 'not again for the mention the edit adds');
});

t.test('A user who muted the sender is not notified of an edit mentioning them', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  t.equal((await s.request('POST', `/users/me/muted_users/${ada.user_id}`, { as: bob })).status, 200);
  const id = await sendToStream(s, ada, channel.name, 'misc', 'hello');
  await edit(s, ada, id, 'hello @**Bob**');
  await delivered();
  t.same(received(bouncer, bob), []);
  t.same(mailsTo(bob), []);
});

t.test("Who follows the topic was notified of the message, and is not of the edit's mention", async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  await setTopicPolicy(s, bob, channel.id, 'roadmap', 3);
  const id = await sendToStream(s, ada, channel.name, 'roadmap', 'next quarter');
  await delivered();
  t.match(received(bouncer, bob), [{ message_id: id }], 'notified as a follower');
  await edit(s, ada, id, 'next quarter, @**Bob**');
  await delivered();
  t.equal(received(bouncer, bob).length, 1, 'not again');
});

t.test("Who the channel's email setting emails every message is not emailed again for the edit's mention, but pushed to", async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  await setSubscriptionProperty(s, bob, channel.id, 'email_notifications', true);
  const id = await sendToStream(s, ada, channel.name, 'mail', 'a note');
  await delivered();
  t.equal(mailsTo(bob).length, 1, 'emailed by the channel setting');
  t.same(received(bouncer, bob), [], 'not pushed: no push setting names it');
  await edit(s, ada, id, 'a note for @**Bob**');
  await delivered();
  t.equal(mailsTo(bob).length, 1, 'not emailed again');
  t.same(received(bouncer, bob), [], 'nor pushed: Zulip takes any such setting as notified already');
});

t.test('An edit that moves the topic and adds a mention notifies with the new topic', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  const id = await sendToStream(s, ada, channel.name, 'draft', 'see this');
  const reply = await s.request('PATCH', `/messages/${id}`, { as: ada, params: { content: 'see this @**Bob**', topic: 'final', propagate_mode: 'change_one' } });
  t.equal(reply.status, 200);
  await delivered();
  t.match(received(bouncer, bob), [{ message_id: id, topic: 'final', content: 'see this @Bob' }]);
});

t.test('An edit whose transaction rolls back notifies no one, and leaves no delivery', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  const id = await sendToStream(s, ada, channel.name, 'undo', 'draft text');
  await delivered();
  const deliveries = () => s.db.prepare('SELECT count(*) FROM delivery').pluck().get();
  const before = deliveries();
  t.throws(() =>
    contextOf(s.chat).tx(() => {
      s.chat.api.messages.edit(ada.user_id, { messageId: id, content: 'draft text @**Bob**' });
      throw new Error('the surrounding change fails');
    }),
  );
  t.equal(deliveries(), before, 'no delivery row');
  await delivered();
  t.same(received(bouncer, bob), [], 'no push');
  t.same(mailsTo(bob), [], 'no email');
  t.match(s.db.prepare('SELECT content FROM message WHERE id = ?').pluck().get(id), 'draft text', 'the edit itself rolled back');
});
