// Reactions, typing notifications and presence pings over HTTP (req/s next to a bare node:http
// server doing one UPDATE transaction per request): a new reaction each request (one reaction row,
// one event row), POST /typing to one recipient (start and stop in turn, one event row each), and
// POST /users/me/presence as clients send it every minute (ping_only, and with everyone's presences).
import { record } from './harness.js';
import { basicAuth, interleavedLoads, startBenchServer } from './load.js';
import type { Account } from './chat.js';

const GROUP = 'reactions, typing and presence';

/** Emoji names for the reactions: each (message, emoji) pair is reacted with once. */
const EMOJI = ['smile', 'heart', 'octopus', 'tada', 'eyes', 'wave', 'rocket', 'star', 'fire', 'cat', 'dog', 'sunny', 'pizza', 'coffee', 'beer', 'moon', 'cake', 'apple', 'bug', 'gift',
  'fish', 'frog', 'tiger', 'horse', 'whale', 'snail', 'cookie', 'lemon', 'cherries', 'grapes', 'banana', 'corn', 'ghost', 'skull', 'bell', 'key', 'lock', 'bulb', 'book', 'pencil'];
const MESSAGES = 2000;

export async function run(): Promise<void> {
  const [update, parley] = await Promise.all([
    startBenchServer('bare-update'),
    startBenchServer<{ owner: Account; members: Account[] }>('parley', { BENCH_USERS: '20' }),
  ]);
  const { owner, members } = parley.info;
  const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(owner.email, owner.api_key) };
  const post = (path: string, params: Record<string, string>) => ({ url: `${parley.url}/api/v1${path}`, method: 'POST' as const, headers, body: new URLSearchParams(params).toString() });
  // Every member reported once, so the presences answer has 21 entries.
  for (const member of members) {
    const auth = basicAuth(member.email, member.api_key);
    await fetch(`${parley.url}/api/v1/users/me/presence`, { method: 'POST', headers: { ...headers, authorization: auth }, body: 'status=active&ping_only=true' });
  }
  const messageIds: number[] = [];
  const toSelf = new URLSearchParams({ type: 'direct', to: JSON.stringify([owner.user_id]), content: 'react to me' }).toString();
  for (let i = 0; i < MESSAGES; i++) {
    const sent = await fetch(`${parley.url}/api/v1/messages`, { method: 'POST', headers, body: toSelf });
    messageIds.push(((await sent.json()) as { id: number }).id);
  }
  let reactions = 0;
  const reaction = {
    ...post('/messages/0/reactions', { emoji_name: 'smile' }),
    setupRequest: (request: { path?: string; body?: string }) => {
      const n = reactions++;
      const emoji = EMOJI[Math.floor(n / MESSAGES) % EMOJI.length]!;
      return { ...request, path: `/api/v1/messages/${messageIds[n % MESSAGES]!}/reactions`, body: `emoji_name=${emoji}` };
    },
  };
  // Start and stop in turn in each of 20 conversations (one recipient each): the same op again
  // within 5 s is dropped (lib/domain/typing_throttle.ts), and each request should write its event
  // row as a client's do. A request overtaken by the next one of its conversation (20 later) is
  // still dropped, so a few requests are cheaper than the rest.
  let typings = 0;
  const typing = {
    ...post('/typing', { op: 'start', to: JSON.stringify([members[0]!.user_id]) }),
    setupRequest: (request: { body?: string }) => {
      const n = typings++;
      const to = JSON.stringify([members[n % members.length]!.user_id]);
      return { ...request, body: new URLSearchParams({ op: Math.floor(n / members.length) % 2 === 0 ? 'start' : 'stop', to }).toString() };
    },
  };
  const [updateRps, reactionRps, typingRps, pingRps, fetchRps] = (await interleavedLoads([
    { url: `${update.url}/api/v1/typing`, method: 'POST', headers: { 'content-type': headers['content-type'] }, body: 'v=start' },
    reaction,
    typing,
    post('/users/me/presence', { status: 'active', ping_only: 'true' }),
    post('/users/me/presence', { status: 'active', slim_presence: 'true' }),
  ])) as [number, number, number, number, number];
  for (const server of [update, parley]) server.stop();
  const baseline = { name: 'bare + one UPDATE transaction', value: updateRps };
  record({ group: GROUP, name: 'bare node:http + one UPDATE transaction', value: updateRps, unit: 'req/s' });
  record({ group: GROUP, name: 'POST /api/v1/messages/{id}/reactions (a new reaction each)', value: reactionRps, unit: 'req/s', baseline, target: '>= 60%' });
  record({ group: GROUP, name: 'POST /api/v1/typing (direct, one recipient)', value: typingRps, unit: 'req/s', baseline });
  record({ group: GROUP, name: 'POST /api/v1/users/me/presence (ping_only)', value: pingRps, unit: 'req/s', baseline });
  record({ group: GROUP, name: 'POST /api/v1/users/me/presence (21 presences, slim)', value: fetchRps, unit: 'req/s', baseline });
}
