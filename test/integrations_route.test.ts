// POST /api/v1/external/{integration} over real HTTP and in-process: Zulip's webhook URL contract
// (`?api_key=` or HTTP Basic, `stream`, `topic`, `only_events`), bodies of any media type within the
// body limit, Zulip's answers for credentials, unsupported events, bad JSON and channels the bot
// may not post to, Slack's answers for the Slack-compatible integration, and the key kept out of
// logs and answers.
import t, { type Test } from 'tap';
import { ApiError } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import { startServer, withAuth, basic, type TestServer, type TestUser } from './helpers.js';
import { push } from './github_payloads.js';

interface World {
  s: TestServer;
  owner: TestUser;
  bot: TestUser;
  logged: string[];
}

async function world(t: Test, options: { bodyBytes?: number } = {}): Promise<World> {
  const logged: string[] = [];
  const record = (level: string) => (message: string, fields?: object) => void logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  const logger: Logger = { info: record('info'), warn: record('warn'), error: record('error') };
  const s = await startServer({ logger, ...(options.bodyBytes !== undefined && { limits: { bodyBytes: options.bodyBytes } }) });
  t.teardown(() => s.close());
  const owner = await s.user('member');
  const reply = await s.request('POST', '/bots', { as: owner, params: { full_name: 'Hook Bot', short_name: 'hook', bot_type: 2 } });
  const bot = withAuth(reply.body as never);
  await s.request('POST', '/users/me/subscriptions', { as: owner, params: { subscriptions: [{ name: 'commits' }] } });
  return { s, owner, bot, logged };
}

const PUSH = push('baxterthehacker/public-repo', 'baxterthehacker', { ref: 'refs/tags/abc', created: true, compare: 'https://github.com/x/y/compare/a...b' });

interface Post {
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
}

