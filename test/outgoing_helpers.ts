// What the outgoing webhook suites share: a real HTTP server on 127.0.0.1 standing in for a bot's
// server (each request recorded, each answer scripted), a parley server that may reach it, an
// outgoing webhook bot pointing at it, and the messages the bot posted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import type { ChatOptions } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import { startServer, withAuth, type TestServer, type TestUser } from './helpers.js';
import { subscribe } from './messaging_helpers.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An answer: a status and a body (an object is sent as JSON), a hang, or a redirect. */
export type Answer = { status?: number; body?: unknown; headers?: Record<string, string> } | 'hang' | { redirect: string; status?: number } | { bytes: number };

export interface BotTarget {
  url: string;
  requests: ReceivedRequest[];
  /** Answers for the next requests, in order; after them, `fallback`. */
  script: Answer[];
  fallback: Answer;
  /** Resolves once the target received `count` requests in all. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTarget(t: Test, fallback: Answer = { body: { response_not_required: true } }): Promise<BotTarget> {
  const hanging = new Set<http.ServerResponse>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const target: BotTarget = {
    url: '',
    requests: [],
    script: [],
    fallback,
    async received(count) {
      if (target.requests.length >= count) return;
      await new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      target.requests.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const waiter of waiters.filter((w) => target.requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      answer(res, target.script.shift() ?? target.fallback, hanging);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => target.close());
  return target;
}

function answer(res: http.ServerResponse, reply: Answer, hanging: Set<http.ServerResponse>): void {
  if (reply === 'hang') {
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
    return;
  }
  if ('redirect' in reply) {
    res.writeHead(reply.status ?? 302, { location: reply.redirect }).end();
    return;
  }
  if ('bytes' in reply) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let left = reply.bytes;
    const write = (): void => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!res.write(piece)) {
          res.once('drain', write);
          return;
        }
      }
      res.end();
    };
    res.on('error', () => undefined);
    write();
    return;
  }
  const body = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(body);
}

/** A server whose outgoing webhooks may reach 127.0.0.1, with short retry delays unless told otherwise. */
export function outgoingServer(options: ChatOptions = {}): Promise<TestServer> {
  return startServer({ ...options, outgoingWebhooks: { allowPrivateAddresses: true, retryDelaysMs: [10, 10, 10], ...options.outgoingWebhooks } });
}

/** An outgoing webhook bot of `owner` (POST /bots, bot_type 3) whose server is `url`. */
export async function outgoingBot(s: TestServer, owner: TestUser, url: string, options: { name?: string; interfaceType?: number } = {}): Promise<TestUser & { full_name: string }> {
  const name = options.name ?? 'Echo';
  const params: Record<string, unknown> = { full_name: `${name} Bot`, short_name: name.toLowerCase(), bot_type: 3, payload_url: JSON.stringify(url) };
  if (options.interfaceType !== undefined) params.interface_type = options.interfaceType;
  const reply = await s.request('POST', '/bots', { as: owner, params });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return { ...withAuth(reply.body as { email: string; api_key: string; user_id: number }), full_name: `${name} Bot` };
}

/** The service token POST /bots gave the bot (its owner sees it in realm_bots). */
export function tokenOf(s: TestServer, botId: number): string {
  return s.db.prepare('SELECT token FROM bot_service WHERE bot_id = ?').pluck().get(botId) as string;
}

/** A channel `users` are subscribed to. */
export async function channel(s: TestServer, users: TestUser[], name = 'Verona'): Promise<number> {
  const reply = await subscribe(s, users[0]!, [name], { principals: users.map((u) => u.user_id) });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number;
}

/** Waits until every delivery due now has been attempted (and what those attempts wrote). */
export async function settle(s: TestServer): Promise<void> {
  await deliveryRunner(contextOf(s.chat))!.settled();
}

export interface Posted {
  id: number;
  content: string;
  stream_id: number | null;
  topic: string;
  direct_group_id: number | null;
  sending_client: string;
}

/** The messages `sender` sent, oldest first. */
export function postedBy(s: TestServer, senderId: number): Posted[] {
  return s.db
    .prepare('SELECT id, content, stream_id, topic, direct_group_id, sending_client FROM message WHERE sender_id = ? ORDER BY id')
    .all(senderId) as Posted[];
}

/** The outgoing_webhook deliveries still in the outbox. */
export function pendingDeliveries(s: Pick<TestServer, 'db'>): number {
  return s.db.prepare("SELECT count(*) FROM delivery WHERE kind = 'outgoing_webhook'").pluck().get() as number;
}
