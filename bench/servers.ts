// Servers the HTTP benchmarks load, each in its own child process so the load generator does not
// share its event loop: bare node:http ceilings and parley itself.
// Run as: node bench/servers.ts <kind> <dir>; prints one JSON line {port, ...} when listening.
// Answers IPC messages {cmd: 'memory'} (process.memoryUsage() after a GC), {cmd: 'waiters'}
// (long-polls waiting in parley's event hub) and {cmd: 'fanout'} (ms from the arrival of the last
// PATCH request until the last GET /events response after it was handed to the socket).
import http from 'node:http';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

// BENCH_PARLEY_ROOT: load parley from another checkout (a before/after comparison in one run).
const root = process.env.BENCH_PARLEY_ROOT ?? join(import.meta.dirname, '..');
const { createChatServer } = (await import(join(root, 'lib/index.ts'))) as typeof import('../lib/index.js');
const context = (await import(join(root, 'lib/context.ts'))) as Partial<typeof import('../lib/context.js')>;
// Silent, and the same against any checkout (the logger module has moved over time).
const silentLogger = { info() {}, warn() {}, error() {} };

const [kind = 'bare-json', dir = '.'] = process.argv.slice(2);
let waiterCount = (): number => 0;
let changeAt = 0n;
let lastEventsAt = 0n;
/** The owner's password when the web client is served (it signs in with it). */
const BENCH_WEB_PASSWORD = 'bench-web-password';
const FIXED = JSON.stringify({ result: 'success', msg: '', user_id: 1, full_name: 'Ceiling' });

function reply(res: http.ServerResponse, body: string): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString())));
  });
}

async function start(): Promise<{ server: http.Server; info: Record<string, unknown> }> {
  if (kind === 'bare-json') {
    return { server: http.createServer((_req, res) => reply(res, FIXED)), info: {} };
  }
  if (kind === 'bare-auth') {
    const users = new Map([['bench@example.com', 'k'.repeat(32)]]);
    const server = http.createServer((req, res) => {
      const header = req.headers.authorization ?? '';
      const [email, key] = Buffer.from(header.slice(6), 'base64').toString().split(':');
      if (users.get(email ?? '') !== key) res.writeHead(401).end();
      else reply(res, FIXED);
    });
    return { server, info: {} };
  }
  if (kind === 'bare-update') {
    const db = new Database(join(dir, 'ceiling.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT, n INTEGER NOT NULL) STRICT; INSERT OR IGNORE INTO t VALUES (1, \'\', 0)');
    // The counter changes the row: SQLite leaves a page it would rewrite with the same bytes
    // unwritten, so an UPDATE to the same value commits no page at all.
    const update = db.prepare('UPDATE t SET v = ?, n = n + 1 WHERE id = 1');
    const server = http.createServer(async (req, res) => {
      const form = await readForm(req);
      db.transaction(() => update.run(form.get('v') ?? ''))();
      reply(res, FIXED);
    });
    return { server, info: {} };
  }
  if (kind === 'host') return startHost();
  // BENCH_DB_FILE: an organization built beforehand (bench/large_org_fixture.ts), opened as it is.
  const existing = process.env.BENCH_DB_FILE;
  const db = new Database(existing ?? join(dir, 'parley.db'));
  // BENCH_BOUNCER_URL/_ID/_KEY: push through a bouncer stand-in run by the benchmark.
  const bouncerUrl = process.env.BENCH_BOUNCER_URL;
  const push = bouncerUrl ? { bouncerUrl, serverId: process.env.BENCH_BOUNCER_ID, serverKey: process.env.BENCH_BOUNCER_KEY } : undefined;
  // BENCH_BODY_TIMEOUT_MS: time for a request body to arrive (large uploads on a busy machine).
  const bodyTimeoutMs = process.env.BENCH_BODY_TIMEOUT_MS ? Number(process.env.BENCH_BODY_TIMEOUT_MS) : undefined;
  // BENCH_WEB_MESSAGES: the web client served, and a channel of that many messages (below).
  const webMessages = Number(process.env.BENCH_WEB_MESSAGES ?? 0);
  const chat = createChatServer(db, { logger: silentLogger, push, ...(bodyTimeoutMs && { limits: { bodyTimeoutMs } }), ...(webMessages > 0 && { webClient: true }) });
  // The web client signs in with a password (a session cookie: bench/web_client.bench.ts).
  if (existing) return { server: http.createServer(chat.handler), info: {} };
  const owner = await chat.admin.initOrganization({ email: 'bench@example.com', fullName: 'Bench Owner', ...(webMessages > 0 && { password: BENCH_WEB_PASSWORD }) });
  let streamId: number | undefined;
  if (webMessages > 0) {
    chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'busy' }] });
    streamId = (db.prepare("SELECT id FROM stream WHERE name = 'busy'").get() as { id: number }).id;
    // Rows written directly (10,000 sends through the API would take minutes), all read but the
    // last 20: the channel opens at its first unread, near the end.
    const message = db.prepare(
      `INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, topic_links, date_sent, sending_client)
       VALUES (?, ?, ?, ?, ?, '[]', ?, 'bench')`,
    );
    const userMessage = db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < webMessages; i++) {
        const id = Number(message.run(owner.user_id, streamId, `topic ${i % 50}`, `message ${i}`, `<p>message ${i}</p>`, 1_700_000_000 + i).lastInsertRowid);
        userMessage.run(owner.user_id, id, i < webMessages - 20 ? 1 : 0);
      }
    })();
  }
  const users = Number(process.env.BENCH_USERS ?? 0);
  const role = (process.env.BENCH_USER_ROLE ?? 'member') as 'member';
  const members = [];
  for (let i = 0; i < users; i++) members.push(await chat.admin.addUser({ email: `user${i}@example.com`, fullName: `User ${i}`, role }));
  // Checkouts before contextOf kept the context in `chat.ctx`.
  const ctx = context.contextOf?.(chat) ?? (chat as unknown as { ctx: import('../lib/context.js').Ctx }).ctx;
  waiterCount = () => ctx.events.waiterCount;
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (req.method === 'PATCH') changeAt = process.hrtime.bigint();
    else if (req.url?.includes('/events')) res.once('finish', () => (lastEventsAt = process.hrtime.bigint()));
    chat.handler(req, res);
  };
  return { server: http.createServer(handler), info: { owner, members, streamId, ...(webMessages > 0 && { ownerPassword: BENCH_WEB_PASSWORD }) } };
}