/** A POST to the webhook URL as a service sends it. */
async function post(s: TestServer, integration: string, { query = {}, headers = {}, body }: Post): Promise<{ status: number; body: Record<string, unknown> }> {
  const search = new URLSearchParams(query).toString();
  const response = await fetch(`${s.url}/api/v1/external/${integration}${search === '' ? '' : `?${search}`}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const github = (bot: TestUser, query: Record<string, string> = { stream: 'commits' }, payload: unknown = PUSH): Post => ({
  query: { api_key: bot.api_key, ...query },
  headers: { 'X-GitHub-Event': 'push' },
  body: JSON.stringify(payload),
});

function lastMessage(s: TestServer): Record<string, any> {
  return s.db.prepare('SELECT sender_id, stream_id, topic, content, sending_client FROM message ORDER BY id DESC LIMIT 1').get() as Record<string, any>;
}

const messageCount = (s: TestServer): number => s.db.prepare('SELECT count(*) FROM message').pluck().get() as number;

const channelId = (s: TestServer, name: string): number => s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number;

/** The error an in-process call throws, as its fields. */
function thrown(call: () => unknown): Record<string, unknown> {
  try {
    call();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, msg: error.message, ...error.extra };
  }
  throw new Error('expected an ApiError');
}

t.test('a service posts a JSON body with ?api_key=: the message goes into the channel as the bot, and the answer is success', async (t) => {
  const { s, bot } = await world(t);
  t.same(await post(s, 'github', github(bot)), { status: 200, body: { result: 'success', msg: '' } }, 'no ignored_parameters_unsupported: the integration reads the URL');
  t.same(lastMessage(s), { sender_id: bot.user_id, stream_id: channelId(s, 'commits'), topic: 'public-repo', content: 'baxterthehacker pushed tag abc.', sending_client: 'ZulipGitHubWebhook' });
  await post(s, 'github', github(bot, { stream: String(channelId(s, 'commits')), topic: 'releases', branches: 'main' }));
  t.match(lastMessage(s), { topic: 'releases' }, "a channel id, the `topic` parameter, an integration's own option");
});

t.test('in-process: the same call with the headers and body handed over', async (t) => {
  const { s, bot } = await world(t);
  const answer = s.chat.api.integrations.receive(bot.user_id, { integration: 'github', stream: 'commits', sent: { headers: { 'X-GitHub-Event': 'push' }, body: JSON.stringify(PUSH) } });
  t.same(answer, {});
  t.same(lastMessage(s), { sender_id: bot.user_id, stream_id: channelId(s, 'commits'), topic: 'public-repo', content: 'baxterthehacker pushed tag abc.', sending_client: 'ZulipGitHubWebhook' });
  s.chat.api.integrations.receive(bot.user_id, { integration: 'slack_incoming', stream: 'commits', topic: 'deploys', payload: JSON.stringify({ text: '*done*' }) });
  t.match(lastMessage(s), { topic: 'deploys', content: '**done**' }, "Slack's form field as a parameter");
  t.same(thrown(() => s.chat.api.integrations.receive(bot.user_id, { integration: 'gitbucket', stream: 'commits' })), { status: 404, code: 'NOT_FOUND', msg: 'Not Found' });
});

t.test('HTTP Basic auth (email and API key) works as the api_key parameter does', async (t) => {
  const { s, bot } = await world(t);
  const reply = await post(s, 'json', { query: { stream: 'commits' }, headers: { authorization: basic(bot.email, bot.api_key) }, body: '{"a": 1}' });
  t.same(reply, { status: 200, body: { result: 'success', msg: '' } });
  t.same(lastMessage(s).content, '```json\n{\n  "a": 1\n}\n```');
  t.same(await post(s, 'json', { query: { stream: 'commits' }, headers: { authorization: basic(bot.email, 'x'.repeat(32)) }, body: '{}' }), {
    status: 401,
    body: { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' },
  }, "Basic auth's refusals are REST's 401 UNAUTHORIZED");
});

t.test("Slack-format bodies: a form with `payload=`, answered with Slack's `ok`; errors as Slack's {ok: false, error}", async (t) => {
  const { s, bot } = await world(t);
  const form = (payload: string | undefined): Post => ({
    query: { api_key: bot.api_key, stream: 'commits' },
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: payload === undefined ? 'other=1' : new URLSearchParams({ payload }).toString(),
  });
  t.same(await post(s, 'slack_incoming', form(JSON.stringify({ text: 'Deployed *v2*', channel: '#ops' }))), { status: 200, body: { result: 'success', msg: '', ok: true } });
  t.match(lastMessage(s), { topic: 'ops', content: 'Deployed **v2**', sending_client: 'ZulipSlackIncomingWebhook' });
  t.same(await post(s, 'slack_incoming', form(undefined)), { status: 400, body: { ok: false, error: "Missing 'payload' argument" } });
  t.same(await post(s, 'slack_incoming', form('{')), { status: 400, body: { ok: false, error: 'Malformed JSON' } });
  t.same(await post(s, 'slack_incoming', { ...form(JSON.stringify({ text: 'x' })), query: { api_key: 'y'.repeat(32) } }), {
    status: 401,
    body: { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' },
  }, 'a wrong key is refused before the integration runs: Zulip\'s answer');
});

t.test("the key: missing, malformed, wrong, a deactivated bot's (Zulip's webhook_view answers)", async (t) => {
  const { s, owner, bot } = await world(t);
  const body = '{}';
  t.same(await post(s, 'json', { query: { stream: 'commits' }, body }), {
    status: 400,
    body: { result: 'error', msg: "Missing 'api_key' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'api_key' },
  });
  t.same(await post(s, 'json', { query: { api_key: 'short', stream: 'commits' }, body }), { status: 401, body: { result: 'error', msg: 'Malformed API key', code: 'INVALID_API_KEY' } });
  t.same(await post(s, 'json', { query: { api_key: 'z'.repeat(32), stream: 'commits' }, body }), { status: 401, body: { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' } });
  t.same((await post(s, 'json', { query: { api_key: ` ${bot.api_key} `, stream: 'commits' }, body })).status, 200, 'the key is stripped, as Zulip strips it');
  await s.request('DELETE', `/bots/${bot.user_id}`, { as: owner });
  t.same(await post(s, 'json', { query: { api_key: bot.api_key, stream: 'commits' }, body }), { status: 401, body: { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' } });
});

t.test('the api_key parameter is a way into the webhook URLs only', async (t) => {
  const { s, owner } = await world(t);
  const me = await fetch(`${s.url}/api/v1/users/me?api_key=${owner.api_key}`);
  t.same([me.status, await me.json()], [401, { result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' }]);
  const send = await fetch(`${s.url}/api/v1/messages?api_key=${owner.api_key}`, { method: 'POST', body: new URLSearchParams({ type: 'stream', to: 'commits', topic: 't', content: 'x' }) });
  t.equal(send.status, 401, 'not even where incoming webhook bots may post');
});

t.test("any account's key posts, as Zulip's webhook_view allows; a human has no owner to send a direct message to", async (t) => {
  const { s, owner } = await world(t);
  t.same(await post(s, 'json', { query: { api_key: owner.api_key, stream: 'commits' }, body: '{"b": 2}' }), { status: 200, body: { result: 'success', msg: '' } });
  t.same(lastMessage(s).sender_id, owner.user_id);
  t.same(await post(s, 'json', { query: { api_key: owner.api_key }, body: '{"b": 2}' }), { status: 400, body: { result: 'error', msg: 'Missing channel', code: 'BAD_REQUEST' } });
});

t.test('an unsupported event type is answered with HTTP 200 and Zulip\'s error body, posting nothing', async (t) => {
  const { s, bot } = await world(t);
  const before = messageCount(s);
  const reply = await post(s, 'github', { ...github(bot), headers: { 'X-GitHub-Event': 'sponsorship' }, body: JSON.stringify({ action: 'created' }) });
  t.same(reply, {
    status: 200,
    body: {
      result: 'error',
      msg: "The 'sponsorship:created' event isn't currently supported by the GitHub webhook; ignoring",
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      webhook_name: 'GitHub',
      event_type: 'sponsorship:created',
    },
  });
  t.equal(messageCount(s), before);
});

t.test("a body that is not JSON: 400 INVALID_JSON, and the bot's owner is told how to set the webhook up", async (t) => {
  const { s, owner, bot } = await world(t);
  t.same(await post(s, 'github', { ...github(bot), body: 'payload=%7B%7D' }), { status: 400, body: { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' } });
  const notice = lastMessage(s);
  t.same([notice.sender_id, notice.stream_id, notice.content], [
    bot.user_id,
    null,
    "Hi there! It looks like you tried to set up the Zulip GitHub integration,\nbut didn't correctly configure the webhook to send data in the JSON format\nthat this integration expects!",
  ]);
  t.same(s.db.prepare('SELECT count(*) FROM user_message WHERE user_id = ? AND message_id = (SELECT max(id) FROM message)').pluck().get(owner.user_id), 1);
  t.same(await post(s, 'github', { ...github(bot), headers: { 'X-GitHub-Event': 'push', 'content-type': 'text/plain' } }), { status: 200, body: { result: 'success', msg: '' } }, 'any media type: the body is read as JSON');
});

t.test("a private channel the bot may not post to: Zulip's refusal, nothing posted", async (t) => {
  const { s, bot } = await world(t);
  await s.request('POST', '/users/me/subscriptions', { as: s.owner, params: { subscriptions: [{ name: 'secret' }], invite_only: true } });
  const before = messageCount(s);
  t.same(await post(s, 'github', github(bot, { stream: 'secret' })), { status: 400, body: { result: 'error', msg: "Not authorized to send to channel 'secret'", code: 'BAD_REQUEST' } });
  t.equal(messageCount(s), before);
});

t.test('only_events and exclude_events filter by event type; a bad filter is a 400', async (t) => {
  const { s, bot } = await world(t);
  const before = messageCount(s);
  t.same(await post(s, 'github', github(bot, { stream: 'commits', only_events: '["issues*"]' })), { status: 200, body: { result: 'success', msg: '' } });
  t.same(await post(s, 'github', github(bot, { stream: 'commits', exclude_events: '["push_*"]' })), { status: 200, body: { result: 'success', msg: '' } });
  t.equal(messageCount(s), before, 'filtered out');
  t.same(await post(s, 'github', github(bot, { stream: 'commits', only_events: 'push' })), { status: 400, body: { result: 'error', msg: 'only_events is not valid JSON', code: 'BAD_REQUEST' } });
  await post(s, 'github', github(bot, { stream: 'commits', only_events: '["push_tags"]' }));
  t.equal(messageCount(s), before + 1);
});

t.test('the body is bounded: past limits.bodyBytes a 413, whatever the media type', async (t) => {
  const { s, bot } = await world(t, { bodyBytes: 1000 });
  t.same(await post(s, 'json', { query: { api_key: bot.api_key, stream: 'commits' }, body: JSON.stringify({ big: 'x'.repeat(2000) }) }), {
    status: 413,
    body: { result: 'error', msg: 'Request body too large (limit: 1000 bytes)', code: 'PAYLOAD_TOO_LARGE' },
  });
  t.same((await post(s, 'json', { query: { api_key: bot.api_key, stream: 'commits' }, body: JSON.stringify({ small: 'x'.repeat(500) }) })).status, 200);
});

t.test('unknown integrations are a 404; other methods a 405', async (t) => {
  const { s, bot } = await world(t);
  t.same(await post(s, 'gitbucket', github(bot)), { status: 404, body: { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' } });
  const get = await fetch(`${s.url}/api/v1/external/github?api_key=${bot.api_key}`);
  t.same([get.status, get.headers.get('allow')], [405, 'POST']);
});

t.test('the api_key never reaches a log, an answer or a message', async (t) => {
  const { s, bot, logged } = await world(t);
  const answers = [
    await post(s, 'json', { query: { api_key: bot.api_key, stream: 'commits', topic: 'x' }, body: '{"c": 3}' }),
    await post(s, 'json', { query: { api_key: bot.api_key, stream: 'nowhere' }, body: '{"c": 3}' }),
    await post(s, 'json', { query: { api_key: bot.api_key, stream: 'commits', topic: '\u0000' }, body: '{"c": 3}' }),
    await post(s, 'json', { query: { api_key: bot.api_key, stream: 'commits' }, body: '[' }),
    await post(s, 'json', { query: { api_key: `${bot.api_key.slice(1)}Q`, stream: 'commits' }, body: '{}' }),
  ];
  t.same(answers.map((a) => a.status), [200, 200, 400, 400, 401]);
  const stored = (s.db.prepare('SELECT group_concat(content) FROM message').pluck().get() as string) ?? '';
  for (const text of [JSON.stringify(answers), logged.join('\n'), stored]) t.notOk(text.includes(bot.api_key.slice(0, 16)), 'no part of the key');
});

t.test('wrong webhook keys count as failed authentications of the address; a valid key still posts', async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 1000, authAttemptsPerMinute: 3 } });
  t.teardown(() => s.close());
  const bot = withAuth((await s.request('POST', '/bots', { as: s.owner, params: { full_name: 'Hook', short_name: 'hook', bot_type: 2 } })).body as never);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i += 1) statuses.push((await post(s, 'json', { query: { api_key: `${i}`.repeat(32) }, body: '{}' })).status);
  t.same(statuses, [401, 401, 401, 429, 429], 'three failures, then 429s');
  t.same((await post(s, 'json', { query: { api_key: bot.api_key }, body: '{}' })).status, 200, 'the valid key is never refused for others\' failures');
});
