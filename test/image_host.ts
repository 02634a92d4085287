// A stand-in image host for the image proxy tests: a real HTTP server on 127.0.0.1 with one path
// per case (an image, a page, SVG, bodies over the limit, a host that never answers, redirects,
// answers held until the test releases them).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { Response } from 'node-fetch';
import type { ImageProxyOptions } from '../lib/index.js';
import { IMAGES } from './user_status_helpers.js';

export interface ImageHost {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Requests to /held/... waiting now, and the most that ever waited at once. */
  held(): { now: number; peak: number };
  /** Lets every waiting /held/... request finish. */
  release(): void;
  close(): Promise<void>;
}

/** The bytes /held/stream.png sends before it waits: several times what the proxy holds before answering. */
export const HELD_FIRST_BYTES = 256 * 1024;
/** The bytes /held/stream.png sends in all. */
export const HELD_TOTAL_BYTES = 1024 * 1024;

/** The limit the proxying test servers set (bytes): /big.png and /big-chunked.png are over it. */
export const TEST_MAX_BYTES = 1024;

export async function startImageHost(): Promise<ImageHost> {
  const stalled: http.ServerResponse[] = [];
  let waiting: (() => void)[] = [];
  let peak = 0;
  const hold = (): Promise<void> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      peak = Math.max(peak, waiting.length);
    });
  const release = (): void => {
    const now = waiting;
    waiting = [];
    for (const resolve of now) resolve();
  };
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    // /held/stream.png: a large chunked PNG that sends its first bytes, then waits for release().
    // /held/<n>.png: a small chunked PNG sent once released.
    if (path === '/held/stream.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.alloc(HELD_FIRST_BYTES, 1));
      void hold().then(() => res.end(Buffer.alloc(HELD_TOTAL_BYTES - HELD_FIRST_BYTES, 2)));
    } else if (path.startsWith('/held/')) {
      void hold().then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(IMAGES.png));
    } else if (path === '/cat.png') res.writeHead(200, { 'content-type': 'image/png', 'content-length': IMAGES.png.length }).end(IMAGES.png);
    else if (path === '/chunked.gif') {
      res.writeHead(200, { 'content-type': 'image/gif; charset=binary' });
      res.write(IMAGES.gif.subarray(0, 10));
      res.end(IMAGES.gif.subarray(10));
    } else if (path === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
    else if (path === '/logo.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(IMAGES.svg);
    else if (path === '/big.png') res.writeHead(200, { 'content-type': 'image/png', 'content-length': 2 * TEST_MAX_BYTES }).end(Buffer.alloc(2 * TEST_MAX_BYTES));
    else if (path === '/big-chunked.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      for (let i = 0; i < 4; i += 1) res.write(Buffer.alloc(TEST_MAX_BYTES / 2));
      res.end();
    } else if (path === '/slow.png') stalled.push(res);
    else if (path === '/moved.png') res.writeHead(302, { location: '/cat.png' }).end();
    else if (path === '/to-file.png') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    else if (path === '/loop.png') res.writeHead(302, { location: '/loop.png' }).end();
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such image');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    held: () => ({ now: waiting.length, peak }),
    release,
    async close() {
      release();
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `/external_content/<digest>/<hex>` as Zulip's camo.py computes it: hex HMAC-SHA1 of the URL's UTF-8 bytes. */
export function camoPath(key: string | Buffer, url: string): string {
  const bytes = Buffer.from(url, 'utf8');
  return `/external_content/${createHmac('sha1', key).update(bytes).digest('hex')}/${bytes.toString('hex')}`;
}

/** A fetch for the proxy that answers every URL with a PNG, for tests that only need the proxy to succeed. */
export const pngEverywhere = (async () =>
  new Response(IMAGES.png, { status: 200, headers: { 'content-type': 'image/png', 'content-length': String(IMAGES.png.length) } })) as unknown as NonNullable<ImageProxyOptions['fetch']>;

/** The proxy path of `url` under the key a server made and stored. */
export function storedKeyCamoPath(db: { prepare(sql: string): { pluck(): { get(): unknown } } }, url: string): string {
  return camoPath(db.prepare('SELECT key FROM image_proxy_key').pluck().get() as Buffer, url);
}
