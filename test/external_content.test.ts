// GET /external_content/{digest}/{hex_url}, the image proxy: over HTTP and in-process it checks
// the signature in constant time, fetches from a real host on 127.0.0.1 (allowed by the test's
// option; refused by default) and passes on only raster images within the size and time limits.
import t, { type Test } from 'tap';
import type { Readable } from 'node:stream';
import { RawResponse } from '../lib/http/respond.js';
import { ApiError } from '../lib/errors.js';
import { isPrivateAddress } from '../lib/proxy/addresses.js';
import { jsonBody, startServer, type TestServer } from './helpers.js';
import { HELD_FIRST_BYTES, HELD_TOTAL_BYTES, TEST_MAX_BYTES, camoPath, startImageHost } from './image_host.js';
import { imageFetchesInUse } from '../lib/domain/external_content.js';
import { BUFFERED_PREFIX_BYTES } from '../lib/proxy/fetch_image.js';
import { contextOf } from '../lib/context.js';
import { IMAGES } from './user_status_helpers.js';

const KEY = 'image-proxy-test-key-0123456789';
const host = await startImageHost();
t.teardown(() => host.close());

async function proxying(options: Record<string, unknown> = {}): Promise<TestServer> {
  const s = await startServer({ imageProxy: { key: KEY, allowPrivateAddresses: true, maxBytes: TEST_MAX_BYTES, ...options } });
  t.teardown(() => s.close());
  return s;
}

const s = await proxying();

async function get(server: TestServer, path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(server.url + path);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The in-process answer for a proxy path. */
async function inProcess(server: TestServer, path: string): Promise<RawResponse> {
  const [, , digest, hexUrl] = path.split('/');
  return server.chat.api.externalContent.image(null, { digest: digest!, hexUrl: hexUrl! });
}

async function readAll(body: RawResponse['body']): Promise<Buffer> {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return Buffer.from(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Resolves true once `check` holds (polled every 5 ms), or false after 10 s. */
async function waitFor(check: () => boolean): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return check();
}

/** The same error over HTTP (JSON) and in-process (ApiError). */
async function refuses(t: Test, server: TestServer, path: string, status: number, code: string, msg: string): Promise<void> {
  const response = await fetch(server.url + path);
  t.equal(response.status, status, `${path}: ${status}`);
  t.same(await jsonBody(response), { result: 'error', msg, code });
  await t.rejects(inProcess(server, path), new ApiError(code as never, msg), 'in-process');
}

t.test('a signed URL serves the image with restrictive headers', async (t) => {
  const path = camoPath(KEY, `${host.url}/cat.png`);
  const reply = await get(s, path);
  t.equal(reply.status, 200);
  t.same(reply.bytes, IMAGES.png);
  t.equal(reply.headers.get('content-type'), 'image/png');
  t.equal(reply.headers.get('content-length'), String(IMAGES.png.length));
  t.equal(reply.headers.get('x-content-type-options'), 'nosniff');
  t.equal(reply.headers.get('content-security-policy'), "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox");
  t.equal(reply.headers.get('cache-control'), 'public, max-age=86400');
  t.equal(reply.headers.get('referrer-policy'), 'no-referrer');
  const answer = await inProcess(s, path);
  t.equal(answer.status, 200);
  t.equal(answer.headers['Content-Type'], 'image/png');
  t.same(await readAll(answer.body), IMAGES.png);
});

t.test('a small body without Content-Length is answered whole, with its length; the type loses its parameters', async (t) => {
  const reply = await get(s, camoPath(KEY, `${host.url}/chunked.gif`));
  t.equal(reply.status, 200);
  t.same(reply.bytes, IMAGES.gif);
  t.equal(reply.headers.get('content-type'), 'image/gif');
  t.equal(reply.headers.get('content-length'), String(IMAGES.gif.length));
});

/** Reads a response body until `bytes` have come (or it ends); the rest stays unread. */
async function readAtLeast(reader: ReadableStreamDefaultReader<Uint8Array>, bytes: number): Promise<number> {
  let got = 0;
  while (got < bytes) {
    const { value, done } = await reader.read();
    if (done) break;
    got += value.length;
  }
  return got;
}

t.test('a large body without Content-Length streams: the answer starts before the host has sent the whole image', async (t) => {
  const streaming = await proxying({ maxBytes: 2 * HELD_TOTAL_BYTES });
  t.ok(HELD_FIRST_BYTES > BUFFERED_PREFIX_BYTES, 'the host sends more than the proxy holds, then waits');
  // Reading the whole body first (the finding) never answers while the host waits: the signal ends the test then.
  const response = await fetch(streaming.url + camoPath(KEY, `${host.url}/held/stream.png`), { signal: AbortSignal.timeout(10_000) });
  t.equal(response.status, 200);
  t.equal(response.headers.get('content-length'), null, 'streamed: no length');
  t.equal(response.headers.get('content-type'), 'image/png');
  const reader = response.body!.getReader();
  const first = await readAtLeast(reader, HELD_FIRST_BYTES);
  t.equal(first, HELD_FIRST_BYTES, 'the bytes the host sent so far have arrived while it still waits');
  t.equal(host.held().now, 1, 'the host has not sent the rest yet');
  host.release();
  t.equal(first + (await readAtLeast(reader, Infinity)), HELD_TOTAL_BYTES, 'then the rest');
  t.equal(imageFetchesInUse(contextOf(streaming.chat)), 0, 'the fetch gave its slot back');
});

t.test('a streamed body that passes the limit is cut off there: the answer ends in an error, never a whole image', async (t) => {
  const limit = HELD_FIRST_BYTES + 1000;
  const streaming = await proxying({ maxBytes: limit });
  const response = await fetch(streaming.url + camoPath(KEY, `${host.url}/held/stream.png`), { signal: AbortSignal.timeout(10_000) });
  t.equal(response.status, 200, 'the answer started: only its end can tell');
  const reader = response.body!.getReader();
  t.equal(await readAtLeast(reader, HELD_FIRST_BYTES), HELD_FIRST_BYTES);
  host.release();
  let got = HELD_FIRST_BYTES;
  await t.rejects(
    (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        got += value.length;
      }
    })(),
    'the body fails rather than ends',
  );
  t.ok(got <= limit, `no more than the limit passed on (${got} of ${limit})`);
  await t.resolveMatch(waitFor(() => imageFetchesInUse(contextOf(streaming.chat)) === 0), true, 'the fetch gave its slot back');
});

