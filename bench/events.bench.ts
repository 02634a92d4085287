// Event figures: one change fanned out to 1,000 waiting long-polls (time until the last one has
// it), and the memory an idle queue and a waiting long-poll cost the server.
//
// The long-polls are 1,000 keep-alive sockets speaking plain HTTP/1.1 (request line, headers,
// a Content-Length body parsed as JSON): node:http's client costs the one bench process more per
// response than the server spends, and the figure is about the server (the load generator must
// not be what is measured). Registration goes through node:http.
//
// The fan-out is repeated: the first one after start runs the delivery path cold (V8 has not
// compiled it yet) and is reported on its own; the figure with the target is the median of the
// rounds after two warm-up rounds, a long-running server's steady state.
import http from 'node:http';
import net from 'node:net';
import { median, record } from './harness.js';
import { basicAuth, startBenchServer } from './load.js';
import { type Account } from './chat.js';

const CLIENTS = 1000;
const WARM_UP_ROUNDS = 2;
const ROUNDS = 5;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });

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

/** One client's long-poll connection: GET /events on a kept-alive socket, one request at a time. */
class LongPoll {
  readonly #socket: net.Socket;
  #pending: Buffer[] = [];
  #done: ((body: any) => void) | undefined;
  #fail: ((error: Error) => void) | undefined;

  constructor(
    port: number,
    readonly auth: string,
    readonly queueId: string,
    public lastEventId: number,
  ) {
    this.#socket = net.connect(port, '127.0.0.1');
    this.#socket.on('data', (chunk: Buffer) => this.#received(chunk));
    this.#socket.on('error', (error) => this.#fail?.(error));
  }

  poll(): Promise<any> {
    return new Promise((resolve, reject) => {
      this.#done = resolve;
      this.#fail = reject;
      const path = `/api/v1/events?queue_id=${encodeURIComponent(this.queueId)}&last_event_id=${this.lastEventId}`;
      this.#socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${this.auth}\r\n\r\n`);
    });
  }

  #received(chunk: Buffer): void {
    this.#pending.push(chunk);
    const data = this.#pending.length === 1 ? chunk : Buffer.concat(this.#pending);
    const headEnd = data.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = data.subarray(0, headEnd).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!head.startsWith('HTTP/1.1 200 ') || length === null) {
      this.#fail?.(new Error(`unexpected long-poll answer: ${head.split('\r\n')[0]}`));
      return;
    }
    const end = headEnd + 4 + Number(length[1]);
    if (data.length < end) return;
    this.#pending = [];
    const body = JSON.parse(data.subarray(headEnd + 4, end).toString('utf8'));
    this.lastEventId = body.events.at(-1)?.id ?? this.lastEventId;
    this.#done?.(body);
  }

  close(): void {
    this.#socket.destroy();
  }
}

export async function run(): Promise<void> {
  const server = await startBenchServer<{ owner: Account; members: Account[] }>('parley', { BENCH_USERS: String(CLIENTS) });
  const api = server.url + '/api/v1';
  const port = Number(new URL(server.url).port);
  const { owner, members } = server.info;
  const ownerAuth = basicAuth(owner.email, owner.api_key);
  const before = await server.memory();
  const queues: { auth: string; queue_id: string; last_event_id: number }[] = [];
  for (const member of members) {
    const auth = basicAuth(member.email, member.api_key);
    const reply = await call(`${api}/register`, 'POST', auth, { event_types: '["realm_user"]', fetch_event_types: '[]' });
    queues.push({ auth, queue_id: reply.queue_id, last_event_id: reply.last_event_id });
  }
  const registered = await server.memory();
  // Connected after the idle-queue figure: a socket is part of a waiting long-poll, not of a queue.
  const clients = queues.map((q) => new LongPoll(port, q.auth, q.queue_id, q.last_event_id));

  let waiting: NodeJS.MemoryUsage | undefined;
  const clientMs: number[] = [];
  const serverMs: number[] = [];
  for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS + 1; round++) {
    let received = 0;
    let lastAt = 0n;
    const polls = clients.map((client) =>
      client.poll().then((reply) => {
        if (reply.events?.[0]?.type === 'realm_user') received += 1;
        lastAt = process.hrtime.bigint();
      }),
    );
    while ((await server.waiters()) < CLIENTS) await new Promise((resolve) => setTimeout(resolve, 20));
    waiting ??= await server.memory();
    const start = process.hrtime.bigint();
    await call(`${api}/users/${members[0]!.user_id}`, 'PATCH', ownerAuth, { full_name: `Fanned Out ${round}` });
    await Promise.all(polls);
    if (received !== CLIENTS) throw new Error(`only ${received} of ${CLIENTS} polls received the event`);
    clientMs.push(Number(lastAt - start) / 1e6);
    serverMs.push(await server.fanout());
  }
  server.stop();
  agent.destroy();
  for (const client of clients) client.close();

  const steady = (values: number[]): number => median(values.slice(WARM_UP_ROUNDS + 1));
  record({
    group: 'events',
    name: `one change fanned out to ${CLIENTS} waiting long-polls (median of ${ROUNDS} after warm-up)`,
    value: steady(clientMs),
    unit: 'ms',
    target: '< 100 ms',
  });
  record({
    group: 'events',
    name: `the same, server side: PATCH received until the last of the ${CLIENTS} responses is written`,
    value: steady(serverMs),
    unit: 'ms',
  });
  record({ group: 'events', name: 'the first fan-out after start (delivery path not yet compiled by V8)', value: clientMs[0]!, unit: 'ms' });
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
    value: Math.max(0, (waiting!.heapUsed + waiting!.external - registered.heapUsed - registered.external) / CLIENTS / 1024),
    unit: 'KB',
  });
}
