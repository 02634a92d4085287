// The write path over HTTP (req/s next to a bare node:http server doing one UPDATE transaction
// per request, loaded in alternating rounds): star or unstar one message, set another user's
// status, add or remove a reaction. BENCH_COMPARE_ROOT=<another checkout> loads a second parley server
// built from that checkout in the same rounds (before/after figures from one run).
import { record } from './harness.js';
import { basicAuth, interleavedLoads, startBenchServer, type BenchServer, type LoadOptions } from './load.js';
import type { Account } from './chat.js';

const GROUP = 'write path';
const MESSAGES = 2000;
const EMOJI = ['smile', 'heart', 'octopus', 'tada', 'eyes', 'wave', 'rocket', 'star', 'fire', 'cat', 'dog', 'sunny', 'pizza', 'coffee', 'beer', 'moon', 'cake', 'apple', 'bug', 'gift'];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

type Parley = BenchServer<{ owner: Account; members: Account[] }>;

/** The three write requests against one parley server, after sending the messages they need. */
async function writes(parley: Parley): Promise<LoadOptions[]> {
  const { owner, members } = parley.info;
  const headers = { ...FORM, authorization: basicAuth(owner.email, owner.api_key) };
  const post = (path: string, body: string): LoadOptions => ({ url: `${parley.url}/api/v1${path}`, method: 'POST', headers, body });
  const toSelf = new URLSearchParams({ type: 'direct', to: JSON.stringify([owner.user_id]), content: 'react to me' }).toString();
  const messageIds: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const sent = await fetch(`${parley.url}/api/v1/messages`, { method: 'POST', headers, body: toSelf });
    messageIds.push(((await sent.json()) as { id: number }).id);
  }
  let stars = 0;
  let reactions = 0;
  // The reactions each message has, as the server's answers said: a round's end cuts off requests
  // that the server may still have carried out, and the next round goes on from what it answered.
  const reacted = new Set<string>();
  return [
    {
      ...post('/messages/flags', ''),
      setupRequest: (request) => {
        const n = stars++;
        // Each message starred, then unstarred: every request changes one row.
        const op = Math.floor(n / MESSAGES) % 2 === 0 ? 'add' : 'remove';
        return { ...request, body: `messages=%5B${messageIds[n % MESSAGES]!}%5D&op=${op}&flag=starred` };
      },
    },
    post(`/users/${members[0]!.user_id}/status`, 'status_text=In+a+meeting&emoji_name=car'),
    {
      ...post('/messages/0/reactions', ''),
      setupRequest: (request, context) => {
        // Every emoji on every message, then each removed again, and so on: each request adds or
        // removes one reaction, however many rounds the load runs.
        const n = reactions++;
        const emoji = EMOJI[Math.floor(n / MESSAGES) % EMOJI.length]!;
        const id = messageIds[n % MESSAGES]!;
        const path = `/api/v1/messages/${id}/reactions`;
        const add = !reacted.has(`${id} ${emoji}`);
        Object.assign(context, { pair: `${id} ${emoji}`, add });
        if (add) return { ...request, method: 'POST', path, body: `emoji_name=${emoji}` };
        return { ...request, method: 'DELETE', path: `${path}?emoji_name=${emoji}`, body: '' };
      },
      // Done, or refused as already so (the cut-off request did it): either way it is so now.
      onResponse: (_status, _body, context) => {
        if (context.add) reacted.add(context.pair as string);
        else reacted.delete(context.pair as string);
      },
      tolerateNon2xx: 50,
    },
  ];
}

const NAMES = ['POST /messages/flags (star or unstar one message)', 'POST /users/{id}/status (text + emoji)', 'POST / DELETE /messages/{id}/reactions (add or remove one reaction)'];

export async function run(): Promise<void> {
  const compareRoot = process.env.BENCH_COMPARE_ROOT;
  const [update, parley, other] = await Promise.all([
    startBenchServer('bare-update'),
    startBenchServer('parley', { BENCH_USERS: '1' }) as Promise<Parley>,
    compareRoot ? (startBenchServer('parley', { BENCH_USERS: '1', BENCH_PARLEY_ROOT: compareRoot }) as Promise<Parley>) : undefined,
  ]);
  const mine = await writes(parley);
  const theirs = other ? await writes(other) : [];
  const targets: LoadOptions[] = [{ url: `${update.url}/`, method: 'POST', headers: FORM, body: 'v=In+a+meeting' }];
  // Each parley request next to the same request on the compared server, in the same round.
  mine.forEach((target, i) => targets.push(target, ...(theirs[i] ? [theirs[i]] : [])));
  const rps = await interleavedLoads(targets);
  for (const server of [update, parley, other]) server?.stop();
  const baseline = { name: 'bare + one UPDATE transaction', value: rps[0]! };
  record({ group: GROUP, name: 'bare node:http + one UPDATE transaction', value: baseline.value, unit: 'req/s' });
  const step = other ? 2 : 1;
  NAMES.forEach((name, i) => {
    record({ group: GROUP, name, value: rps[1 + i * step]!, unit: 'req/s', baseline, target: '>= 60%' });
    if (other) record({ group: GROUP, name: `${name}, ${compareRoot}`, value: rps[2 + i * step]!, unit: 'req/s', baseline });
  });
}