t.test('concurrent fetches are capped per client address (429) and overall (503 IMAGE_PROXY_BUSY); every slot comes back', async (t) => {
  const capped = await startServer({
    trustProxy: ['loopback'],
    imageProxy: { key: KEY, allowPrivateAddresses: true, maxConcurrentFetches: 5, maxConcurrentFetchesPerAddress: 3 },
  });
  t.teardown(() => capped.close());
  const peakBefore = host.held().peak;
  const from = (address: string, n: number) =>
    fetch(capped.url + camoPath(KEY, `${host.url}/held/${n}.png`), { headers: { 'x-forwarded-for': address } }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: r.status === 200 ? await r.arrayBuffer() : await r.json() }));
  const first = [1, 2, 3].map((n) => from('198.51.100.1', n));
  await waitFor(() => host.held().now === 3);
  t.same(await from('198.51.100.1', 4), { status: 429, retryAfter: '1', body: { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 1 } }, 'a fourth from the same address waits for none of them');
  const second = [5, 6].map((n) => from('198.51.100.2', n));
  await waitFor(() => host.held().now === 5);
  t.same(await from('198.51.100.3', 7), { status: 503, retryAfter: '1', body: { result: 'error', msg: 'The image proxy is busy; retry the request.', code: 'IMAGE_PROXY_BUSY' } }, 'a sixth overall, from a third address');
  t.equal(imageFetchesInUse(contextOf(capped.chat)), 5);
  host.release();
  for (const reply of await Promise.all([...first, ...second])) t.equal(reply.status, 200);
  t.equal(host.held().peak, Math.max(peakBefore, 5), 'the host never had more than 5 at once');
  await t.resolveMatch(waitFor(() => imageFetchesInUse(contextOf(capped.chat)) === 0), true, 'every slot given back');
  const again = from('198.51.100.1', 8);
  await waitFor(() => host.held().now === 1);
  host.release();
  t.equal((await again).status, 200, 'then the address fetches again');
});

t.test('redirects to http(s) are followed; others, and too many, are refused', async (t) => {
  const reply = await get(s, camoPath(KEY, `${host.url}/moved.png`));
  t.equal(reply.status, 200);
  t.same(reply.bytes, IMAGES.png);
  const msg = 'The image host redirected too often or to a URL that is not http(s).';
  await refuses(t, s, camoPath(KEY, `${host.url}/to-file.png`), 502, 'IMAGE_PROXY_FAILED', msg);
  await refuses(t, s, camoPath(KEY, `${host.url}/loop.png`), 502, 'IMAGE_PROXY_FAILED', msg);
});

