// Serving the web client (lib/http/web_client.ts): off unless enabled; `/`, the service worker
// `/sw.js` and the hashed files under /web/ with their caching, compression and
// Content-Security-Policy headers; mountable as middleware; the API unchanged next to it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { WEB_CLIENT_CSP } from '../lib/http/web_client.js';
import { startServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-web-'));
const built = join(dir, 'built');
mkdirSync(built);
writeFileSync(join(built, 'index.html'), '<!doctype html><title>parley</title><script type="module" src="web/app-ABCDEFGH.js"></script>');
writeFileSync(join(built, 'app-ABCDEFGH.js'), 'console.log("parley");'.repeat(50));
writeFileSync(join(built, 'notes.txt'), 'not served');
writeFileSync(join(built, 'sw.js'), 'self.addEventListener("push", () => {});');
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('off unless enabled: / is the API\'s JSON 404', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const response = await fetch(s.url + '/');
  t.equal(response.status, 404);
  t.same(await response.json(), { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
});

t.test('enabled: the page, the hashed files and the API side by side', async (t) => {
  const s = await startServer({ webClient: { dir: built } });
  t.teardown(() => s.close());

  const page = await fetch(s.url + '/');
  t.equal(page.status, 200);
  t.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.equal(page.headers.get('cache-control'), 'no-cache', 'the page is revalidated: a new build is seen at once');
  t.equal(page.headers.get('content-security-policy'), WEB_CLIENT_CSP);
  t.match(WEB_CLIENT_CSP, /script-src 'self'(;|$)/, 'no inline script may run');
  t.notMatch(WEB_CLIENT_CSP, /unsafe-inline|unsafe-eval|https?:/, 'nothing inline, nothing from another host');
  t.equal(page.headers.get('x-content-type-options'), 'nosniff');
  t.match(await page.text(), /<title>parley<\/title>/);

  const js = await fetch(s.url + '/web/app-ABCDEFGH.js');
  t.equal(js.status, 200);
  t.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable', 'hashed files are cached for good');
  t.equal(js.headers.get('content-encoding'), 'gzip', 'compressed for a client that accepts gzip');
  t.equal(js.headers.get('vary'), 'Accept-Encoding');
  t.match(await js.text(), /^console\.log/);

  const plain = await new Promise<http.IncomingMessage>((resolve) => http.get(s.url + '/web/app-ABCDEFGH.js', resolve));
  t.equal(plain.headers['content-encoding'], undefined, 'uncompressed otherwise');
  t.equal(Number(plain.headers['content-length']), 'console.log("parley");'.length * 50);
  plain.resume();

  const head = await fetch(s.url + '/', { method: 'HEAD' });
  t.equal(head.status, 200, 'HEAD answers like GET');
  t.equal(await head.text(), '', 'without a body');

  const worker = await fetch(s.url + '/sw.js');
  t.equal(worker.status, 200, "the Web Push service worker, at the page's level (its scope is the page)");
  t.equal(worker.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.equal(worker.headers.get('cache-control'), 'no-cache', 'revalidated: browsers look for a new worker at the same address');
  t.equal(worker.headers.get('content-security-policy'), WEB_CLIENT_CSP, 'under the same policy');
  t.match(await worker.text(), /addEventListener\("push"/);

  for (const path of ['/web/notes.txt', '/web/missing-ABCDEFGH.js', '/web/../index.html', '/index.html', '/web/sw.js', '/sw.js/x']) {
    const response = await fetch(s.url + path);
    t.equal(response.status, 404, `${path}: not found`);
    t.same(await response.json(), { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
  }
  const post = await fetch(s.url + '/', { method: 'POST' });
  t.equal(post.status, 404, 'only GET and HEAD reach the files');
  await post.arrayBuffer();

  const api = await s.request('GET', '/server_settings');
  t.equal(api.status, 200, 'the API answers as before');
});

t.test('a missing build fails at start-up with a clear message', async (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  t.throws(() => createChatServer(db, { logger: silentLogger, webClient: { dir: join(dir, 'nothing') } }), {
    message: `The web client is not built (no ${join(dir, 'nothing', 'index.html')}): run npm run build`,
  });
});

t.test('mounted as middleware: the files answer, other paths go to next()', async (t) => {
  const db = new Database(':memory:');
  const chat = createChatServer(db, { logger: silentLogger, webClient: { dir: built } });
  const server = http.createServer((req, res) => {
    // An Express-style mount at /chat: the prefix is taken off before parley sees the request.
    if (!req.url!.startsWith('/chat/')) {
      res.end('host app');
      return;
    }
    req.url = req.url!.slice('/chat'.length);
    chat.handler(req, res, () => res.end('host app fallback'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    await new Promise((resolve) => server.close(resolve));
    await chat.close();
    db.close();
  });
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t.match(await (await fetch(base + '/chat/')).text(), /<title>parley/);
  t.match(await (await fetch(base + '/chat/web/app-ABCDEFGH.js')).text(), /^console\.log/);
  t.match(await (await fetch(base + '/chat/sw.js')).text(), /push/, 'the service worker under the mount too');
  t.equal(await (await fetch(base + '/chat/elsewhere')).text(), 'host app fallback');
});

t.test("the account pages' paths answer with the page and a <base> back to the client's root", async (t) => {
  const s = await startServer({ webClient: { dir: built } });
  t.teardown(() => s.close());
  const cases: [string, string][] = [
    ['/register', './'],
    ['/join/abc', '../'],
    ['/join/abc/', '../../'],
    ['/accounts/do_confirm/abc', '../../'],
    ['/accounts/password/reset', '../../'],
    ['/accounts/password/reset/abc', '../../../'],
    ['/accounts/confirm_new_email/abc', '../../'],
  ];
  for (const [path, base] of cases) {
    const page = await fetch(s.url + path);
    t.equal(page.status, 200, path);
    t.equal(page.headers.get('content-security-policy'), WEB_CLIENT_CSP);
    const html = await page.text();
    t.ok(html.startsWith(`<!doctype html><base href="${base}">`), `${path}: base ${base}, before the page's files`);
    t.equal(new URL(base, s.url + path).pathname, '/', `${path}: the base is the root`);
  }
  t.match(WEB_CLIENT_CSP, /base-uri 'self'/);
  for (const path of ['/join', '/join/', '/accounts/do_confirm/', '/accounts/other/abc']) {
    t.equal((await fetch(s.url + path)).status, 404, `${path} is no page`);
  }
  t.equal((await fetch(s.url + '/join/abc', { method: 'POST' })).status, 404, 'only GET and HEAD');
});

t.test('mounted by Express at /chat, /chat is sent to /chat/', async (t) => {
  const { default: express } = await import('express');
  const chat = createChatServer(new Database(':memory:'), { logger: silentLogger, webClient: { dir: built } });
  const app = express();
  app.use('/chat', chat.handler);
  const server = await new Promise<http.Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  t.teardown(async () => {
    await new Promise((resolve) => server.close(resolve));
    await chat.close();
  });
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const redirect = await fetch(base + '/chat?x=1', { redirect: 'manual' });
  t.same([redirect.status, redirect.headers.get('location')], [301, '/chat/?x=1']);
  t.equal((await fetch(base + '/chat/')).status, 200);
  t.match(await (await fetch(base + '/chat/join/abc')).text(), /<base href="\.\.\/">/);
});
