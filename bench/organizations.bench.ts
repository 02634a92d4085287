// A host of 1,000 organizations (createChatHost in a child process, bench/servers.ts 'host'), 50
// of them active: each with a client's queue, a few messages sent and read, and a long-poll
// waiting. Figures: opening each of the 1,000 once (as `parley serve --orgs` does at start), the
// server's memory for the 50 (next to the host with none open), the same after 300 more writes
// each (their WAL checkpoints started), and the first request to a closed organization (next to
// the same request to an open one).
import http from 'node:http';
import { basicAuth, startBenchServer, type BenchServer } from './load.js';
import { median, record } from './harness.js';

const ACTIVE = 50;
const COLD_SAMPLES = 40;

interface Account {
  email: string;
  api_key: string;
  user_id: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });

/** One request to organization `org` of the host; resolves with the status and the parsed body. */
function call(base: string, org: string, method: string, path: string, user: Account, params: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const query = new URLSearchParams(params).toString();
  const body = method === 'GET' ? undefined : query;
  const url = `${base}/api/v1${path}${method === 'GET' && query ? `?${query}` : ''}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          host: `${org}.bench.test`,
          authorization: basicAuth(user.email, user.api_key),
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
const mib = (bytes: number): number => bytes / 1024 / 1024;

async function activate(server: BenchServer, org: string, owner: Account, member: Account, writes: number): Promise<void> {
  const queue = (await call(server.url, org, 'POST', '/register', member, { event_types: '["message"]' })).body;
  for (let i = 0; i < writes; i++) {
    const sent = await call(server.url, org, 'POST', '/messages', owner, { type: 'direct', to: `[${member.user_id}]`, content: `hello ${i}` });
    if (sent.status !== 200) throw new Error(`send in ${org}: ${JSON.stringify(sent.body)}`);
  }
  await call(server.url, org, 'GET', '/messages', member, { anchor: 'newest', num_before: '20', num_after: '0' });
  const polled = await call(server.url, org, 'GET', '/events', member, { queue_id: queue.queue_id, last_event_id: '-1', dont_block: 'true' });
  const last = Math.max(queue.last_event_id, ...polled.body.events.map((e: { id: number }) => e.id));
  // The long-poll stays open until the server stops: the client is connected.
  void call(server.url, org, 'GET', '/events', member, { queue_id: queue.queue_id, last_event_id: String(last) }).catch(() => undefined);
}

export async function run(): Promise<void> {
  const server = await startBenchServer<{ owner: Account; member: Account; names: string[] }>('host');
  const { owner, member, names } = server.info;
  try {
    const visitMs = await server.ask<number>('visit');
    record({ group: 'organizations', name: `opening each of the ${names.length} once and closing it again (parley serve --orgs at start)`, value: visitMs / names.length, unit: 'ms per organization' });
    const none = await server.memory();
    const active = names.slice(0, ACTIVE);
    for (const org of active) await activate(server, org, owner, member, 10);
    const light = await server.memory();
    record({ group: 'organizations', name: `host of ${names.length}, ${ACTIVE} active (a queue, 10 sends, a read, a waiting long-poll each): RSS`, value: mib(light.rss), unit: 'MiB', baseline: { name: 'the host with none open (each opened once before)', value: mib(none.rss) } });
    record({ group: 'organizations', name: `the same: RSS per active organization`, value: mib(light.rss - none.rss) / ACTIVE, unit: 'MiB' });
    record({ group: 'organizations', name: `the same: JS heap per active organization`, value: mib(light.heapUsed - none.heapUsed) / ACTIVE, unit: 'MiB' });

    // First requests to organizations never opened, next to the same request to an open one.
    const cold: number[] = [];
    const warm: number[] = [];
    for (const [i, org] of names.slice(ACTIVE, ACTIVE + COLD_SAMPLES).entries()) {
      let start = process.hrtime.bigint();
      const first = await call(server.url, org, 'GET', '/users/me', owner);
      cold.push(ms(start));
      if (first.status !== 200) throw new Error(`cold ${org}: ${first.status}`);
      start = process.hrtime.bigint();
      await call(server.url, active[i % ACTIVE]!, 'GET', '/users/me', owner);
      warm.push(ms(start));
    }
    record({
      group: 'organizations',
      name: `first request to a closed organization (GET /users/me: open its database, check its schema, make its server, serve; median of ${COLD_SAMPLES})`,
      value: median(cold),
      unit: 'ms',
      baseline: { name: 'the same request to an open one', value: median(warm) },
    });

    for (const org of active) {
      for (let i = 0; i < 300; i++) await call(server.url, org, 'POST', '/messages', owner, { type: 'direct', to: `[${member.user_id}]`, content: `more ${i}` });
    }
    const heavy = await server.memory();
    record({ group: 'organizations', name: `the ${ACTIVE} after 300 more sends each (their WAL checkpoints in the shared thread): RSS per active organization`, value: mib(heavy.rss - none.rss) / ACTIVE, unit: 'MiB' });

    record({ group: 'organizations', name: 'organizations open at the end (maxOpen 100)', value: await server.ask<number>('host'), unit: '' });
  } finally {
    agent.destroy();
    server.stop();
  }
}
