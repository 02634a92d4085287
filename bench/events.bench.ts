// Event figures: one change fanned out to 1,000 waiting long-polls (time until the last one has
// it), and the memory an idle queue and a waiting long-poll cost the server.
import http from 'node:http';
import { record } from './harness.js';
import { basicAuth, startBenchServer } from './load.js';
import { type Account } from './chat.js';

const CLIENTS = 1000;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function call(url: string, method: string, auth: string, form?: Record<string, string>): Promise<any> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { authorization: auth, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function run(): Promise<void> {
  const server = await startBenchServer<{ owner: Account; members: Account[] }>('parley', { BENCH_USERS: String(CLIENTS) });
  const api = server.url + '/api/v1';
  const { owner, members } = server.info;
  const before = await server.memory();
  const queues: { auth: string; queue_id: string; last_event_id: number }[] = [];
  for (const member of members) {
    const auth = basicAuth(member.email, member.api_key);
    const reply = await call(`${api}/register`, 'POST', auth, { event_types: '["realm_user"]', fetch_event_types: '[]' });
    queues.push({ auth, queue_id: reply.queue_id, last_event_id: reply.last_event_id });
  }
  const registered = await server.memory();

  let received = 0;
  let lastAt = 0n;
  const polls = queues.map((q) =>
    call(`${api}/events?queue_id=${encodeURIComponent(q.queue_id)}&last_event_id=${q.last_event_id}`, 'GET', q.auth).then((reply) => {
      if (reply.events?.[0]?.type === 'realm_user') received += 1;
      lastAt = process.hrtime.bigint();
    }),
  );
  while ((await server.waiters()) < CLIENTS) await new Promise((resolve) => setTimeout(resolve, 50));
  const waiting = await server.memory();

  const start = process.hrtime.bigint();
  await call(`${api}/users/${members[0]!.user_id}`, 'PATCH', basicAuth(owner.email, owner.api_key), { full_name: 'Fanned Out' });
  await Promise.all(polls);
  const fanOutMs = Number(lastAt - start) / 1e6;
  const serverFanOutMs = await server.fanout();
  server.stop();
  agent.destroy();

  if (received !== CLIENTS) throw new Error(`only ${received} of ${CLIENTS} polls received the event`);
  record({ group: 'events', name: `one change fanned out to ${CLIENTS} waiting long-polls`, value: fanOutMs, unit: 'ms', target: '< 100 ms' });
  record({
    group: 'events',
    name: `the same, server side: PATCH received until the last of the ${CLIENTS} responses is written`,
    value: serverFanOutMs,
    unit: 'ms',
  });
  record({
    group: 'events',
    name: 'server memory per idle queue (registered, not polling)',
    value: Math.max(0, (registered.heapUsed - before.heapUsed) / CLIENTS / 1024),
    unit: 'KB',
    target: '< 10 KB',
  });
  record({
    group: 'events',
    name: 'server memory per waiting long-poll (socket, request, waiter)',
    value: Math.max(0, (waiting.heapUsed + waiting.external - registered.heapUsed - registered.external) / CLIENTS / 1024),
    unit: 'KB',
  });
}
