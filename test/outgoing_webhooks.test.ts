// Outgoing webhook bots, the parts decided before any request is sent: which bots a message
// triggers and why, the request body in Zulip's and Slack's formats, what a response asks to post,
// and the failure notices, as Zulip's zerver/lib/outgoing_webhook.py and get_service_bot_events.
import t from 'tap';
import { contextOf } from '../lib/context.js';
import { serviceBotEvents, type TriggerInput } from '../lib/integrations/outgoing_triggers.js';
import {
  encodeHashComponent,
  formBody,
  interpretResponse,
  messageLinkUrl,
  slackRequest,
  transportFailure,
  zulipRequest,
  type NoticeContext,
  type OutgoingMessage,
} from '../lib/integrations/outgoing_webhook.js';
import { noticeContext, outgoingMessage, outgoingServices, serviceBotsAmong } from '../lib/integrations/outgoing_message.js';
import { startServer, withAuth } from './helpers.js';

const ids = (...list: number[]) => new Set(list);
const base: TriggerInput = { senderIsBot: false, kind: 'stream', recipientIds: ids(1, 2), mentionedUserIds: ids(), serviceBots: [] };
const OUTGOING = { id: 9, botType: 3 };
const EMBEDDED = { id: 10, botType: 4 };

t.test('a channel message that mentions a service bot triggers "mention", subscribed or not', async (t) => {
  t.same(serviceBotEvents({ ...base, mentionedUserIds: ids(9), serviceBots: [OUTGOING] }), [{ botId: 9, queue: 'outgoing_webhooks', trigger: 'mention' }]);
  t.same(serviceBotEvents({ ...base, recipientIds: ids(1, 9, 10), mentionedUserIds: ids(9, 10), serviceBots: [OUTGOING, EMBEDDED] }), [
    { botId: 9, queue: 'outgoing_webhooks', trigger: 'mention' },
    { botId: 10, queue: 'embedded_bots', trigger: 'mention' },
  ]);
  t.same(serviceBotEvents({ ...base, recipientIds: ids(1, 9), serviceBots: [OUTGOING] }), [], 'a subscribed bot that is not mentioned: nothing');
  t.same(serviceBotEvents({ ...base, serviceBots: [OUTGOING] }), [], 'neither mentioned nor a recipient (a mention inside code): nothing');
});

t.test('a direct message a service bot receives triggers "direct_message", one-to-one or in a group', async (t) => {
  const dm: TriggerInput = { ...base, kind: 'private', recipientIds: ids(1, 9), serviceBots: [OUTGOING] };
  t.same(serviceBotEvents(dm), [{ botId: 9, queue: 'outgoing_webhooks', trigger: 'direct_message' }]);
  t.same(serviceBotEvents({ ...dm, recipientIds: ids(1, 2, 9, 10), serviceBots: [OUTGOING, EMBEDDED] }).map((e) => [e.botId, e.trigger]), [
    [9, 'direct_message'],
    [10, 'direct_message'],
  ]);
  t.same(serviceBotEvents({ ...dm, recipientIds: ids(1, 2), mentionedUserIds: ids(9) }), [], 'mentioned in a direct message it does not receive: nothing');
});

t.test('messages from bots trigger nothing; other bot types are never triggered', async (t) => {
  t.same(serviceBotEvents({ ...base, senderIsBot: true, mentionedUserIds: ids(9), serviceBots: [OUTGOING] }), []);
  t.same(serviceBotEvents({ ...base, mentionedUserIds: ids(7, 8), serviceBots: [{ id: 7, botType: 1 }, { id: 8, botType: 2 }] }), []);
});

const MESSAGE: OutgoingMessage = {
  id: 112,
  type: 'stream',
  content: '@**Echo Bot** What is the air-speed velocity of an unladen swallow?',
  rendered_content: '<p><span class="user-mention" data-user-id="9">@Echo Bot</span> What is the air-speed velocity of an unladen swallow?</p>',
  sender_id: 5,
  sender_full_name: 'Iago Z',
  sender_email: 'iago@example.com',
  avatar_url: 'https://secure.gravatar.com/avatar/1f4f?d=identicon&version=1',
  timestamp: 1527876931,
  subject: 'Verona2',
  stream_id: 5,
  display_recipient: 'Verona',
  recipient_id: 10,
  client: 'website',
  content_type: 'text/x-markdown',
  submessages: [],
  reactions: [],
  topic_links: [],
  is_me_message: false,
  sender_realm_str: '',
};
const BOT = { id: 9, email: 'echo-bot@chat.acme.test', fullName: 'Echo Bot', token: 'xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0' };

t.test("Zulip's request body: data, message, bot_email, bot_full_name, token, trigger", async (t) => {
  const body = zulipRequest(BOT, 'mention', MESSAGE);
  t.same(Object.keys(body), ['data', 'message', 'bot_email', 'bot_full_name', 'token', 'trigger']);
  t.same(body, { data: MESSAGE.content, message: MESSAGE, bot_email: 'echo-bot@chat.acme.test', bot_full_name: 'Echo Bot', token: BOT.token, trigger: 'mention' });
});

