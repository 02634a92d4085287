// The `parley` command as a child process: init, user add, serve on a real socket (SIGTERM and
// SIGINT, a restart that keeps the data, its defaults, rate limit and push settings from flags and
// the environment), --help, and exit code 2 for bad arguments (in-process through main()).
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { main, SERVE_DEFAULTS } from '../lib/cli.js';
import type { Io } from '../lib/cli_args.js';
import { basic, sendRequest } from './helpers.js';
import { runParley, spawnParley, type CliRun } from './cli_process.js';

// Independent spawns run side by side: each pays for Node and the TypeScript loader (a few
// seconds of CPU for the whole server). On a loaded machine that adds up: allow more than tap's
// default per-file timeout.
t.jobs = 4;
t.setTimeout(300_000);


function run(args: string[]): Promise<CliRun> {
  return runParley(args, { PARLEY_RATE_LIMIT: '0' });
}

const lastLine = (text: string): string => text.trim().split('\n').at(-1)!;

function tempDb(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'chat.db');
}

interface Served {
  child: ChildProcess;
  url: string;
  stdout: string;
  exit: Promise<number | null>;
}

/**
 * Starts `parley serve --port 0 <args>` (environment: `env` over PARLEY_RATE_LIMIT=0, undefined
 * unsets) and resolves once it printed its listening line; killed at the end of the test.
 */
function serveWith(t: Test, args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<Served> {
  const env = { PARLEY_RATE_LIMIT: '0', PARLEY_PUSH_BOUNCER_URL: undefined, ...options.env };
  const child = spawnParley(['serve', '--port', '0', ...args], { env, ...(options.cwd ? { cwd: options.cwd } : {}) });
  t.teardown(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const exit = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /^parley listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(stdout);
      if (match && Number(match[2]) > 0) resolve({ child, url: match[1]!, stdout, exit });
    });
    exit.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

const serve = (t: Test, file: string): Promise<Served> => serveWith(t, ['--db', file]);

async function credentialsWork(url: string, email: string, apiKey: string): Promise<number | undefined> {
  const reply = await sendRequest(url, 'GET', '/users/me', { as: { email, api_key: apiKey, user_id: 0, auth: basic(email, apiKey) } });
  return reply.status === 200 ? reply.body.user_id : undefined;
}

// The refusal test runs `init` again on the database the first test initialised.
const sharedDir = mkdtempSync(join(tmpdir(), 'parley-cli-'));
t.teardown(() => rmSync(sharedDir, { recursive: true, force: true }));
let initialised: (file: string) => void;
const initialisedFile = new Promise<string>((resolve) => (initialised = resolve));

t.test('init creates the organization and its owner; the last stdout line is JSON credentials that work', async (t) => {
  const file = join(sharedDir, 'init.db');
  const result = await run(['init', '--db', file, '--email', 'boss@example.com', '--password', 'pw-secret', '--full-name', 'The Boss', '--org-name', 'Acme']);
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /^Created the organization in .*init\.db with owner boss@example\.com\.$/m);
  const credentials = JSON.parse(lastLine(result.stdout));
  t.same(Object.keys(credentials), ['email', 'api_key', 'user_id']);
  t.match(credentials, { email: 'boss@example.com', api_key: /^[A-Za-z0-9]{32}$/, user_id: 1 });
  const db = new Database(file);
  const chat = createChatServer(db, { logger: silentLogger });
  t.teardown(async () => {
    await chat.close();
    db.close();
  });
  const { port } = await chat.listen(0, '127.0.0.1');
  t.equal(await credentialsWork(`http://127.0.0.1:${port}`, credentials.email, credentials.api_key), 1);
  t.match(chat.api.users.me(1), { full_name: 'The Boss', role: 100 });
  t.equal(chat.api.server.settings(null).realm_name, 'Acme');
  const login = await chat.api.server.fetchApiKey(null, { username: 'boss@example.com', password: 'pw-secret' });
  t.equal(login.api_key, credentials.api_key, 'the password was set');
  initialised(file);
});

t.test('init refuses a database that already has an organization, with a clear message and a non-zero exit', async (t) => {
  const file = await initialisedFile;
  const again = await run(['init', '--db', file, '--email', 'other@example.com', '--password', 'pw']);
  t.equal(again.code, 1);
  t.equal(again.stderr, `parley init: ${file} already has an organization; use \`parley user add\` to add users.\n`);
  t.equal(again.stdout, '');
});