t.test('a bad signature is refused, as Zulip refuses a camo URL', async (t) => {
  const good = camoPath(KEY, `${host.url}/cat.png`);
  const [, , digest, hex] = good.split('/');
  const flipped = (digest![0] === '0' ? '1' : '0') + digest!.slice(1);
  const otherKey = camoPath('another-key-of-enough-length', `${host.url}/cat.png`);
  const otherUrl = `/external_content/${digest}/${Buffer.from(`${host.url}/page.html`).toString('hex')}`;
  for (const path of [`/external_content/${flipped}/${hex}`, otherKey, otherUrl, `/external_content/${digest}/zz`, `/external_content/abc/${hex}`, `/external_content/${digest}/${hex}0`]) {
    await refuses(t, s, path, 403, 'INVALID_IMAGE_PROXY_URL', 'Not a valid URL.');
  }
});

t.test('only PNG, GIF, JPEG, WebP and AVIF pass: not HTML, not SVG', async (t) => {
  for (const file of ['page.html', 'logo.svg']) {
    await refuses(t, s, camoPath(KEY, `${host.url}/${file}`), 502, 'IMAGE_PROXY_FAILED', "The image's content type is not supported.");
  }
});

t.test('a body over the limit is refused, announced or not', async (t) => {
  for (const file of ['big.png', 'big-chunked.png']) {
    await refuses(t, s, camoPath(KEY, `${host.url}/${file}`), 502, 'IMAGE_PROXY_FAILED', 'The image is too large.');
  }
});

t.test('an answer other than 200 is refused', async (t) => {
  await refuses(t, s, camoPath(KEY, `${host.url}/missing.png`), 502, 'IMAGE_PROXY_FAILED', 'The image host did not answer with an image.');
});

t.test('a host that does not answer in time is given up', async (t) => {
  const impatient = await proxying({ timeoutMs: 20 });
  await refuses(t, impatient, camoPath(KEY, `${host.url}/slow.png`), 502, 'IMAGE_PROXY_FAILED', 'The image host did not answer in time.');
});

t.test('by default loopback and private addresses are refused, by address or by name', async (t) => {
  const strict = await startServer({ imageProxy: { key: KEY } });
  t.teardown(() => strict.close());
  const port = new URL(host.url).port;
  for (const url of [`${host.url}/cat.png`, `http://localhost:${port}/cat.png`, `http://[::1]:${port}/cat.png`, `http://[::ffff:127.0.0.1]:${port}/cat.png`, 'http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/x.png', `http://2130706433:${port}/cat.png`]) {
    await refuses(t, strict, camoPath(KEY, url), 502, 'IMAGE_PROXY_FAILED', "The image's host is not allowed.");
  }
});

t.test('IPv6 forms that embed a refused IPv4 address are refused too: NAT64 (64:ff9b::/96), 6to4 (2002::/16); site-local fec0::/10', async (t) => {
  const strict = await startServer({ imageProxy: { key: KEY } });
  t.teardown(() => strict.close());
  const port = new URL(host.url).port;
  const hosts = ['64:ff9b::7f00:1', '64:ff9b::10.1.2.3', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2002:a9fe:a9fe::', '2002:c0a8:101::5', 'fec0::1', 'feff::1'];
  for (const address of hosts) {
    await refuses(t, strict, camoPath(KEY, `http://[${address}]:${port}/cat.png`), 502, 'IMAGE_PROXY_FAILED', "The image's host is not allowed.");
  }
});

t.test('public addresses pass the filter, in IPv4 and in every IPv6 form that embeds one', async (t) => {
  for (const address of ['8.8.8.8', '93.184.216.34', '::ffff:8.8.8.8', '64:ff9b::808:808', '64:ff9b::93.184.216.34', '2002:808:808::1', '2606:4700:4700::1111']) {
    t.equal(isPrivateAddress(address), false, address);
  }
  for (const address of ['127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', '64:ff9b::c0a8:1', '2002:ac10:1::', 'fec0:1::2', 'fe80::1', '::1']) {
    t.equal(isPrivateAddress(address), true, address);
  }
});

t.test('with the proxy off the endpoint does not exist', async (t) => {
  const off = await startServer({ imageProxy: false });
  t.teardown(() => off.close());
  await refuses(t, off, camoPath(KEY, `${host.url}/cat.png`), 404, 'NOT_FOUND', 'Not Found');
});
