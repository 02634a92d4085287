// Posting an incoming webhook's messages, in-process (the HTTP route comes with the request
// pipeline): into the `stream` parameter's channel by name or id, as a direct message to the bot's
// owner without one; Zulip's answers for channels that do not exist, that the bot may not post to
// or that nobody reads; Slack-format answers; the client name Zulip gives webhook messages.
import t, { type Test } from 'tap';
import type { Ctx } from '../lib/context.js';
import { toActor } from '../lib/domain/callers.js';
import type { Actor } from '../lib/domain/roles.js';
import { ApiError } from '../lib/errors.js';
import { receiveWebhook, SlackWebhookError } from '../lib/integrations/incoming.js';
import { toWebhookRequest } from '../lib/integrations/route.js';
import { selectUserById } from '../lib/store/users.js';
import { contextOf } from '../lib/context.js';
import { startServer, withAuth, type TestServer, type TestUser } from './helpers.js';
import { webhookRequest, type HookOptions } from './integration_helpers.js';
import { push } from './github_payloads.js';

interface Setup {
  s: TestServer;
  ctx: Ctx;
  owner: TestUser;
  bot: Actor;
  clock: { now: number };
}

async function setup(t: Test): Promise<Setup> {
  const clock = { now: Date.UTC(2025, 0, 1) };
  const s = await startServer({ clock: () => clock.now });
  t.teardown(() => s.close());
  const owner = await s.user('member');
  const reply = await s.request('POST', '/bots', { as: owner, params: { full_name: 'GitHub Bot', short_name: 'github', bot_type: 2 } });
  const ctx = contextOf(s.chat);
  const bot = toActor(selectUserById(ctx.store, withAuth(reply.body as never).user_id)!);
  await s.request('POST', '/users/me/subscriptions', { as: owner, params: { subscriptions: [{ name: 'commits' }] } });
  return { s, ctx, owner, bot, clock };
}

const PUSH_PAYLOAD = push('baxterthehacker/public-repo', 'baxterthehacker', { ref: 'refs/tags/abc', created: true, compare: 'https://github.com/x/y/compare/a...b' });
const github = (params: Record<string, string>, payload: unknown = PUSH_PAYLOAD, options: HookOptions = {}) =>
  webhookRequest(payload, { headers: { 'X-GitHub-Event': 'push' }, ...options, params: { stream: undefined, ...params } });

function lastMessage(s: TestServer, where = ''): Record<string, any> | undefined {
  return s.db.prepare(`SELECT id, sender_id, stream_id, direct_group_id, topic, content, sending_client FROM message ${where} ORDER BY id DESC LIMIT 1`).get() as Record<string, any> | undefined;
}

const messageCount = (s: TestServer): number => s.db.prepare('SELECT count(*) FROM message').pluck().get() as number;

