// Mobile push notifications of messages, end to end: after a message commits, each notified user's
// registered phones get an E2EE notification through the bouncer stand-in, which decrypts it with
// the phone's key and parses it as Zulip's mobile app does (NotifPayloadNewMessage,
// NotifPayloadRemove). The triggers of Zulip's rules: direct messages, mentions of a person or a
// group, wildcard mentions, followed topics, channels with push notifications on.
import t from 'tap';
import { gravatarUrl } from '../lib/domain/avatars.js';
import { sendDirect, sendToStream } from './messaging_helpers.js';
import { notifyWorld, received, setSettings, setSubscriptionProperty, setTopicPolicy, settle } from './notification_helpers.js';

const world = await notifyWorld(t);
const { s, bouncer } = world;
const realm = s.db.prepare('SELECT url, name FROM realm').get() as { url: string; name: string };

t.afterEach(() => {
  t.same(bouncer.problems, [], 'every payload parses as the app\'s, sent at the right priority');
});

t.test('A direct message notifies its recipient\'s phones with the payload the app parses', async (t) => {
  const ada = await world.person('Ada');
  const bob = await world.person('Bob', 'apns');
  const id = await sendDirect(s, ada, [bob.user_id], 'Lunch at **noon**? :smile:');
  await settle(s);
  const [payload, ...more] = received(bouncer, bob);
  t.same(more, [], 'one notification');
  t.same(payload, {
    content: 'Lunch at noon? 🙂',
    message_id: id,
    realm_name: realm.name,
    realm_url: realm.url,
    recipient_type: 'direct',
    recipient_user_ids: [ada.user_id, bob.user_id].sort((a, b) => a - b),
    sender_avatar_url: gravatarUrl(ada.email),
    sender_full_name: 'Ada',
    sender_id: ada.user_id,
    time: s.db.prepare('SELECT date_sent FROM message WHERE id = ?').pluck().get(id),
    type: 'message',
    user_id: bob.user_id,
  });
  t.same(received(bouncer, ada), [], 'never to the sender');
});

t.test('A group direct message notifies each other participant, naming all of them', async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  const id = await sendDirect(s, ada, [bob.user_id, cy.user_id], 'hi both');
  await settle(s);
  const everyone = [ada, bob, cy].map((u) => u.user_id).sort((a, b) => a - b);
  for (const user of [bob, cy]) t.match(received(bouncer, user), [{ message_id: id, recipient_type: 'direct', recipient_user_ids: everyone }]);
  t.same(received(bouncer, ada), []);
});

t.test('A personal mention in a channel notifies the mentioned user, with the channel and topic', async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  const channel = await world.channel([ada, bob, cy]);
  const id = await sendToStream(s, ada, channel.name, 'plans', '@**Bob** can you check?');
  await settle(s);
  const [payload] = received(bouncer, bob);
  t.match(payload, { message_id: id, recipient_type: 'channel', channel_id: channel.id, channel_name: channel.name, topic: 'plans', content: '@Bob can you check?' });
  t.notOk('mentioned_user_group_id' in payload!, 'a personal mention names no group');
  t.same(received(bouncer, cy), [], 'other subscribers are not notified');
});

t.test('A group mention names the group (the smallest one, unless the user is also mentioned by name)', async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  const channel = await world.channel([ada, bob, cy]);
  const group = async (name: string, members: number[]) => {
    t.equal((await s.request('POST', '/user_groups/create', { as: ada, params: { name, description: 'd', members } })).status, 200);
    return s.db.prepare('SELECT id FROM user_group WHERE name = ?').pluck().get(name) as number;
  };
  const big = await group(`big-${bob.user_id}`, [bob.user_id, cy.user_id, ada.user_id]);
  const small = await group(`small-${bob.user_id}`, [bob.user_id, cy.user_id]);
  await sendToStream(s, ada, channel.name, 'ops', `@*big-${bob.user_id}* @*small-${bob.user_id}* deploy`);
  await sendToStream(s, ada, channel.name, 'ops', `@*big-${bob.user_id}* and @**Bob**`);
  await settle(s);
  const [first, second] = received(bouncer, bob);
  t.match(first, { mentioned_user_group_id: small, mentioned_user_group_name: `small-${bob.user_id}` });
  t.notOk('mentioned_user_group_id' in second!, 'mentioned by name too: no group');
  t.match(received(bouncer, cy), [{ mentioned_user_group_id: small }, { mentioned_user_group_id: big }]);
  t.same(received(bouncer, ada), [], 'not the sender, though a member');
});