t.test('user add adds users with a role, and bots; the last stdout line is JSON credentials', async (t) => {
  const file = tempDb(t);
  const setup = new Database(file);
  const owner = createChatServer(setup, { logger: silentLogger });
  await owner.admin.initOrganization({ email: 'boss@example.com', fullName: 'The Boss' });
  await owner.close();
  setup.close();
  // Separate processes on one database file: they wait for each other's write lock.
  const [admin, bot] = await Promise.all([
    run(['user', 'add', '--db', file, '--email', 'adm@example.com', '--full-name', 'Ad Min', '--role', 'admin', '--password', 'pw-123456']),
    run(['user', 'add', '--db', file, '--email', 'helper-bot@example.com', '--full-name', 'Helper', '--bot']),
  ]);
  for (const result of [admin, bot]) t.equal(result.code, 0, result.stderr);
  const [a, b] = [admin, bot].map((result) => JSON.parse(lastLine(result.stdout)));
  t.match(a, { email: 'adm@example.com', api_key: /^[A-Za-z0-9]{32}$/, user_id: Number });
  t.match(b, { email: 'helper-bot@example.com', api_key: /^[A-Za-z0-9]{32}$/, user_id: Number });
  t.match(admin.stdout, /^Added admin adm@example\.com\.$/m);
  t.match(bot.stdout, /^Added bot helper-bot@example\.com\.$/m);
  const db = new Database(file);
  const chat = createChatServer(db, { logger: silentLogger });
  t.teardown(async () => {
    await chat.close();
    db.close();
  });
  t.match(chat.api.users.get(1, { userId: a.user_id }).user, { role: 200, is_admin: true, is_bot: false });
  t.match(chat.api.users.get(1, { userId: b.user_id }).user, { is_bot: true, bot_type: 1, bot_owner_id: 1 });
  t.equal(chat.api.users.list(1).members.length, 3);
  const login = await chat.api.server.fetchApiKey(null, { username: 'adm@example.com', password: 'pw-123456' });
  t.equal(login.api_key, a.api_key, 'with its password');
});

t.test('bad arguments, an unknown command or a missing --db exit with code 2 and a clear message', async (t) => {
  const cases: [string[], RegExp][] = [
    [['user', 'add', '--email', 'x@example.com', '--full-name', 'Xavier'], /^parley: --db is required\n/],
    [['frobnicate'], /^parley: unknown command 'frobnicate'\n/],
    [['serve', '--port', 'abc', '--bogus'], /^parley: Unknown option '--bogus'/],
  ];
  const results = await Promise.all(cases.map(([args]) => run(args)));
  cases.forEach(([args, message], i) => {
    t.equal(results[i]!.code, 2, args.join(' '));
    t.match(results[i]!.stderr, message);
    t.match(results[i]!.stderr, /Run `parley --help` for usage\./);
  });
});

t.test('--help prints the usage and exits 0', async (t) => {
  const result = await run(['--help']);
  t.equal(result.code, 0);
  t.match(result.stdout, /^parley: an embeddable, Zulip-compatible team-chat server\n\nUsage:\n {2}parley serve/);
  for (const command of ['parley init --db FILE', 'parley serve --orgs DIR', 'parley init --orgs DIR --org NAME', 'parley user add --db FILE', 'parley --help']) t.match(result.stdout, command);
});

