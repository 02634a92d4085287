// Incoming webhooks over HTTP: 1,000 posts to /api/v1/external/{integration} (the generic JSON
// integration, and a GitHub push) against 1,000 POST /messages of the same content into the same
// channel by the same bot, on one parley server in a child process, in alternating rounds (the
// median of BENCH_ROUNDS rounds after a warm-up one). Target: a webhook post within 1.3x a send.
import { performance } from 'node:perf_hooks';
import http from 'node:http';
import { median, record } from './harness.js';
import { basicAuth, startBenchServer, type BenchServer } from './load.js';
import type { Account } from './chat.js';

const GROUP = 'integrations';
const POSTS = 1000;
const CONNECTIONS = 10;

interface Target {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Milliseconds for POSTS requests, CONNECTIONS kept-alive sockets each sending its next one when
 * answered (autocannon's `amount` ends on its 1-second ticks); throws on any answer but 200.
 */
async function timePosts(url: string, target: Target): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const { hostname, port } = new URL(url);
  const body = Buffer.from(target.body);
  const headers = { ...target.headers, 'content-length': String(body.length) };
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request({ hostname, port, path: target.path, method: 'POST', headers, agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${target.path}: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  let left = POSTS;
  const worker = async () => {
    while (left > 0) {
      left -= 1;
      await post();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const ms = performance.now() - started;
  agent.destroy();
  return ms;
}

async function call(server: BenchServer, method: string, path: string, auth: string, params: Record<string, string>): Promise<Record<string, any>> {
  const response = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: auth }, body: new URLSearchParams(params) });
  const body = (await response.json()) as Record<string, any>;
  if (body.result !== 'success') throw new Error(`${method} ${path}: ${JSON.stringify(body)}`);
  return body;
}

/** The webhook target and a POST /messages of what it posts (read back from the first webhook message). */
async function pair(server: BenchServer, bot: { email: string; api_key: string }, reader: string, integration: string, headers: Record<string, string>, payload: unknown): Promise<[Target, Target]> {
  const webhook: Target = {
    path: `/api/v1/external/${integration}?api_key=${bot.api_key}&stream=bench`,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  };
  const first = await fetch(server.url + webhook.path, { method: 'POST', headers: webhook.headers, body: webhook.body });
  if (first.status !== 200) throw new Error(`${integration}: ${first.status} ${await first.text()}`);
  const auth = basicAuth(bot.email, bot.api_key);
  const query = new URLSearchParams({ anchor: 'newest', num_before: '1', num_after: '0', apply_markdown: 'false' });
  // An incoming webhook bot may not read messages: the channel's owner reads it back.
  const newest = (await (await fetch(`${server.url}/api/v1/messages?${query}`, { headers: { authorization: reader } })).json()) as { messages: { subject: string; content: string }[] };
  const { subject, content } = newest.messages[0]!;
  const send: Target = {
    path: '/api/v1/messages',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth },
    body: new URLSearchParams({ type: 'stream', to: 'bench', topic: subject, content }).toString(),
  };
  return [webhook, send];
}

export async function run(): Promise<void> {
  const server = await startBenchServer<{ owner: Account; members: Account[] }>('parley', { BENCH_USERS: '9' });
  try {
    const { owner, members } = server.info;
    const ownerAuth = basicAuth(owner.email, owner.api_key);
    const bot = (await call(server, 'POST', '/bots', ownerAuth, { full_name: 'Bench Hook', short_name: 'benchhook', bot_type: '2' })) as { email: string; api_key: string; user_id: number };
    // A channel of ten people and the bot: every post is a message with its rows and its event.
    const principals = JSON.stringify([owner.user_id, bot.user_id, ...members.map((m) => m.user_id)]);
    await call(server, 'POST', '/users/me/subscriptions', ownerAuth, { subscriptions: JSON.stringify([{ name: 'bench' }]), principals });
    const push = {
      ref: 'refs/heads/main',
      before: 'a'.repeat(40),
      after: 'b'.repeat(40),
      created: false,
      deleted: false,
      forced: false,
      compare: 'https://github.com/acme/widgets/compare/aaaaaaa...bbbbbbb',
      commits: [{ id: 'b'.repeat(40), message: 'Fix the widget', url: 'https://github.com/acme/widgets/commit/bbbbbbb', author: { name: 'Ada', username: 'ada' } }],
      repository: { name: 'widgets', full_name: 'acme/widgets', html_url: 'https://github.com/acme/widgets', private: false },
      pusher: { name: 'ada' },
      sender: { login: 'ada' },
    };
    const cases: [string, Target, Target][] = [
      ['json', ...(await pair(server, bot, ownerAuth, 'json', {}, { alert: 'disk almost full', host: 'db-1', used: 0.93 }))],
      ['github (push)', ...(await pair(server, bot, ownerAuth, 'github', { 'X-GitHub-Event': 'push' }, push))],
    ];
    const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
    for (const [name, webhook, send] of cases) {
      const times: [number[], number[]] = [[], []];
      for (let round = -1; round < rounds; round++) {
        const hook = await timePosts(server.url, webhook);
        const sent = await timePosts(server.url, send);
        if (round >= 0) {
          times[0].push(hook);
          times[1].push(sent);
        }
        if (process.env.BENCH_VERBOSE) console.log(`    round ${round} ${name}: webhook ${hook.toFixed(0)} ms, POST /messages ${sent.toFixed(0)} ms`);
      }
      record({
        group: GROUP,
        name: `${POSTS.toLocaleString('en-US')} incoming webhook posts, ${name} (${CONNECTIONS} connections)`,
        value: median(times[0]),
        unit: 'ms',
        baseline: { name: `${POSTS.toLocaleString('en-US')} POST /messages of the same content`, value: median(times[1]) },
        target: '<= 130%',
      });
    }
  } finally {
    server.stop();
  }
}