t.test('Wildcard mentions notify subscribers with wildcard_mentions_notify on; @topic only the topic\'s participants', async (t) => {
  const [ada, bob, cy, dee] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy'), await world.person('Dee')];
  const channel = await world.channel([ada, bob, cy, dee]);
  await setSettings(s, cy, { wildcard_mentions_notify: false });
  await setSubscriptionProperty(s, dee, channel.id, 'wildcard_mentions_notify', false);
  const all = await sendToStream(s, ada, channel.name, 'news', '@**all** release today');
  await settle(s);
  t.match(received(bouncer, bob), [{ message_id: all }]);
  t.same(received(bouncer, cy), [], 'off globally');
  t.same(received(bouncer, dee), [], 'off for this channel');

  await sendToStream(s, bob, channel.name, 'thread', 'I started this');
  const topic = await sendToStream(s, ada, channel.name, 'thread', '@**topic** any news?');
  await sendToStream(s, ada, channel.name, 'elsewhere', '@**topic** nobody here');
  await settle(s);
  t.match(received(bouncer, bob), [{ message_id: all }, { message_id: topic }], 'a participant of the topic');
  t.same(received(bouncer, cy), [], 'not a participant');
});

t.test('Messages in a followed topic notify (enable_followed_topic_push_notifications)', async (t) => {
  const [ada, bob, cy] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy')];
  const channel = await world.channel([ada, bob, cy]);
  await setTopicPolicy(s, bob, channel.id, 'Roadmap', 3);
  await setTopicPolicy(s, cy, channel.id, 'roadmap', 3);
  await setSettings(s, cy, { enable_followed_topic_push_notifications: false });
  const id = await sendToStream(s, ada, channel.name, 'roadmap', 'Q3 draft is up');
  await sendToStream(s, ada, channel.name, 'other', 'not followed');
  await settle(s);
  t.match(received(bouncer, bob), [{ message_id: id, topic: 'roadmap' }], 'topics match whatever their case');
  t.same(received(bouncer, cy), [], 'the setting is off');
});

t.test('A channel with push notifications on notifies every message; the global setting does too, unless the channel says no', async (t) => {
  const [ada, bob, cy, dee] = [await world.person('Ada'), await world.person('Bob'), await world.person('Cy'), await world.person('Dee')];
  const channel = await world.channel([ada, bob, cy, dee]);
  await setSubscriptionProperty(s, bob, channel.id, 'push_notifications', true);
  await setSettings(s, cy, { enable_stream_push_notifications: true });
  await setSettings(s, dee, { enable_stream_push_notifications: true });
  await setSubscriptionProperty(s, dee, channel.id, 'push_notifications', false);
  const id = await sendToStream(s, ada, channel.name, 'chatter', 'just talking');
  await settle(s);
  t.match(received(bouncer, bob), [{ message_id: id }], 'the channel\'s own setting');
  t.match(received(bouncer, cy), [{ message_id: id }], 'the global setting');
  t.same(received(bouncer, dee), [], 'the channel\'s setting wins over the global one');
});

t.test('Content is shortened as Zulip does: 200 characters and an ellipsis; quotes next to new text collapse', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  await sendDirect(s, ada, [bob.user_id], 'x'.repeat(250));
  await sendDirect(s, ada, [bob.user_id], '> what Bob said\n\nMy answer');
  await sendDirect(s, ada, [bob.user_id], '```spoiler Plot\nhidden\n```\n1. one\n2. two');
  await settle(s);
  t.same(
    received(bouncer, bob).map((p) => p.content),
    ['x'.repeat(200) + '…', '[…]\nMy answer', 'Plot (…)\n\n1. one\n2. two'],
  );
});

t.test('Empty topics show as Zulip\'s "general chat"', async (t) => {
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const channel = await world.channel([ada, bob]);
  await sendToStream(s, ada, channel.name, '', '@**Bob** hello');
  await settle(s);
  t.match(received(bouncer, bob), [{ topic: 'general chat' }]);
});

t.test('push.redactContent (Zulip\'s PUSH_NOTIFICATION_REDACT_CONTENT): "New message" instead of the content', async (t) => {
  const redacting = await notifyWorld(t, { push: { redactContent: true } });
  const [ada, bob] = [await redacting.person('Ada'), await redacting.person('Bob')];
  await sendDirect(redacting.s, ada, [bob.user_id], 'the secret plan');
  await settle(redacting.s);
  t.match(received(redacting.bouncer, bob), [{ content: 'New message', sender_full_name: 'Ada' }]);
  t.same(redacting.bouncer.problems, []);
});