function fails(t: Test, call: () => unknown, expected: { status: number; code: string; msg: string; extra?: Record<string, unknown> }): void {
  try {
    call();
    t.fail(`expected ${expected.msg}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    t.same({ status: error.status, code: error.code, msg: error.message }, { status: expected.status, code: expected.code, msg: expected.msg });
    if (expected.extra) t.match(error.extra, expected.extra);
  }
}

t.test('a webhook posts into the channel the `stream` parameter names, as the bot, from ZulipGitHubWebhook', async (t) => {
  const { s, ctx, bot } = await setup(t);
  t.same(receiveWebhook(ctx, bot, 'github', github({ stream: 'commits' })), {});
  t.match(lastMessage(s), { sender_id: bot.id, topic: 'public-repo', content: 'baxterthehacker pushed tag abc.', sending_client: 'ZulipGitHubWebhook' });
  const channel = s.db.prepare("SELECT id FROM stream WHERE name = 'commits'").pluck().get() as number;
  receiveWebhook(ctx, bot, 'github', github({ stream: String(channel), topic: 'releases' }));
  t.match(lastMessage(s), { stream_id: channel, topic: 'releases' }, 'a channel id, and the `topic` parameter');
  receiveWebhook(ctx, bot, 'github', github({ stream: 'commits', topic: 'a'.repeat(70) }));
  t.equal(lastMessage(s)!.topic, `${'a'.repeat(57)}...`, "Zulip's 60-character topics");
});

t.test("without `stream`, the message is a direct message to the bot's owner", async (t) => {
  const { s, ctx, owner, bot } = await setup(t);
  receiveWebhook(ctx, bot, 'github', github({}));
  const row = lastMessage(s)!;
  t.match(row, { stream_id: null, sender_id: bot.id, content: 'baxterthehacker pushed tag abc.', sending_client: 'ZulipGitHubWebhook' });
  t.same(s.db.prepare('SELECT user_id FROM user_message WHERE message_id = ? ORDER BY user_id').pluck().all(row.id), [owner.user_id, bot.id].sort((a, b) => a - b));
  const human = toActor(selectUserById(ctx.store, owner.user_id)!);
  fails(t, () => receiveWebhook(ctx, human, 'github', github({})), { status: 400, code: 'BAD_REQUEST', msg: 'Missing channel' });
});

const NOTICE_MISSING = (email: string) => `Your bot \`${email}\` tried to send a message to channel #**nowhere**, but that channel does not exist. Click [here](#channels/new) to create it.`;

t.test("a channel name that does not exist: success, nothing posted, the owner told once per 5 minutes", async (t) => {
  const { s, ctx, owner, bot, clock } = await setup(t);
  const before = messageCount(s);
  t.same(receiveWebhook(ctx, bot, 'github', github({ stream: 'nowhere' })), {});
  t.equal(messageCount(s), before + 1, 'only the notice');
  t.match(lastMessage(s), { sender_id: bot.id, stream_id: null, content: NOTICE_MISSING(bot.email) });
  t.same(s.db.prepare('SELECT user_id FROM user_message WHERE message_id = ? ORDER BY user_id').pluck().all(lastMessage(s)!.id), [owner.user_id, bot.id].sort((a, b) => a - b));
  receiveWebhook(ctx, bot, 'github', github({ stream: ' nowhere ' }));
  clock.now += 299_000;
  receiveWebhook(ctx, bot, 'github', github({ stream: 'nowhere' }));
  t.equal(messageCount(s), before + 1, 'no second notice within 5 minutes');
  clock.now += 2_000;
  receiveWebhook(ctx, bot, 'github', github({ stream: 'nowhere' }));
  t.equal(messageCount(s), before + 2, 'another one after 5 minutes');
});

t.test('a channel id that does not exist: STREAM_DOES_NOT_EXIST, and the owner is told', async (t) => {
  const { s, ctx, bot } = await setup(t);
  fails(t, () => receiveWebhook(ctx, bot, 'github', github({ stream: '999' })), {
    status: 400,
    code: 'STREAM_DOES_NOT_EXIST',
    msg: "Channel with ID '999' does not exist",
    extra: { stream_id: 999 },
  });
  t.match(lastMessage(s), { sender_id: bot.id, content: `Your bot \`${bot.email}\` tried to send a message to channel ID 999, but there is no channel with that ID.` });
});

t.test('a channel nobody is subscribed to: the message is posted and the owner told', async (t) => {
  const { s, ctx, owner, bot } = await setup(t);
  await s.request('POST', '/users/me/subscriptions', { as: owner, params: { subscriptions: [{ name: 'empty' }] } });
  await s.request('DELETE', '/users/me/subscriptions', { as: owner, params: { subscriptions: ['empty'] } });
  const before = messageCount(s);
  receiveWebhook(ctx, bot, 'github', github({ stream: 'empty' }));
  t.equal(messageCount(s), before + 2);
  t.match(lastMessage(s, 'WHERE stream_id IS NOT NULL'), { content: 'baxterthehacker pushed tag abc.' });
  t.match(lastMessage(s, 'WHERE stream_id IS NULL'), { content: `Your bot \`${bot.email}\` tried to send a message to channel #**empty**. The channel exists but does not have any subscribers.` });
});

t.test("a private channel neither the bot nor its owner is in: Zulip's refusal, nothing posted", async (t) => {
  const { s, ctx, bot } = await setup(t);
  await s.request('POST', '/users/me/subscriptions', { as: s.owner, params: { subscriptions: [{ name: 'secret' }], invite_only: true } });
  const before = messageCount(s);
  fails(t, () => receiveWebhook(ctx, bot, 'github', github({ stream: 'secret' })), { status: 400, code: 'BAD_REQUEST', msg: "Not authorized to send to channel 'secret'" });
  t.equal(messageCount(s), before);
});

t.test('errors of the integration post nothing: unsupported events (HTTP 200), malformed payloads, bad parameters, unknown integrations', async (t) => {
  const { s, ctx, bot } = await setup(t);
  const before = messageCount(s);
  fails(t, () => receiveWebhook(ctx, bot, 'github', webhookRequest({ action: 'x' }, { headers: { 'X-GitHub-Event': 'sponsorship' }, params: { stream: 'commits' } })), {
    status: 200,
    code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
    msg: "The 'sponsorship:x' event isn't currently supported by the GitHub webhook; ignoring",
    extra: { webhook_name: 'GitHub', event_type: 'sponsorship:x' },
  });
  fails(t, () => receiveWebhook(ctx, bot, 'github', github({ stream: 'commits' }, null, { raw: '{' })), { status: 400, code: 'INVALID_JSON', msg: 'Malformed JSON' });
  fails(t, () => receiveWebhook(ctx, bot, 'github', github({ stream: 'commits', topic: 'bad\u0000topic' })), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid character in topic, at position 4!' });
  fails(t, () => receiveWebhook(ctx, bot, 'gitbucket', github({ stream: 'commits' })), { status: 404, code: 'NOT_FOUND', msg: 'Not Found' });
  t.equal(messageCount(s), before + 1, "only the owner's notice about the body that is not JSON");
  t.equal(lastMessage(s)!.stream_id, null);
});

t.test('several messages (Alertmanager topics) are posted in order, all or none', async (t) => {
  const { s, ctx, bot } = await setup(t);
  const alert = (host: string, status = 'firing') => ({ status, labels: { instance: host, alertname: 'Down' }, annotations: {}, generatorURL: 'http://prom/graph' });
  receiveWebhook(ctx, bot, 'alertmanager', webhookRequest({ alerts: [alert('a'), alert('b'), alert('a', 'resolved')] }, { params: { stream: 'commits' } }));
  const rows = s.db.prepare("SELECT topic, content FROM message WHERE stream_id IS NOT NULL ORDER BY id").all() as { topic: string; content: string }[];
  t.same(rows.map((row) => row.topic), ['a', 'a', 'b']);
  t.match(rows[1]!.content, /^:squared_ok: \*\*Resolved\*\*/);
});

t.test('the Slack-compatible integration answers {ok: true}, and its errors as Slack does', async (t) => {
  const { s, ctx, bot } = await setup(t);
  t.same(receiveWebhook(ctx, bot, 'slack_incoming', webhookRequest({ text: '*done*', channel: '#commits' }, { params: { stream: 'commits' } })), { ok: true });
  t.match(lastMessage(s), { topic: 'commits', content: '**done**', sending_client: 'ZulipSlackIncomingWebhook' });
  try {
    receiveWebhook(ctx, bot, 'slack_incoming', webhookRequest(null, { contentType: 'application/x-www-form-urlencoded', raw: '', params: { stream: 'commits' } }));
    t.fail('expected an error');
  } catch (error) {
    t.ok(error instanceof SlackWebhookError);
    const slack = error as SlackWebhookError;
    t.same([slack.status, slack.code, slack.wireBody()], [400, 'REQUEST_VARIABLE_MISSING', { ok: false, error: "Missing 'payload' argument" }]);
  }
  t.same(receiveWebhook(ctx, bot, 'slack_incoming', webhookRequest({ text: null }, { params: { stream: 'commits' } })), { ok: true }, 'nothing to post is still a success');
});

t.test("the route's request: form fields over the query string, the last of a repeated parameter, no api_key, lower-case headers, the body's media type", async (t) => {
  const request = toWebhookRequest({
    query: new URLSearchParams('api_key=secret&stream=a&topic=x&topic=y&only_events=%5B%22push%22%5D'),
    form: new Map([['stream', 'b'], ['api_key', 'other']]),
    headers: { 'x-github-event': 'push', 'content-type': 'application/JSON; charset=utf-8', 'x-many': ['1', '2'] },
    body: Buffer.from('{"ref": "caf\u00e9"}', 'utf8'),
  });
  t.same([...request.params], [['stream', 'b'], ['topic', 'y'], ['only_events', '["push"]']]);
  t.same([request.headers['x-github-event'], request.headers['x-many'], request.contentType, request.body], ['push', '1, 2', 'application/json', '{"ref": "caf\u00e9"}']);
});