t.test('serve on a new database prints credentials and its URL, serves them, stops on SIGTERM, and a restart keeps the data', async (t) => {
  const file = tempDb(t);
  const first = await serve(t, file);
  const email = /^ {2}email: {3}(\S+)$/m.exec(first.stdout)?.[1];
  const apiKey = /^ {2}API key: (\S+)$/m.exec(first.stdout)?.[1];
  t.match(first.stdout, /^Created a new organization in .*chat\.db\. Its owner's credentials \(shown only this once\):$/m);
  t.equal(email, 'owner@example.com');
  t.match(apiKey, /^[A-Za-z0-9]{32}$/);
  t.equal(await credentialsWork(first.url, email!, apiKey!), 1);
  const settings = await sendRequest(first.url, 'GET', '/server_settings');
  t.equal(settings.body.realm_url, first.url, 'the organization URL is the real address');
  first.child.kill('SIGTERM');
  t.equal(await first.exit, 0, 'SIGTERM stops it with exit code 0');

  const second = await serve(t, file);
  t.notMatch(second.stdout, /Created a new organization|API key/, 'no new owner on restart');
  t.equal(await credentialsWork(second.url, email!, apiKey!), 1, 'the same credentials work after a restart');
  second.child.kill('SIGTERM');
  t.equal(await second.exit, 0);
});

const rateLimitHeaders = async (url: string): Promise<(string | null)[]> => {
  const reply = await sendRequest(url, 'GET', '/server_settings');
  return ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => reply.headers.get(name));
};

t.test('serve without --db, --host, a rate limit or an owner email (blank variables): ./parley.db in the working directory, 127.0.0.1, 200 requests a minute, owner@example.com; SIGINT stops it with exit 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-cwd-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Blank variables count as unset: PARLEY_RATE_LIMIT and PARLEY_OWNER_EMAIL take their defaults.
  const served = await serveWith(t, [], { cwd: dir, env: { PARLEY_RATE_LIMIT: ' ', PARLEY_OWNER_EMAIL: ' \t' } });
  t.match(served.url, /^http:\/\/127\.0\.0\.1:\d+$/, 'listens on 127.0.0.1');
  t.match(served.stdout, /^Created a new organization in \.\/parley\.db\./m);
  t.match(served.stdout, /^  email: {3}owner@example\.com$/m, 'a blank PARLEY_OWNER_EMAIL: the default owner');
  t.ok(existsSync(join(dir, 'parley.db')), './parley.db is created in the working directory');
  t.equal((await rateLimitHeaders(served.url))[0], '200', 'X-RateLimit-Limit: 200');
  served.child.kill('SIGINT');
  t.equal(await served.exit, 0, 'SIGINT stops it with exit code 0');
});

t.test('the defaults of serve are ./parley.db, port 9991, 127.0.0.1 and 200 requests a minute, as --help says', async (t) => {
  t.same(SERVE_DEFAULTS, { db: './parley.db', port: 9991, host: '127.0.0.1', rateLimit: 200 });
  const io = captureIo();
  t.equal(await main(['--help'], io), 0);
  t.match(io.stdout(), '(defaults: ./parley.db, 9991,\n           127.0.0.1)');
  t.match(io.stdout(), 'PARLEY_RATE_LIMIT (requests per minute per user, 0 = off; default 200 for serve)');
});

t.test('--rate-limit 7 answers X-RateLimit-Limit: 7', async (t) => {
  const served = await serveWith(t, ['--db', tempDb(t), '--rate-limit', '7'], { env: { PARLEY_RATE_LIMIT: undefined } });
  const [limit, remaining] = await rateLimitHeaders(served.url);
  t.equal(limit, '7');
  t.equal(remaining, '6');
});

t.test('the --rate-limit flag wins over PARLEY_RATE_LIMIT (5 and 9: 9)', async (t) => {
  const served = await serveWith(t, ['--db', tempDb(t), '--rate-limit', '9'], { env: { PARLEY_RATE_LIMIT: '5' } });
  t.equal((await rateLimitHeaders(served.url))[0], '9');
});

t.test('serve reads its environment: PARLEY_RATE_LIMIT=0 turns rate limiting off, PARLEY_PUSH_* enable push notifications', async (t) => {
  const env = {
    PARLEY_RATE_LIMIT: '0',
    // Never called: nothing is registered; /server_settings only reports that push is configured.
    PARLEY_PUSH_BOUNCER_URL: 'http://127.0.0.1:9/',
    PARLEY_PUSH_SERVER_ID: 'server-1',
    PARLEY_PUSH_SERVER_KEY: 'server-key',
  };
  const served = await serveWith(t, ['--db', tempDb(t)], { env });
  const settings = await sendRequest(served.url, 'GET', '/server_settings');
  t.same(await rateLimitHeaders(served.url), [null, null, null], 'no X-RateLimit-* headers');
  t.equal(settings.body.push_notifications_enabled, true);
});

