// A Web Push service stand-in for tests: a real HTTPS server on 127.0.0.1 (the self-signed
// certificate of test/fixtures) taking RFC 8030 push requests. It plays the browsers too: each
// subscription it makes has its own P-256 key pair and auth secret, and every request is checked
// (VAPID, RFC 8292: the ES256 JWT's signature with the key it names, its audience and expiry;
// the TTL, Urgency and Content-Encoding headers) and decrypted (aes128gcm, RFC 8291 and RFC 8188,
// with node:crypto's ECDH, HKDF and AES-GCM) as a browser would.
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import nodeFetch from 'node-fetch';

const CERT = readFileSync(new URL('fixtures/push-service-cert.pem', import.meta.url));
const KEY = readFileSync(new URL('fixtures/push-service-key.pem', import.meta.url));

/** How the service answers a push: a status, or never. */
export type PushAnswer = number | 'hang';

export interface TestBrowserSubscription {
  id: string;
  endpoint: string;
  /** As PushSubscription.getKey gives them, base64url: what the server is told. */
  p256dh: string;
  auth: string;
  ecdh: ECDH;
}

export interface ReceivedPush {
  subscription: string;
  headers: Record<string, string | string[] | undefined>;
  /** The VAPID JWT's claims. */
  claims: { aud?: string; exp?: number; sub?: string };
  /** The VAPID public key the request named (base64url). */
  vapidKey: string;
  /** The decrypted payload, parsed. */
  payload: Record<string, unknown>;
}

export interface StandInPushService {
  url: string;
  /** A new browser's subscription at this service. */
  subscribe(): TestBrowserSubscription;
  /** Answers by subscription id, used first, one per request; then `answer`. */
  script: Map<string, PushAnswer[]>;
  answer: PushAnswer;
  /** Pushes accepted (2xx), in order. */
  received: ReceivedPush[];
  /** Every request's subscription id and the status it got (or 'hang'), in order. */
  requests: { subscription: string; answer: PushAnswer }[];
  /** TCP connections made to the service. */
  connections: number;
  /** What a browser would have refused; a test ends by asserting there are none. */
  problems: string[];
  /** A fetch for the server under test that trusts the stand-in's certificate. */
  fetch: typeof nodeFetch;
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

/** RFC 8291: the content key and nonce of a message, from the browser's keys and the sender's. */
function decrypt(body: Buffer, browser: TestBrowserSubscription): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (records.length > recordSize) throw new Error('more than one record');
  const receiverPublic = browser.ecdh.getPublicKey();
  const shared = browser.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, Buffer.from(browser.auth, 'base64url'), keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // RFC 8188: the last record's data ends with the delimiter 2, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed with ES256 by that key. */
function checkVapid(header: string | undefined, audience: string, problems: string[]): { claims: ReceivedPush['claims']; key: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) {
    problems.push(`Authorization is not VAPID: ${header}`);
    return { claims: {}, key: '' };
  }
  const [, token, key] = match as unknown as [string, string, string];
  const [head, payload, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${head}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) {
    problems.push('the VAPID signature does not verify');
  }
  const alg = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  if (alg.alg !== 'ES256') problems.push(`VAPID alg ${alg.alg}`);
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as ReceivedPush['claims'];
  if (claims.aud !== audience) problems.push(`VAPID aud ${claims.aud}, not ${audience}`);
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now() || claims.exp * 1000 > Date.now() + 86_400_000) problems.push(`VAPID exp ${claims.exp}`);
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) problems.push(`VAPID sub ${claims.sub}`);
  return { claims, key };
}

export async function startPushService(): Promise<StandInPushService> {
  const browsers = new Map<string, TestBrowserSubscription>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const service: Omit<StandInPushService, 'url' | 'close' | 'subscribe' | 'fetch'> = {
    script: new Map(),
    answer: 201,
    received: [],
    requests: [],
    connections: 0,
    problems: [],
  };
  const server = https.createServer({ cert: CERT, key: KEY }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const browser = browsers.get(id);
      const answer = service.script.get(id)?.shift() ?? service.answer;
      service.requests.push({ subscription: id, answer });
      if (req.method !== 'POST' || !browser) {
        res.writeHead(404).end();
        return;
      }
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (answer >= 200 && answer < 300) {
        const headers = req.headers;
        if (headers['content-encoding'] !== 'aes128gcm') service.problems.push(`Content-Encoding ${headers['content-encoding']}`);
        if (!/^\d+$/.test(String(headers.ttl))) service.problems.push(`TTL ${headers.ttl}`);
        if (!['very-low', 'low', 'normal', 'high'].includes(String(headers.urgency))) service.problems.push(`Urgency ${headers.urgency}`);
        const vapid = checkVapid(headers.authorization, new URL(browser.endpoint).origin, service.problems);
        try {
          const payload = JSON.parse(decrypt(Buffer.concat(chunks), browser).toString('utf8')) as Record<string, unknown>;
          service.received.push({ subscription: id, headers, claims: vapid.claims, vapidKey: vapid.key, payload });
        } catch (error) {
          service.problems.push(`cannot decrypt: ${String(error)}`);
        }
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 201 ? '' : 'push service answer');
    });
  });
  server.on('connection', () => (service.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(service, {
    url,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const id = randomBytes(9).toString('base64url');
      const browser = { id, endpoint: `${url}/push/${id}`, p256dh: b64url(ecdh.getPublicKey()), auth: b64url(randomBytes(16)), ecdh };
      browsers.set(id, browser);
      return browser;
    },
    fetch: ((target: string, init: Record<string, unknown>) => nodeFetch(target, { ...init, agent: new https.Agent({ ca: CERT }) })) as unknown as typeof nodeFetch,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
