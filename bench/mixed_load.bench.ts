// A sustained mixed load: seven operations (another user's status, message
// flags, a linkifier added and removed, a navigation view pinned and hidden, a draft created and
// deleted, alert words added and removed, an E2EE test notification through a bouncer stand-in)
// plus message sends, from 50 concurrent clients for BENCH_SECONDS (default 60). Reports
// throughput against a bare node:http server doing one UPDATE transaction per request under the
// same clients, p50/p99 latency per operation, and the server's resident memory over the run.
import http from 'node:http';
import { keyParams, newPhone, startBouncer, tokenParams } from '../test/bouncer.js';
import { boundExceeded, fmt, record } from './harness.js';
import { basicAuth, startBenchServer, type BenchServer } from './load.js';
import { type Account } from './chat.js';

const GROUP = 'mixed load';
const CLIENTS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/**
 * The stated bounds between warm-up and the end: the heap in use after a full GC (a leak would
 * show there) and resident memory (which also holds V8's heap reserve; it varies run to run).
 */
const HEAP_GROWTH_BOUND_MB = 16;
const RSS_GROWTH_BOUND_MB = 128;

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

function post(base: string, method: string, path: string, auth: string | undefined, form: Record<string, string | number | boolean> = {}): Promise<{ status: number; body: any }> {
  const body = new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) };
    if (auth) headers.authorization = auth;
    const req = http.request(base + path, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** Runs `client(i, timed)` for CLIENTS clients until `seconds` pass; returns the latencies by operation. */
async function drive(seconds: number, client: (i: number, timed: (op: string, call: () => Promise<{ status: number; body: any }>) => Promise<any>) => Promise<void>) {
  const latencies = new Map<string, number[]>();
  const failures: string[] = [];
  const end = Date.now() + seconds * 1000;
  const timed = async (op: string, call: () => Promise<{ status: number; body: any }>) => {
    const start = process.hrtime.bigint();
    const reply = await call();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (reply.status !== 200 && failures.length < 10) failures.push(`${op}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
    let list = latencies.get(op);
    if (!list) latencies.set(op, (list = []));
    list.push(ms);
    return reply.body;
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CLIENTS }, async (_, i) => {
    while (Date.now() < end) await client(i, timed);
  }));
  const elapsed = (Date.now() - started) / 1000;
  if (failures.length > 0) throw new Error(`mixed load: requests failed:\n${failures.join('\n')}`);
  return { latencies, elapsed };
}

async function ceiling(): Promise<number> {
  const bare = await startBenchServer('bare-update');
  try {
    let n = 0;
    const { latencies, elapsed } = await drive(Math.min(SECONDS, 10), async (_i, timed) => {
      await timed('update', () => post(bare.url, 'POST', '/', undefined, { v: n++ }));
    });
    return latencies.get('update')!.length / elapsed;
  } finally {
    bare.stop();
  }
}

async function setUp(server: BenchServer<{ owner: Account; members: Account[] }>, bouncer: Awaited<ReturnType<typeof startBouncer>>) {
  const { owner, members } = server.info;
  const auth = members.map((m) => basicAuth(m.email, m.api_key));
  const url = server.url;
  const subscribed = await post(url, 'POST', '/api/v1/users/me/subscriptions', basicAuth(owner.email, owner.api_key), {
    subscriptions: JSON.stringify([{ name: 'bench' }]),
    principals: JSON.stringify([owner.user_id, ...members.map((m) => m.user_id)]),
  });
  if (subscribed.status !== 200) throw new Error(JSON.stringify(subscribed.body));
  const devices: number[] = [];
  for (const [i, member] of members.entries()) {
    const device = (await post(url, 'POST', '/api/v1/register_client_device', auth[i])).body.device_id as number;
    const phone = newPhone(i % 2 === 0 ? 'fcm' : 'apns');
    const registered = await post(url, 'POST', '/api/v1/mobile_push/register', auth[i], { device_id: device, ...keyParams(bouncer, phone), ...tokenParams(bouncer, phone) });
    if (registered.status !== 200) throw new Error(`${member.email}: ${JSON.stringify(registered.body)}`);
    devices.push(device);
    await post(url, 'POST', '/api/v1/navigation_views', auth[i], { fragment: `narrow/bench/${i}`, is_pinned: true, name: `Bench ${i}` });
  }
  for (let wait = 0; bouncer.registrations.size < members.length; wait += 1) {
    if (wait > 500) throw new Error(`only ${bouncer.registrations.size} devices registered with the stand-in`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { members, auth, devices };
}

export async function run(): Promise<void> {
  const bareRate = await ceiling();
  const bouncer = await startBouncer();
  const server = await startBenchServer<{ owner: Account; members: Account[] }>('parley', {
    BENCH_USERS: String(CLIENTS),
    BENCH_USER_ROLE: 'admin',
    BENCH_BOUNCER_URL: bouncer.url,
    BENCH_BOUNCER_ID: bouncer.serverId,
    BENCH_BOUNCER_KEY: bouncer.serverKey,
  });
  try {
    const { members, auth, devices } = await setUp(server, bouncer);
    const url = `${server.url}/api/v1`;
    const counters = members.map(() => ({ step: 0, messages: [] as number[], pinned: true }));
    const client = async (i: number, timed: (op: string, call: () => Promise<{ status: number; body: any }>) => Promise<any>) => {
      const me = counters[i]!;
      const n = me.step++;
      const a = auth[i]!;
      switch (n % 8) {
        case 0: {
          const other = members[(i + 1) % members.length]!;
          await timed('POST /users/{id}/status', () => post(url, 'POST', `/users/${other.user_id}/status`, a, { status_text: `Busy ${n}` }));
          break;
        }
        case 1: {
          const sent = await timed('POST /messages', () => post(url, 'POST', '/messages', a, { type: 'stream', to: 'bench', topic: `t${i % 5}`, content: `message ${n} from ${i}` }));
          me.messages = [...me.messages.slice(-9), sent.id as number];
          break;
        }
        case 2:
          await timed('POST /messages/flags', () =>
            post(url, 'POST', '/messages/flags', a, { messages: JSON.stringify(me.messages), op: n % 16 < 8 ? 'add' : 'remove', flag: 'starred' }),
          );
          break;
        case 3: {
          const added = await timed('POST /realm/filters', () =>
            post(url, 'POST', '/realm/filters', a, { pattern: `B${i}x${n}-(?P<id>[0-9]+)`, url_template: 'https://example.com/{id}' }),
          );
          await timed('DELETE /realm/filters/{id}', () => post(url, 'DELETE', `/realm/filters/${added.id}`, a));
          break;
        }
        case 4:
          me.pinned = !me.pinned;
          await timed('PATCH /navigation_views/{fragment}', () => post(url, 'PATCH', `/navigation_views/narrow/bench/${i}`, a, { is_pinned: me.pinned }));
          break;
        case 5: {
          const created = await timed('POST /drafts', () => post(url, 'POST', '/drafts', a, { drafts: JSON.stringify([{ type: '', to: [], topic: '', content: `draft ${n}` }]) }));
          await timed('DELETE /drafts/{id}', () => post(url, 'DELETE', `/drafts/${created.ids[0]}`, a));
          break;
        }
        case 6:
          await timed('POST /users/me/alert_words', () => post(url, 'POST', '/users/me/alert_words', a, { alert_words: JSON.stringify([`w${n}`, `v${n}`]) }));
          await timed('DELETE /users/me/alert_words', () => post(url, 'DELETE', '/users/me/alert_words', a, { alert_words: JSON.stringify([`w${n}`, `v${n}`]) }));
          break;
        default:
          await timed('POST /mobile_push/e2ee/test_notification', () => post(url, 'POST', '/mobile_push/e2ee/test_notification', a, { device_id: devices[i]! }));
      }
    };
    await drive(Math.min(5, SECONDS / 10), client);
    const before = await server.memory();
    // RSS every tenth of the run: growth that levels off is the heap sizing itself, not a leak.
    const series: number[] = [];
    const sampler = setInterval(() => void server.memory().then((m) => series.push(m.rss / 1024 / 1024)), (SECONDS * 1000) / 10);
    const { latencies, elapsed } = await drive(SECONDS, client);
    clearInterval(sampler);
    const after = await server.memory();

    const all = [...latencies.values()].flat().sort((x, y) => x - y);
    record({ group: GROUP, name: `${CLIENTS} clients, ${SECONDS} s: requests`, value: all.length / elapsed, unit: 'req/s', baseline: { name: 'bare node:http + one UPDATE transaction, same clients', value: bareRate } });
    record({ group: GROUP, name: 'latency p50 (all requests)', value: percentile(all, 50), unit: 'ms' });
    record({ group: GROUP, name: 'latency p99 (all requests)', value: percentile(all, 99), unit: 'ms' });
    for (const [op, list] of [...latencies].sort()) {
      const sorted = list.sort((x, y) => x - y);
      console.log(`    ${op}: ${list.length} requests, p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms`);
    }
    const mb = (bytes: number) => bytes / 1024 / 1024;
    record({ group: GROUP, name: 'server RSS after warm-up', value: mb(before.rss), unit: 'MB' });
    record({ group: GROUP, name: 'server RSS at the end', value: mb(after.rss), unit: 'MB', target: `<= ${fmt(mb(before.rss) + RSS_GROWTH_BOUND_MB)} MB (warm-up + ${RSS_GROWTH_BOUND_MB} MB)` });
    record({ group: GROUP, name: 'server heap used after GC: growth warm-up -> end', value: mb(after.heapUsed - before.heapUsed), unit: 'MB', target: `<= ${HEAP_GROWTH_BOUND_MB} MB` });
    console.log(`    server RSS during the run (MB): ${series.map((v) => fmt(v)).join(', ')}`);
    console.log(`    memory warm-up -> end (MB): ${(['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'] as const).map((k) => `${k} ${fmt(mb(before[k]))} -> ${fmt(mb(after[k]))}`).join(', ')}`);
    if (mb(after.rss - before.rss) > RSS_GROWTH_BOUND_MB) {
      boundExceeded(`mixed load: server resident memory grew by ${fmt(mb(after.rss - before.rss))} MB, over the bound of ${RSS_GROWTH_BOUND_MB} MB`);
    }
    if (mb(after.heapUsed - before.heapUsed) > HEAP_GROWTH_BOUND_MB) {
      boundExceeded(`mixed load: server heap in use after GC grew by ${fmt(mb(after.heapUsed - before.heapUsed))} MB, over the bound of ${HEAP_GROWTH_BOUND_MB} MB`);
    }
    if (bouncer.problems.length > 0) throw new Error(`bouncer stand-in saw protocol problems: ${bouncer.problems.slice(0, 3).join('; ')}`);
  } finally {
    server.stop();
    await bouncer.close();
  }
}
