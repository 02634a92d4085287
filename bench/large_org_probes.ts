// The measurements of the large_org bench on one organization (bench/large_org_fixture.ts): each
// returns its figure and, where one applies, the baseline measured beside it in the same run.
import { statSync } from 'node:fs';
import http from 'node:http';
import Database from 'better-sqlite3';
import type { ChatServer } from '../lib/index.js';
import { median } from './harness.js';
import type { LargeOrg } from './large_org_fixture.js';
import { basicAuth, startBenchServer } from './load.js';

const elapsedMs = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/** Median ms of `rounds` calls of fn, after one call to warm up. */
export async function medianMs(fn: () => unknown, rounds: number): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(elapsedMs(start));
  }
  return median(times);
}

/** The WAL's bytes after fn, from an empty WAL: what one commit writes (frames of a page plus 24 bytes). */
export function walBytes(db: Database.Database, fn: () => unknown): number {
  db.pragma('wal_checkpoint(TRUNCATE)');
  fn();
  const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  return row!.log * ((db.pragma('page_size', { simple: true }) as number) + 24);
}

/** A send to "everyone" (no mention) and what it writes; the baseline writes one message row and one event row. */
export function sendFigures(chat: ChatServer, db: Database.Database, org: LargeOrg, rounds: number): { ms: number; wal: number; floorMs: number } {
  const send = () => chat.api.messages.send(org.ownerId, { type: 'stream', to: org.everyoneId, topic: 'bench', content: 'hello everyone' });
  const message = db.prepare(
    `INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, date_sent, sending_client) VALUES (?, ?, 'floor', 'x', '<p>x</p>', 1, 'bench')`,
  );
  const event = db.prepare("INSERT INTO event (user_id, type, payload, created_at) VALUES (NULL, 'message', ?, 1)");
  const payload = 'x'.repeat(900);
  const floor = db.transaction(() => {
    message.run(org.ownerId, org.everyoneId);
    event.run(payload);
  });
  send();
  floor();
  const times: number[] = [];
  const floors: number[] = [];
  const wal: number[] = [];
  for (let i = 0; i < rounds; i++) {
    db.pragma('wal_checkpoint(TRUNCATE)');
    let start = process.hrtime.bigint();
    send();
    times.push(elapsedMs(start));
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    wal.push(row!.log * ((db.pragma('page_size', { simple: true }) as number) + 24));
    start = process.hrtime.bigint();
    floor();
    floors.push(elapsedMs(start));
  }
  return { ms: median(times), wal: median(wal), floorMs: median(floors) };
}

function request(port: number, agent: http.Agent, method: string, path: string, auth: string, body?: string): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { authorization: auth, ...(body && { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }) },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(elapsedMs(start)) : reject(new Error(`${method} ${path}: ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Another client's GET /users/me while a send to "everyone" runs (both over HTTP to a server in its
 * own process): the median of its time minus the median of the same request alone.
 */
export async function concurrentReadDelay(org: LargeOrg, rounds: number): Promise<{ delayMs: number; aloneMs: number }> {
  const server = await startBenchServer('parley', { BENCH_DB_FILE: org.file });
  try {
    const port = Number(new URL(server.url).port);
    const db = new Database(org.file, { readonly: true });
    const key = (id: number) => db.prepare('SELECT email, api_key FROM user WHERE id = ?').get(id) as { email: string; api_key: string };
    const [owner, reader] = [key(org.ownerId), key(org.readerId)];
    db.close();
    const ownerAuth = basicAuth(owner.email, owner.api_key);
    const readerAuth = basicAuth(reader.email, reader.api_key);
    const sender = new http.Agent({ keepAlive: true });
    const readerAgent = new http.Agent({ keepAlive: true });
    const body = `type=stream&to=${org.everyoneId}&topic=bench&content=hello`;
    const alone: number[] = [];
    for (let i = 0; i < rounds + 5; i++) alone.push(await request(port, readerAgent, 'GET', '/api/v1/users/me', readerAuth));
    const during: number[] = [];
    await request(port, sender, 'POST', '/api/v1/messages', ownerAuth, body);
    for (let i = 0; i < rounds; i++) {
      const send = request(port, sender, 'POST', '/api/v1/messages', ownerAuth, body);
      await new Promise((resolve) => setTimeout(resolve, 2));
      during.push(await request(port, readerAgent, 'GET', '/api/v1/users/me', readerAuth));
      await send;
    }
    sender.destroy();
    readerAgent.destroy();
    const aloneMs = median(alone.slice(5));
    return { delayMs: Math.max(0, median(during) - aloneMs), aloneMs };
  } finally {
    server.stop();
  }
}

/** POST /register (in-process, with the JSON the HTTP layer would write): ms, bytes, and the bytes of its channel lists. */
export async function registerFigures(
  chat: ChatServer,
  userId: number,
  input: { clientCapabilities?: Record<string, unknown>; includeSubscribers?: boolean | 'partial' },
  rounds: number,
): Promise<{ ms: number; bytes: number; channelBytes: number }> {
  let bytes = 0;
  let answer: Record<string, unknown> = {};
  // The answer and its JSON, as an HTTP request would make them; the channel lists' share after.
  const ms = await medianMs(() => {
    answer = chat.api.events.register(userId, { eventTypes: null, ...input }) as Record<string, unknown>;
    bytes = Buffer.byteLength(JSON.stringify(answer));
  }, rounds);
  const channelBytes = Buffer.byteLength(JSON.stringify([answer.streams, answer.subscriptions, answer.unsubscribed, answer.never_subscribed]));
  return { ms, bytes, channelBytes };
}

/** The WAL file's size now, in bytes (0 when there is none). */
export function walFileBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