/** An Io for main() in this process. */
function captureIo(env: Record<string, string | undefined> = {}): Io & { stdout(): string; stderr(): string } {
  const out: string[] = [];
  const err: string[] = [];
  return { out: (line) => out.push(line), err: (line) => err.push(line), env, stdout: () => out.join('\n'), stderr: () => err.join('\n') };
}

/** The first line of what serve prints for bad settings (exit code 2), run in this process. */
async function serveRefuses(t: Test, args: string[], env: Record<string, string | undefined> = {}): Promise<string> {
  const io = captureIo(env);
  t.equal(await main(['serve', '--db', tempDb(t), ...args], io), 2, [...args, JSON.stringify(env)].join(' '));
  t.match(io.stderr(), /\nRun `parley --help` for usage\.$/);
  return io.stderr().split('\n')[0]!;
}

t.test('a bad rate limit is named by where it came from: --rate-limit or PARLEY_RATE_LIMIT', async (t) => {
  t.equal(await serveRefuses(t, ['--rate-limit', 'lots']), "parley: --rate-limit must be a non-negative integer, not 'lots'");
  t.equal(await serveRefuses(t, [], { PARLEY_RATE_LIMIT: 'lots' }), "parley: PARLEY_RATE_LIMIT must be a non-negative integer, not 'lots'");
  t.equal(await serveRefuses(t, ['--rate-limit', '1.5'], { PARLEY_RATE_LIMIT: '5' }), "parley: --rate-limit must be a non-negative integer, not '1.5'");
});

t.test('a bad push setting is named by the flag it came from, else by its PARLEY_PUSH_* variable', async (t) => {
  const url = 'https://push.example.com';
  t.equal(await serveRefuses(t, ['--push-bouncer-url', 'ftp://x', '--push-server-id', 'a', '--push-server-key', 'b']), 'parley: --push-bouncer-url must be an http or https URL');
  t.equal(await serveRefuses(t, ['--push-bouncer-url', 'not a url']), 'parley: --push-bouncer-url is not a valid URL');
  t.equal(await serveRefuses(t, ['--push-bouncer-url', url]), 'parley: --push-server-id is required with --push-bouncer-url');
  t.equal(await serveRefuses(t, ['--push-bouncer-url', url, '--push-server-id', 'a']), 'parley: --push-server-key is required with --push-bouncer-url');
  t.equal(
    await serveRefuses(t, ['--push-bouncer-url', url], { PARLEY_PUSH_SERVER_ID: 'a' }),
    'parley: --push-server-key is required with --push-bouncer-url',
    'a setting missing from both is named by its flag next to a flag URL',
  );
  t.equal(await serveRefuses(t, [], { PARLEY_PUSH_BOUNCER_URL: 'ftp://x', PARLEY_PUSH_SERVER_ID: 'a', PARLEY_PUSH_SERVER_KEY: 'b' }), 'parley: PARLEY_PUSH_BOUNCER_URL must be an http or https URL');
  t.equal(await serveRefuses(t, ['--push-server-id', 'a'], { PARLEY_PUSH_BOUNCER_URL: url }), 'parley: PARLEY_PUSH_SERVER_KEY is required with PARLEY_PUSH_BOUNCER_URL');
  t.equal(await serveRefuses(t, ['--push-server-key', 'b'], { PARLEY_PUSH_BOUNCER_URL: url, PARLEY_PUSH_SERVER_ID: ' ' }), 'parley: PARLEY_PUSH_SERVER_ID is required with PARLEY_PUSH_BOUNCER_URL');
});

t.test('--url must be an absolute http(s) URL (init and serve), and so must the realm.url option', async (t) => {
  const message = "parley: --url: The organization URL must be an absolute http:// or https:// URL, not 'chat.example.com'";
  t.equal(await serveRefuses(t, ['--url', 'chat.example.com']), message);
  const io = captureIo();
  t.equal(await main(['init', '--db', tempDb(t), '--email', 'a@example.com', '--password', 'secret-pass', '--url', 'chat.example.com'], io), 2);
  t.equal(io.stderr().split('\n')[0], message);
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  t.throws(() => createChatServer(db, { logger: silentLogger, realm: { url: 'ftp://chat.example.com' } }), {
    message: "The organization URL must be an absolute http:// or https:// URL, not 'ftp://chat.example.com'",
  });
});
