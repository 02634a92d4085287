// Outgoing webhooks end to end against a real bot server on 127.0.0.1: a mention in a channel or a
// direct message POSTs Zulip's payload after the message commits, and the answer's `content` is
// posted back where the message was, by the bot (https://zulip.com/api/outgoing-webhooks).
import t, { type Test } from 'tap';
import { contextOf } from '../lib/context.js';
import { createTestChat } from '../lib/testing/index.js';
import { botOf } from './bot_helpers.js';
import { sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { channel, outgoingBot, outgoingServer, pendingDeliveries, postedBy, settle, startTarget, tokenOf } from './outgoing_helpers.js';

/** The message fields of Zulip's example payload, and content_type (Zulip's MessageDict has it too). */
const MESSAGE_KEYS = [
  'avatar_url',
  'client',
  'content',
  'content_type',
  'display_recipient',
  'id',
  'is_me_message',
  'reactions',
  'recipient_id',
  'rendered_content',
  'sender_email',
  'sender_full_name',
  'sender_id',
  'sender_realm_str',
  'stream_id',
  'subject',
  'submessages',
  'timestamp',
  'topic_links',
  'type',
];

async function world(t: Test, answer: Parameters<typeof startTarget>[1] = { body: { content: 'African or European?' } }) {
  const s = await outgoingServer({ realm: { name: 'Acme', url: 'https://chat.acme.test' } });
  t.teardown(() => s.close());
  const target = await startTarget(t, answer);
  const iago = await s.user('member', { fullName: 'Iago' });
  const bot = await outgoingBot(s, iago, target.url);
  return { s, target, iago, bot };
}

t.test("a mention in a channel POSTs Zulip's payload: data, message, bot_email, bot_full_name, token, trigger", async (t) => {
  const { s, target, iago, bot } = await world(t);
  const streamId = await channel(s, [iago]);
  const content = '@**Echo Bot** What is the air-speed velocity of an unladen swallow?';
  const id = await sendToStream(s, iago, 'Verona', 'Verona2', content);
  await target.received(1);
  await settle(s);
  const request = target.requests[0]!;
  t.equal(request.method, 'POST');
  t.equal(request.headers['content-type'], 'application/json');
  t.equal(request.headers['user-agent'], 'ZulipOutgoingWebhook/12.0-parley');
  const body = JSON.parse(request.body);
  t.same(Object.keys(body), ['data', 'message', 'bot_email', 'bot_full_name', 'token', 'trigger']);
  t.equal(body.data, content, 'data: the Markdown of the message');
  t.equal(body.bot_email, bot.email);
  t.equal(body.bot_full_name, 'Echo Bot');
  t.equal(body.token, tokenOf(s, bot.user_id));
  t.equal(body.trigger, 'mention');
  t.same(Object.keys(body.message).sort(), MESSAGE_KEYS);
  t.match(body.message, {
    id,
    type: 'stream',
    content,
    content_type: 'text/x-markdown',
    rendered_content: `<p><span class="user-mention" data-user-id="${bot.user_id}">@Echo Bot</span> What is the air-speed velocity of an unladen swallow?</p>`,
    sender_id: iago.user_id,
    sender_full_name: 'Iago',
    sender_email: iago.email,
    avatar_url: /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/,
    display_recipient: 'Verona',
    stream_id: streamId,
    subject: 'Verona2',
    topic_links: [],
    is_me_message: false,
    reactions: [],
    submessages: [],
  });
  t.notOk('flags' in body.message, 'no flags');
});

t.test('the reply is posted by the bot in the same channel and topic; the delivery is done', async (t) => {
  const { s, target, iago, bot } = await world(t);
  const streamId = await channel(s, [iago]);
  await sendToStream(s, iago, 'Verona', 'swallows', '@**Echo Bot** What is the air-speed velocity?');
  await target.received(1);
  await settle(s);
  t.match(postedBy(s, bot.user_id), [{ content: 'African or European?', stream_id: streamId, topic: 'swallows', sending_client: 'OutgoingWebhookResponse' }]);
  t.equal(pendingDeliveries(s), 0);
  await settle(s);
  t.equal(postedBy(s, bot.user_id).length, 1, 'posted once');
});

t.test('a direct message triggers "direct_message"; the reply goes to the same conversation, a group one too', async (t) => {
  const { s, target, iago, bot } = await world(t);
  const othello = await s.user('member', { fullName: 'Othello' });
  const one = await sendDirect(s, iago, [bot.user_id], 'ping');
  await target.received(1);
  await settle(s);
  const group = await sendDirect(s, iago, [bot.user_id, othello.user_id], 'ping all');
  await target.received(2);
  await settle(s);
  t.same(target.requests.map((r) => JSON.parse(r.body).trigger), ['direct_message', 'direct_message']);
  t.match(JSON.parse(target.requests[0]!.body).message, { type: 'private', display_recipient: [{ id: Math.min(iago.user_id, bot.user_id) }, { id: Math.max(iago.user_id, bot.user_id) }] });
  const groupOf = (id: number) => s.db.prepare('SELECT direct_group_id FROM message WHERE id = ?').pluck().get(id);
  t.same(
    postedBy(s, bot.user_id).map((m) => m.direct_group_id),
    [groupOf(one), groupOf(group)],
  );
});

t.test('response_not_required, no content, or a blank one: nothing is posted', async (t) => {
  const { s, target, iago, bot } = await world(t, { body: { content: 'never posted', response_not_required: true } });
  target.script.push({ body: {} }, { body: { content: '   ' } }, { body: '""' });
  for (const word of ['one', 'two', 'three', 'four']) await sendDirect(s, iago, [bot.user_id], word);
  await target.received(4);
  await settle(s);
  t.same(postedBy(s, bot.user_id), []);
  t.equal(pendingDeliveries(s), 0);
});

t.test('what triggers nothing: a bot subscribed but not mentioned, a mention in code, a message from a bot', async (t) => {
  const { s, target, iago, bot } = await world(t);
  await channel(s, [iago, bot]);
  await sendToStream(s, iago, 'Verona', 't', 'no mention here');
  await sendToStream(s, iago, 'Verona', 't', '`@**Echo Bot**` in code');
  await sendToStream(s, iago, 'Verona', 't', '@_**Echo Bot** a silent mention');
  const generic = await botOf(s, iago, 'plain');
  await s.request('POST', '/users/me/subscriptions', { as: generic, params: { subscriptions: [{ name: 'Verona' }] } });
  t.equal((await s.request('POST', '/messages', { as: generic, params: { type: 'stream', to: 'Verona', topic: 't', content: '@**Echo Bot** hi' } })).status, 200);
  await settle(s);
  t.equal(pendingDeliveries(s), 0);
  t.equal(target.requests.length, 0);
});

t.test('a mentioned bot answers in a private channel it may not send to (Zulip skips the access check for it)', async (t) => {
  const { s, target, iago, bot } = await world(t);
  await subscribe(s, iago, ['secret'], { invite_only: true });
  await sendToStream(s, iago, 'secret', 'plans', '@**Echo Bot** help');
  await target.received(1);
  await settle(s);
  t.match(postedBy(s, bot.user_id), [{ content: 'African or European?', topic: 'plans' }]);
});

t.test('a message whose transaction rolls back triggers nothing', async (t) => {
  const { s, target, iago, bot } = await world(t);
  t.throws(() =>
    contextOf(s.chat).tx(() => {
      s.chat.api.messages.send(iago.user_id, { type: 'direct', to: [bot.user_id], content: 'never sent' });
      throw new Error('the surrounding change fails');
    }),
  );
  await settle(s);
  t.equal(pendingDeliveries(s), 0);
  t.equal(target.requests.length, 0);
});

t.test('a message deleted before its delivery is not sent', async (t) => {
  const { s, target, iago, bot } = await world(t);
  contextOf(s.chat).tx(() => {
    const { id } = s.chat.api.messages.send(iago.user_id, { type: 'direct', to: [bot.user_id], content: 'gone soon' });
    s.chat.api.messages.delete(iago.user_id, { messageId: id });
  });
  await settle(s);
  t.equal(target.requests.length, 0);
  t.equal(pendingDeliveries(s), 0);
});

t.test('a reply that cannot be posted (a participant deactivated meanwhile) is dropped; the delivery still ends', async (t) => {
  const { s, target, iago, bot } = await world(t);
  const othello = await s.user('member', { fullName: 'Othello' });
  contextOf(s.chat).tx(() => {
    s.chat.api.messages.send(iago.user_id, { type: 'direct', to: [bot.user_id, othello.user_id], content: 'ping all' });
    s.chat.api.users.deactivate(s.owner.user_id, { userId: othello.user_id });
  });
  await target.received(1);
  await settle(s);
  t.same(postedBy(s, bot.user_id), [], 'nothing posted');
  t.equal(pendingDeliveries(s), 0, 'not tried again');
});

t.test("the test kit's chat reaches a bot server on 127.0.0.1: a mention gets the reply", async (t) => {
  const chat = await createTestChat();
  t.teardown(() => chat.close());
  const target = await startTarget(t, { body: { content: 'pong' } });
  const owner = chat.users.owner;
  const bot = await chat.api.users.createBot(owner, { fullName: 'Echo Bot', shortName: 'echo', botType: 3, payloadUrl: target.url });
  chat.api.messages.send(owner, { type: 'stream', to: 'general', topic: 'ping', content: '@**Echo Bot** ping' });
  await target.received(1);
  const replies = () => chat.db.prepare('SELECT content, topic FROM message WHERE sender_id = ?').all(bot.user_id);
  while (replies().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  t.same(replies(), [{ content: 'pong', topic: 'ping' }]);
});