/**
 * A host of BENCH_ORGANIZATIONS organizations (default 1,000), org0000 ... as `<name>.bench.test`:
 * copies of one database with an owner and a member, none open yet. IPC {cmd: 'host'} answers the
 * number open; {cmd: 'visit'} opens and closes each once (as `parley serve --orgs` does at start)
 * and answers the ms it took.
 */
async function startHost(): Promise<{ server: http.Server; info: Record<string, unknown> }> {
  const { createChatHost, organizationsIn } = (await import(join(root, 'lib/index.ts'))) as typeof import('../lib/index.js');
  const count = Number(process.env.BENCH_ORGANIZATIONS ?? 1000);
  const template = new Database(join(dir, 'template.db'));
  const chat = createChatServer(template, { logger: silentLogger });
  const owner = await chat.admin.initOrganization({ email: 'bench@example.com', fullName: 'Bench Owner' });
  const member = await chat.admin.addUser({ email: 'member@example.com', fullName: 'Member' });
  await chat.close();
  template.close();
  const orgs = join(dir, 'orgs');
  mkdirSync(orgs);
  const names = Array.from({ length: count }, (_, i) => `org${String(i).padStart(4, '0')}`);
  for (const name of names) copyFileSync(join(dir, 'template.db'), join(orgs, `${name}.db`));
  const host = createChatHost({ url: 'http://{org}.bench.test', open: organizationsIn(orgs).open, options: { logger: silentLogger } });
  hostCommands = {
    host: async () => host.openOrganizations().length,
    visit: async () => {
      const start = process.hrtime.bigint();
      await host.visit(names);
      return Number(process.hrtime.bigint() - start) / 1e6;
    },
  };
  return { server: http.createServer(host.handler), info: { owner, member, names } };
}

let hostCommands: Record<string, () => Promise<unknown>> = {};

const { server, info } = await start();
server.keepAliveTimeout = 60_000;
// node:http's default 300 s for a whole request cuts off large uploads on a busy machine; the
// handler's own body timeout applies (BENCH_BODY_TIMEOUT_MS).
if (process.env.BENCH_BODY_TIMEOUT_MS) server.requestTimeout = 0;
server.maxConnections = 10_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(JSON.stringify({ port: address.port, ...info }) + '\n');
});
process.on('message', (message: { cmd?: string }) => {
  if (message.cmd === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ memory: process.memoryUsage() });
  }
  if (message.cmd === 'waiters') process.send?.({ waiters: waiterCount() });
  if (message.cmd === 'fanout') process.send?.({ fanout: Number(lastEventsAt - changeAt) / 1e6 });
  const command = message.cmd === undefined ? undefined : hostCommands[message.cmd];
  if (command) void command().then((answer) => process.send?.({ [message.cmd!]: answer }));
});
process.on('SIGTERM', () => process.exit(0));