t.test("Slack's form: Zulip's fields, encoded as Python's requests does; none for direct messages", async (t) => {
  const pairs = slackRequest(BOT, 'mention', MESSAGE, { id: 1, host: 'chat.acme.test' })!;
  t.equal(
    formBody(pairs),
    'token=xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0&team_id=T1&team_domain=chat.acme.test&channel_id=C5&channel_name=Verona&thread_ts=1527876931&timestamp=1527876931' +
      '&user_id=U5&user_name=Iago+Z&text=%40%2A%2AEcho+Bot%2A%2A+What+is+the+air-speed+velocity+of+an+unladen+swallow%3F&trigger_word=mention&service_id=9',
  );
  t.equal(slackRequest(BOT, 'direct_message', { ...MESSAGE, type: 'private', display_recipient: [] }, { id: 1, host: 'x' }), null);
});

const CONTEXT: NoticeContext = { messageUrl: 'https://chat.acme.test/#narrow/channel/5-Verona/topic/Verona2/near/112', botFullName: 'Echo Bot' };
const ok = (body: unknown, iface = 1) => interpretResponse(iface, { status: 200, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) }, CONTEXT);
const HEAD = '[A message](https://chat.acme.test/#narrow/channel/5-Verona/topic/Verona2/near/112) to your bot @_**Echo Bot** triggered an outgoing webhook.';

t.test("a 2xx response in Zulip's format: content or response_string to post; response_not_required, \"\" or blank content post nothing", async (t) => {
  t.same(ok({ content: 'African or European?' }), { kind: 'reply', reply: { content: 'African or European?' } });
  t.same(ok({ response_string: 42 }), { kind: 'reply', reply: { content: '42' } }, 'the deprecated response_string, as Python prints it');
  t.same(ok({ content: null }), { kind: 'reply', reply: { content: 'None' } }, "Zulip's str(None)");
  t.same(ok({ content: 'poll', widget_content: { widget_type: 'poll' } }), { kind: 'reply', reply: { content: 'poll', widgetContent: { widget_type: 'poll' } } });
  t.same(ok({ content: 'not sent', response_not_required: true }), { kind: 'nothing' });
  t.same(ok({ content: 'sent', response_not_required: [] }), { kind: 'reply', reply: { content: 'sent' } }, 'a false-like value requires one');
  t.same(ok({ content: '  \n' }), { kind: 'nothing' });
  t.same(ok({}), { kind: 'nothing' });
  t.same(ok('""'), { kind: 'nothing' }, 'the old zulip_botserver\'s ""');
});

t.test("a 2xx response in Slack's format: `text` to post", async (t) => {
  t.same(ok({ text: 'Hi!' }, 2), { kind: 'reply', reply: { content: 'Hi!' } });
  t.same(ok({ content: 'Hi!' }, 2), { kind: 'nothing' });
  t.same(ok({ text: 5 }, 2), { kind: 'nothing' }, 'text that is not text posts nothing (Zulip fails on it)');
});

t.test('a 2xx response that is not JSON, or not an object: failure notices to the sender and the owner', async (t) => {
  t.same(ok('it\'s "not" json'), {
    kind: 'failure',
    failure: {
      senderNotice: 'Failure! Invalid JSON in response',
      ownerNotice: `${HEAD}\nThe outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid JSON in response\nThe response contains the following payload:\n\`\`\`\n'it\\'s "not" json'\n\`\`\``,
    },
  });
  t.same(ok([1]), {
    kind: 'failure',
    failure: {
      senderNotice: 'Failure! Invalid response format',
      ownerNotice: `${HEAD}\nThe outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid response format\nThe response contains the following payload:\n\`\`\`\n'[1]'\n\`\`\``,
    },
  });
});

t.test('other statuses fail: the status and the raw payload for the owner; 407 is a refused address', async (t) => {
  const failed = (status: number, body: string) => interpretResponse(1, { status, body: Buffer.from(body) }, CONTEXT);
  t.same(failed(500, '{"error": "no"}'), {
    kind: 'failure',
    failure: {
      senderNotice: 'Failure! Third party responded with 500',
      ownerNotice: `${HEAD}\nThe webhook got a response with status code *500*.\nThe response contains the following payload:\n\`\`\`\nb'{"error": "no"}'\n\`\`\``,
    },
  });
  t.same(failed(404, ''), { kind: 'failure', failure: { senderNotice: 'Failure! Third party responded with 404', ownerNotice: `${HEAD}\nThe webhook got a response with status code *404*.` } });
  t.same(failed(407, ''), {
    kind: 'failure',
    failure: { senderNotice: 'Failure! Third party responded with 407', ownerNotice: `${HEAD}\nThe URL configured for the webhook is for a private or disallowed network.` },
  });
});

