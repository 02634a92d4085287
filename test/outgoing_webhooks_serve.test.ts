// `parley serve` and a bot server written to python-zulip-api's zulip_botserver contract (its
// handle_bot: the bot found by bot_email, the token checked, a leading mention stripped, the answer
// sent through the REST API as the bot, `response_not_required` answered), here in TypeScript
// since that package cannot be installed in CI; docs/integrations.md tells how the real one was
// run against parley by hand. PARLEY_WEBHOOKS_ALLOW_PRIVATE=1 lets parley reach it on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { main } from '../lib/cli.js';
import { spawnParley } from './cli_process.js';
import { basic, sendRequest } from './helpers.js';

interface Served {
  url: string;
  owner: { email: string; apiKey: string };
}

function serve(t: Test, env: Record<string, string | undefined>): Promise<Served> {
  const child = spawnParley(['serve', '--db', ':memory:', '--port', '0'], { env: { PARLEY_RATE_LIMIT: '0', PARLEY_PUSH_BOUNCER_URL: undefined, ...env } });
  t.teardown(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const url = /^parley listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1];
      const email = /email: +(\S+)/.exec(stdout)?.[1];
      const apiKey = /API key: +(\S+)/.exec(stdout)?.[1];
      if (url && email && apiKey) resolve({ url, owner: { email, apiKey } });
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

interface BotConfig {
  email: string;
  key: string;
  site: string;
  token: string;
}

/** zulip_botserver's handle_bot, with a bot that answers "beep boop" as helloworld does. */
async function botServer(t: Test, bots: BotConfig[]) {
  const seen: { status: number; trigger: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', async () => {
      const event = JSON.parse(body);
      const bot = bots.find((b) => b.email === event.bot_email);
      const status = !bot ? 400 : bot.token !== event.token ? 401 : 200;
      seen.push({ status, trigger: event.trigger });
      if (status !== 200) {
        res.writeHead(status).end();
        return;
      }
      const message = event.message;
      const me = await sendRequest(bot!.site, 'GET', '/users/me', { headers: { authorization: basic(bot!.email, bot!.key) } });
      const mention = `@**${me.body.full_name}**`;
      const handled = event.trigger === 'direct_message' || (message.content as string).startsWith(mention);
      if (handled) {
        const params =
          message.type === 'private'
            ? { type: 'private', to: JSON.stringify(message.display_recipient.map((r: { email: string }) => r.email)), content: 'beep boop' }
            : { type: 'stream', to: message.display_recipient, topic: message.subject, content: 'beep boop' };
        await sendRequest(bot!.site, 'POST', '/messages', { params, headers: { authorization: basic(bot!.email, bot!.key) } });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ response_not_required: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

/** Makes an outgoing webhook bot pointing at `payloadUrl`; its credentials and service token. */
async function createBot(served: Served, payloadUrl: string): Promise<BotConfig & { id: number }> {
  const auth = { authorization: basic(served.owner.email, served.owner.apiKey) };
  const made = await sendRequest(served.url, 'POST', '/bots', { headers: auth, params: { full_name: 'Hello World', short_name: 'helloworld', bot_type: 3, payload_url: JSON.stringify(payloadUrl) } });
  const state = await sendRequest(served.url, 'POST', '/register', { headers: auth, params: { fetch_event_types: JSON.stringify(['realm_bot']) } });
  const token = (state.body.realm_bots as { user_id: number; services: { token: string }[] }[]).find((b) => b.user_id === made.body.user_id)!.services[0]!.token;
  return { id: made.body.user_id, email: made.body.email, key: made.body.api_key, site: served.url, token };
}

async function topicMessages(served: Served, topic: string): Promise<{ sender_full_name: string; content: string }[]> {
  const narrow = JSON.stringify([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: topic }]);
  const reply = await sendRequest(served.url, 'GET', '/messages', { headers: { authorization: basic(served.owner.email, served.owner.apiKey) }, params: { anchor: 'newest', num_before: 10, num_after: 0, narrow } });
  return reply.body.messages;
}

/**
 * `parley serve` with `env`, the bot server, an outgoing webhook bot pointing at it, and a mention
 * of the bot in `topic` of #general: the topic's messages once the bot has posted, and what the
 * bot server saw.
 */
async function mentionTheBot(t: Test, env: Record<string, string | undefined>, topic: string) {
  const served = await serve(t, env);
  const bot = await createBot(served, 'http://127.0.0.1:1/');
  const botServerAt = await botServer(t, [bot]);
  const auth = { authorization: basic(served.owner.email, served.owner.apiKey) };
  await sendRequest(served.url, 'PATCH', `/bots/${bot.id}`, { headers: auth, params: { service_payload_url: JSON.stringify(botServerAt.url) } });
  await sendRequest(served.url, 'POST', '/users/me/subscriptions', { headers: auth, params: { subscriptions: JSON.stringify([{ name: 'general' }]) } });
  await sendRequest(served.url, 'POST', '/messages', { headers: auth, params: { type: 'stream', to: 'general', topic, content: '@**Hello World** hello there' } });
  let messages = await topicMessages(served, topic);
  for (let i = 0; i < 200 && messages.length < 2; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    messages = await topicMessages(served, topic);
  }
  return { bot, messages: messages.map((m) => [m.sender_full_name, m.content]), seen: botServerAt.seen };
}

t.test('a mention of the bot gets its answer in the topic, from a bot server on 127.0.0.1 (PARLEY_WEBHOOKS_ALLOW_PRIVATE=1)', async (t) => {
  const { bot, messages, seen } = await mentionTheBot(t, { PARLEY_WEBHOOKS_ALLOW_PRIVATE: '1' }, 'greetings');
  t.same(messages, [
    ['Owner', `<p><span class="user-mention" data-user-id="${bot.id}">@Hello World</span> hello there</p>`],
    ['Hello World', '<p>beep boop</p>'],
  ]);
  t.same(seen, [{ status: 200, trigger: 'mention' }]);
});

t.test('without PARLEY_WEBHOOKS_ALLOW_PRIVATE the bot server on 127.0.0.1 is never asked', async (t) => {
  const { messages, seen } = await mentionTheBot(t, {}, 'refused');
  t.same(messages[1], ['Hello World', '<p>Failure! Third party responded with 407</p>']);
  t.same(seen, []);
});

t.test('PARLEY_WEBHOOKS_ALLOW_PRIVATE takes 1 or 0', async (t) => {
  const errors: string[] = [];
  const code = await main(['serve', '--db', ':memory:', '--port', '0'], { out: () => undefined, err: (line) => errors.push(line), env: { PARLEY_WEBHOOKS_ALLOW_PRIVATE: 'yes' } });
  t.equal(code, 2);
  t.equal(errors.join('\n').split('\n')[0], "parley: PARLEY_WEBHOOKS_ALLOW_PRIVATE must be 1 or 0, not 'yes'");
});

t.test('PARLEY_WEBHOOKS_TIMEOUT_MS takes a positive number of milliseconds', async (t) => {
  for (const [value, message] of [
    ['soon', "parley: PARLEY_WEBHOOKS_TIMEOUT_MS must be a non-negative integer, not 'soon'"],
    ['0', 'parley: PARLEY_WEBHOOKS_TIMEOUT_MS must be a positive integer of at most 2147483647'],
    ['2147483648', 'parley: PARLEY_WEBHOOKS_TIMEOUT_MS must be a positive integer of at most 2147483647'],
  ] as const) {
    const errors: string[] = [];
    const code = await main(['serve', '--db', ':memory:', '--port', '0'], { out: () => undefined, err: (line) => errors.push(line), env: { PARLEY_WEBHOOKS_TIMEOUT_MS: value } });
    t.equal(code, 2, value);
    t.equal(errors.join('\n').split('\n')[0], message);
  }
});
