// A Web Push service stand-in for tests: a real HTTPS server on 127.0.0.1 (the self-signed
// certificate of test/fixtures) taking RFC 8030 push requests, each checked (VAPID, RFC 8292: the
// ES256 JWT's signature with the key it names, its audience and expiry; the TTL, Urgency and
// Content-Encoding headers). Two kinds of subscriptions: those it makes itself, playing the
// browser (its own P-256 key pair and auth secret: every push is decrypted, aes128gcm per RFC
// 8291 and RFC 8188, with node:crypto's ECDH, HKDF and AES-GCM); and a real Firefox's, which
// connects to its WebSocket side as to Mozilla's push service (dom.push.serverURL; the protocol
// of Firefox's PushServiceWebSocket: hello, register, unregister, notification and ack), and to
// which each push goes on, encrypted, for Firefox to decrypt and show.
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import nodeFetch from 'node-fetch';

/** The `ws` package (puppeteer-core's WebSocket dependency), as much of it as the stand-in uses. */
interface Socket {
  send(data: string): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  close(): void;
}
interface SocketServer {
  on(event: 'connection', listener: (socket: Socket) => void): void;
  close(): void;
}
const { WebSocketServer } = createRequire(import.meta.url)('ws') as {
  WebSocketServer: new (options: { server: http.Server; handleProtocols: (protocols: Set<string>) => string | false }) => SocketServer;
};

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

/** A subscription a connected Firefox registered (messageType register). */
export interface FirefoxSubscription {
  channelID: string;
  endpoint: string;
  /** The VAPID key it was registered with (base64url, as Firefox sends it). */
  key: string;
}

export interface StandInPushService {
  url: string;
  /** The WebSocket side, for Firefox's dom.push.serverURL. */
  webSocketUrl: string;
  /** Subscriptions Firefox registered and has not unregistered. */
  firefox: Map<string, FirefoxSubscription>;
  /** Pushes handed to Firefox, and whether it acknowledged each as delivered (ack code 100). */
  forwarded: { channelID: string; version: string; acked?: number }[];
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
  const sockets = new Map<string, Socket>();
  const service: Omit<StandInPushService, 'url' | 'webSocketUrl' | 'close' | 'subscribe' | 'fetch'> = {
    firefox: new Map(),
    forwarded: [],
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
      const firefox = service.firefox.get(id);
      if (req.method === 'POST' && firefox && answer === 201) {
        const vapid = checkVapid(req.headers.authorization, new URL(firefox.endpoint).origin, service.problems);
        // A push service takes a push only if signed by the key the subscription was made with.
        if (!Buffer.from(vapid.key, 'base64url').equals(Buffer.from(firefox.key.replace(/=+$/, ''), 'base64url'))) service.problems.push('signed with another key than the subscription\'s');
        const version = randomBytes(8).toString('hex');
        service.forwarded.push({ channelID: id, version });
        const data = Buffer.concat(chunks).toString('base64url');
        sockets.get(id)?.send(JSON.stringify({ messageType: 'notification', channelID: id, version, data, headers: { encoding: String(req.headers['content-encoding']) } }));
        res.writeHead(201).end();
        return;
      }
      if (req.method !== 'POST' || !browser) {
        res.writeHead(firefox ? Number(answer) || 500 : 404).end();
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

  // The browser side: Firefox's push connection (plain ws:, dom.push.testing.allowInsecureServerURL).
  const upgrades = http.createServer();
  const webSockets = new WebSocketServer({ server: upgrades, handleProtocols: (protocols) => (protocols.has('push-notification') ? 'push-notification' : false) });
  webSockets.on('connection', (socket) => {
    const reply = (message: Record<string, unknown>) => socket.send(JSON.stringify(message));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, any>;
      switch (message.messageType) {
        case 'hello':
          return reply({ messageType: 'hello', uaid: message.uaid || randomBytes(16).toString('hex'), status: 200, use_webpush: true, broadcasts: {} });
        case 'register': {
          const channelID = String(message.channelID);
          const endpoint = `${url}/push/${channelID}`;
          service.firefox.set(channelID, { channelID, endpoint, key: String(message.key ?? '') });
          sockets.set(channelID, socket);
          return reply({ messageType: 'register', channelID, status: 200, pushEndpoint: endpoint });
        }
        case 'unregister':
          service.firefox.delete(String(message.channelID));
          return reply({ messageType: 'unregister', channelID: message.channelID, status: 200 });
        case 'ack':
          for (const update of message.updates ?? []) {
            const forwarded = service.forwarded.find((f) => f.channelID === update.channelID && f.version === update.version);
            if (forwarded) forwarded.acked = update.code;
          }
          return;
        default:
          // A ping ({}): answered in kind.
          return reply({});
      }
    });
  });
  await new Promise<void>((resolve) => upgrades.listen(0, '127.0.0.1', resolve));
  const webSocketUrl = `ws://127.0.0.1:${(upgrades.address() as AddressInfo).port}/`;

  return Object.assign(service, {
    url,
    webSocketUrl,
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
      webSockets.close();
      upgrades.closeAllConnections();
      upgrades.close();
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