t.test('no response: timeouts and connection errors (after the retries), other errors at once', async (t) => {
  t.same(transportFailure({ kind: 'timeout' }, CONTEXT, 'hi'), { senderNotice: 'Failure! Bot is unavailable', ownerNotice: `${HEAD}\nRequest timed out after 10 seconds.` });
  t.same(transportFailure({ kind: 'connection' }, CONTEXT, 'hi'), { senderNotice: 'Failure! Bot is unavailable', ownerNotice: `${HEAD}\nA connection error occurred. Is my bot server down?` });
  t.same(transportFailure({ kind: 'other', type: 'InvalidURL', message: 'No host supplied' }, CONTEXT, '@**Echo Bot** hi'), {
    senderNotice: 'Failure! An exception of type *InvalidURL* occurred for message `@**Echo Bot** hi`! See the Zulip server logs for more information.',
    ownerNotice: `${HEAD}\nWhen trying to send a request to the webhook service, an exception of type InvalidURL occurred:\n\`\`\`\nNo host supplied\n\`\`\``,
  });
});

t.test("message links as Zulip's message_link_url makes them", async (t) => {
  t.equal(encodeHashComponent("a.b (c) ü/x*!~'"), 'a.2Eb.20.28c.29.20.C3.BC.2Fx*.21~.27');
  t.equal(messageLinkUrl('https://chat.acme.test', { id: 7, type: 'stream', stream_id: 5, display_recipient: 'Verona 2', subject: 'a.b (c)' }), 'https://chat.acme.test/#narrow/channel/5-Verona-2/topic/a.2Eb.20.28c.29/near/7');
  const people = (...list: number[]) => list.map((id) => ({ id, email: `u${id}@x`, full_name: `U${id}`, is_mirror_dummy: false }));
  t.equal(messageLinkUrl('https://x', { id: 8, type: 'private', display_recipient: people(9, 3), subject: '' }), 'https://x/#narrow/dm/3,9/near/8');
  t.equal(messageLinkUrl('https://x', { id: 8, type: 'private', display_recipient: people(9, 3, 4), subject: '' }), 'https://x/#narrow/dm/3,4,9-group/near/8');
});

t.test('from the database: the service bots a message may trigger, their services, the message as Zulip sends it', async (t) => {
  const s = await startServer({ realm: { name: 'Acme', url: 'https://chat.acme.test' } });
  t.teardown(() => s.close());
  const ctx = contextOf(s.chat);
  const owner = await s.user('member', { fullName: 'Iago Z' });
  const bot = withAuth((await s.request('POST', '/bots', { as: owner, params: { full_name: 'Echo Bot', short_name: 'echo', bot_type: 3, payload_url: '"https://bots.example.com/echo"' } })).body as never);
  const generic = withAuth((await s.request('POST', '/bots', { as: owner, params: { full_name: 'Plain Bot', short_name: 'plain' } })).body as never);
  await s.request('POST', '/users/me/subscriptions', { as: owner, params: { subscriptions: [{ name: 'Verona' }] } });
  const { id } = s.chat.api.messages.send(owner.user_id, { type: 'stream', to: 'Verona', topic: 'Verona2', content: '@**Echo Bot** What is the air-speed velocity?' });
  t.same(serviceBotsAmong(ctx, [owner.user_id, bot.user_id, generic.user_id, bot.user_id]), [{ id: bot.user_id, botType: 3 }]);
  const [service] = outgoingServices(ctx, bot.user_id);
  t.match(service, { baseUrl: 'https://bots.example.com/echo', interface: 1, bot: { id: bot.user_id, email: bot.email, fullName: 'Echo Bot', token: /^[A-Za-z0-9]{32}$/ } });
  t.same(outgoingServices(ctx, generic.user_id), []);
  const message = outgoingMessage(ctx, id)!;
  t.match(message, {
    id,
    type: 'stream',
    content: '@**Echo Bot** What is the air-speed velocity?',
    content_type: 'text/x-markdown',
    rendered_content: `<p><span class="user-mention" data-user-id="${bot.user_id}">@Echo Bot</span> What is the air-speed velocity?</p>`,
    sender_full_name: 'Iago Z',
    display_recipient: 'Verona',
    subject: 'Verona2',
    avatar_url: /^https:\/\/secure\.gravatar\.com\/avatar\//,
  });
  t.notOk('flags' in message, 'no flags');
  t.equal(noticeContext(ctx, message, service!.bot).messageUrl, `https://chat.acme.test/#narrow/channel/${message.stream_id}-Verona/topic/Verona2/near/${id}`);
  const dm = s.chat.api.messages.send(owner.user_id, { type: 'direct', to: [bot.user_id], content: 'ping' });
  t.match(outgoingMessage(ctx, dm.id), { type: 'private', display_recipient: [{ id: owner.user_id }, { id: bot.user_id }].sort((a, b) => a.id - b.id) });
  t.equal(outgoingMessage(ctx, 99999), undefined);
});
