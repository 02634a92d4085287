// Hostile request bodies: every received byte counts against the route's limit (chunked bodies
// included), a multipart part's header is capped, an upload is refused before its body is read
// when the caller may not upload, and upload routes cap their body at their own limit.
import http from 'node:http';
import t from 'tap';
import { startServer, type TestServer } from './helpers.js';

interface Streamed {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** Bytes written before the answer came. */
  sent: number;
}

/**
 * Writes `chunk` again and again (chunked, no Content-Length) until the server answers or
 * `maxBytes` have been sent; then ends the request.
 */
function streamUntilAnswered(
  s: TestServer,
  path: string,
  headers: Record<string, string>,
  first: Buffer,
  chunk: Buffer,
  maxBytes: number,
): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(s.url + path, { method: 'POST', headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), sent });
      });
    });
    // The server may close the connection while bytes are still on their way.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = (): void => {
      while (!answered && sent < maxBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    req.write(first);
    sent += first.length;
    pump();
  });
}

const multipart = (boundary: string) => ({ 'content-type': `multipart/form-data; boundary=${boundary}` });

/** POSTs a multipart body with boundary `b`, as given. */
async function postMultipart(s: TestServer, path: string, body: string | Buffer, auth?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = multipart('b');
  if (auth !== undefined) headers.authorization = auth;
  const res = await fetch(`${s.url}/api/v1${path}`, { method: 'POST', headers, body });
  return { status: res.status, body: await res.json() };
}

t.test('a chunked multipart body whose part header never ends is cut off at the body limit with 413', async (t) => {
  const s = await startServer({ socket: true, limits: { bodyBytes: 256 * 1024 } });
  t.teardown(() => s.close());
  const reply = await streamUntilAnswered(
    s,
    '/api/v1/fetch_api_key',
    multipart('b'),
    Buffer.from('--b\r\nContent-Disposition: form-data; name="username"; x="'),
    Buffer.alloc(64 * 1024, 'a'),
    16 * 1024 * 1024,
  );
  t.equal(reply.status, 413);
  t.same(reply.body, { result: 'error', msg: 'Request body too large (limit: 262144 bytes)', code: 'PAYLOAD_TOO_LARGE' });
  t.equal(reply.headers.connection, 'close');
  t.ok(reply.sent < 16 * 1024 * 1024, 'answered before the client stopped sending');
  const after = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(after.status, 200, 'the server keeps working');
});

t.test('a chunked urlencoded or multipart body over the limit is 413, whichever route', async (t) => {
  const s = await startServer({ socket: true, limits: { bodyBytes: 1024 } });
  t.teardown(() => s.close());
  const field = Buffer.from('--b\r\nContent-Disposition: form-data; name="full_name"\r\n\r\n');
  for (const [label, path, headers, first] of [
    ['multipart, authenticated', `/api/v1/users/me/status`, { ...multipart('b'), authorization: s.owner.auth }, field],
    ['multipart, public', '/api/v1/fetch_api_key', multipart('b'), field],
    ['urlencoded, public', '/api/v1/fetch_api_key', { 'content-type': 'application/x-www-form-urlencoded' }, Buffer.from('username=')],
  ] as const) {
    const reply = await streamUntilAnswered(s, path, headers, first, Buffer.alloc(512, 'x'), 1024 * 1024);
    t.equal(reply.status, 413, label);
    t.equal(reply.body.code, 'PAYLOAD_TOO_LARGE', label);
  }
});

t.test('a part header of repeated filename= parameters is parsed in linear time and capped', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  const header = 'form-data; name="username"; ' + 'filename="'.repeat(80 * 1024);
  const body = Buffer.from(`--b\r\nContent-Disposition: ${header}\r\n\r\nowner@example.com\r\n--b--\r\n`);
  const attack = streamUntilAnswered(s, '/api/v1/fetch_api_key', multipart('b'), body, Buffer.alloc(0), 0);
  // Another request is answered while the attack is in flight.
  const other = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(other.status, 200);
  const reply = await attack;
  t.equal(reply.status, 400);
  t.same(reply.body, { result: 'error', msg: "Missing 'password' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' }, 'answered from the first 16 KiB of the header');
});

t.test('more than 1000 fields in a multipart body is 400 naming the field limit', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  let body = '';
  for (let i = 0; i <= 1000; i += 1) body += `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`;
  body += '--b--\r\n';
  const reply = await postMultipart(s, '/fetch_api_key', body);
  t.equal(reply.status, 400);
  t.same(reply.body, { result: 'error', msg: 'Too many fields in a multipart body (limit: 1000)', code: 'BAD_REQUEST' });
});

t.test('a guest upload is refused before its body is read; the connection closes', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  const guest = await s.user('guest');
  const bot = await s.user('member', { bot: true });
  for (const [who, msg] of [
    [guest, 'Not allowed for guest users'],
    [bot, 'This endpoint does not accept bot requests.'],
  ] as const) {
    // 20 MiB announced, 64 KiB sent: only an answer before the body is read can arrive.
    const reply = await new Promise<Streamed>((resolve, reject) => {
      const req = http.request(`${s.url}/api/v1/realm/emoji/big`, {
        method: 'POST',
        agent: false,
        headers: { ...multipart('b'), authorization: who.auth, 'content-length': String(20 * 1024 * 1024) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), sent: 0 });
        });
      });
      req.on('error', reject);
      req.write(Buffer.concat([Buffer.from('--b\r\nContent-Disposition: form-data; name="f"; filename="x.png"\r\n\r\n'), Buffer.alloc(64 * 1024)]));
    });
    t.equal(reply.status, 400);
    t.same(reply.body, { result: 'error', msg, code: 'BAD_REQUEST' });
    t.equal(reply.headers.connection, 'close');
  }
});

t.test('an upload route caps its body at its own limit: the emoji limit plus the field limit', async (t) => {
  const s = await startServer({ socket: true, limits: { emojiBytes: 1000, bodyBytes: 500 } });
  t.teardown(() => s.close());
  const declared = await postMultipart(s, '/realm/emoji/big', 'x'.repeat(1501), s.owner.auth);
  t.equal(declared.status, 413);
  t.same(declared.body, { result: 'error', msg: 'Request body too large (limit: 1500 bytes)', code: 'PAYLOAD_TOO_LARGE' });
  const part = (size: number) =>
    `--b\r\nContent-Disposition: form-data; name="f"; filename="x.png"\r\n\r\n${'x'.repeat(size)}\r\n--b--\r\n`;
  const over = await postMultipart(s, '/realm/emoji/big', part(1001), s.owner.auth);
  t.same(over.body, { result: 'error', msg: 'Uploaded file is larger than the allowed limit of 0 MiB', code: 'BAD_REQUEST' }, "just over: the route's own error");
});

t.test('a part is a file when it has a filename, with or without a Content-Type (python-requests)', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  // A 1x1 PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const body = Buffer.concat([Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="tick.png"\r\n\r\n'), png, Buffer.from('\r\n--b--\r\n')]);
  const reply = await postMultipart(s, '/realm/emoji/tick', body, s.owner.auth);
  t.equal(reply.status, 200, JSON.stringify(reply.body));
  const list = await s.request('GET', '/realm/emoji', { as: s.owner });
  t.ok(Object.values(list.body.emoji as Record<string, { name: string }>).some((e) => e.name === 'tick'));
});
