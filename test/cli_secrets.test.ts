// Secrets and proxies on the `parley` command line: a password or push server key can come from a
// file or the environment, an SMTP URL from the environment, instead of the (world-readable)
// process list; a weak password is refused, and `serve --trust-proxy` makes X-Forwarded-For the
// client address of the rate limits.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { main } from '../lib/cli.js';
import type { Io } from '../lib/cli_args.js';
import { basic, sendRequest } from './helpers.js';
import { runParley, spawnParley } from './cli_process.js';

t.jobs = 4;
t.setTimeout(300_000);

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-cli-secrets-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The API key a password login gives on the database `file`, or the login's error message. */
async function loginWith(file: string, email: string, password: string): Promise<string> {
  const db = new Database(file);
  const chat = createChatServer(db, { logger: silentLogger });
  try {
    return (await chat.api.server.fetchApiKey(null, { username: email, password })).api_key;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await chat.close();
    db.close();
  }
}

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as { api_key: string };

t.test('init and user add read the password from --password-file or PARLEY_PASSWORD, and never print it', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'chat.db');
  writeFileSync(join(dir, 'owner.pw'), 'from-a-file pass\n');
  const init = await runParley(['init', '--db', file, '--email', 'boss@example.com', '--password-file', join(dir, 'owner.pw')], { PARLEY_RATE_LIMIT: '0' });
  t.equal(init.code, 0, init.stderr);
  const added = await runParley(['user', 'add', '--db', file, '--email', 'env@example.com', '--full-name', 'Env'], { PARLEY_PASSWORD: 'from the environment' });
  t.equal(added.code, 0, added.stderr);
  const both = await runParley(['user', 'add', '--db', file, '--email', 'flag@example.com', '--full-name', 'Flag', '--password', 'the-flag-wins'], { PARLEY_PASSWORD: 'not this one' });
  t.equal(both.code, 0, both.stderr);
  t.equal(await loginWith(file, 'boss@example.com', 'from-a-file pass'), lastJson(init.stdout).api_key, 'the file without its final line break');
  t.equal(await loginWith(file, 'env@example.com', 'from the environment'), lastJson(added.stdout).api_key);
  t.equal(await loginWith(file, 'flag@example.com', 'the-flag-wins'), lastJson(both.stdout).api_key, 'a flag wins over its variable');
  for (const run of [init, added, both]) {
    for (const secret of ['from-a-file', 'from the environment', 'the-flag-wins']) t.notOk(run.stdout.includes(secret) || run.stderr.includes(secret));
  }
});

function captureIo(env: Record<string, string | undefined> = {}): Io & { stderr(): string } {
  const err: string[] = [];
  return { out: () => undefined, err: (line) => err.push(line), env, stderr: () => err.join('\n') };
}

/** Exit code and first line of standard error of `parley <args>`, run in this process. */
async function refusal(args: string[], env: Record<string, string | undefined> = {}): Promise<[number, string]> {
  const io = captureIo(env);
  const code = await main(args, io);
  return [code, io.stderr().split('\n')[0]!];
}

t.test('password flags: exclusive, a missing file is named, one of them is required for init, and 6 characters at least', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'chat.db');
  const init = ['init', '--db', db, '--email', 'boss@example.com'];
  writeFileSync(join(dir, 'pw'), 'long-enough');
  writeFileSync(join(dir, 'short'), 'short\n');
  t.same(await refusal([...init, '--password', 'long-enough', '--password-file', join(dir, 'pw')]), [2, 'parley: --password and --password-file are exclusive']);
  t.same(await refusal([...init, '--password-file', join(dir, 'missing')]), [2, `parley: cannot read --password-file ${join(dir, 'missing')}: ENOENT`]);
  t.same(await refusal(init), [2, 'parley: --password, --password-file or PARLEY_PASSWORD is required']);
  t.same(await refusal(init, { PARLEY_PASSWORD: '' }), [2, 'parley: --password, --password-file or PARLEY_PASSWORD is required'], 'blank counts as unset');
  t.same(await refusal(init, { PARLEY_PASSWORD: ' \t ' }), [2, 'parley: --password, --password-file or PARLEY_PASSWORD is required'], 'so does whitespace only');
  t.same(await refusal([...init, '--password', 'five5']), [1, 'parley: The password is too weak.']);
  t.same(await refusal([...init, '--password-file', join(dir, 'short')]), [1, 'parley: The password is too weak.']);
  t.same(await refusal(init, { PARLEY_PASSWORD: 'tiny' }), [1, 'parley: The password is too weak.']);
  t.same(await refusal(['user', 'add', '--db', db, '--email', 'u@example.com', '--full-name', 'Ursula', '--password', 'pw']), [1, 'parley: The password is too weak.']);
});

t.test('serve reads the push server key from --push-server-key-file', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'key'), 'server-key\n');
  const push = ['--push-bouncer-url', 'https://push.example.com', '--push-server-id', 'server-1'];
  const serve = ['serve', '--db', join(dir, 'chat.db'), '--port', '0'];
  t.same(await refusal([...serve, ...push, '--push-server-key', 'k', '--push-server-key-file', join(dir, 'key')]), [2, 'parley: --push-server-key and --push-server-key-file are exclusive']);
  t.same(await refusal([...serve, ...push, '--push-server-key-file', join(dir, 'none')]), [2, `parley: cannot read --push-server-key-file ${join(dir, 'none')}: ENOENT`]);
  writeFileSync(join(dir, 'blank'), '');
  t.same(await refusal([...serve, ...push, '--push-server-key-file', join(dir, 'blank')]), [2, 'parley: --push-server-key-file is required with --push-bouncer-url'], 'an empty file is named');
  const served = await serveChild(t, [...serve.slice(1), ...push, '--push-server-key-file', join(dir, 'key')]);
  t.equal((await sendRequest(served, 'GET', '/server_settings')).body.push_notifications_enabled, true);
});

t.test('serve: a bad --smtp-url or PARLEY_SMTP_URL is refused by name, its password never printed', async (t) => {
  const dir = tempDir(t);
  const serve = ['serve', '--db', join(dir, 'chat.db'), '--port', '0'];
  t.same(await refusal([...serve, '--smtp-url', 'http://u:s3cret-pw@mail.example']), [2, 'parley: --smtp-url must be an smtp:// or smtps:// URL']);
  t.same(await refusal(serve, { PARLEY_SMTP_URL: 'imap://u:s3cret-pw@mail.example' }), [2, 'parley: PARLEY_SMTP_URL must be an smtp:// or smtps:// URL']);
  t.same(await refusal([...serve, '--email-from', 'chat@example.com']), [2, 'parley: --email-from needs PARLEY_SMTP_URL']);
  t.same(await refusal(serve, { PARLEY_EMAIL_BATCHING_SECONDS: 'soon' }), [2, 'parley: PARLEY_EMAIL_BATCHING_SECONDS must be a whole number of seconds from 1 to 604800']);
});

t.test('--trust-proxy and PARLEY_TRUST_PROXY: bad values are named; trusted, X-Forwarded-For is the client address', async (t) => {
  const dir = tempDir(t);
  const serve = ['serve', '--db', join(dir, 'chat.db'), '--port', '0'];
  const entry = "'proxy.example.com' is not an IP address, a subnet (address/bits) or one of loopback, linklocal, uniquelocal";
  t.same(await refusal([...serve, '--trust-proxy', 'proxy.example.com']), [2, `parley: --trust-proxy: ${entry}`]);
  t.same(await refusal(serve, { PARLEY_TRUST_PROXY: 'proxy.example.com' }), [2, `parley: PARLEY_TRUST_PROXY: ${entry}`]);
  // --rate-limit 10: 5 failed authentications per minute per address.
  const url = await serveChild(t, [...serve.slice(1), '--rate-limit', '10', '--trust-proxy', '127.0.0.1']);
  const wrong = (client: string) =>
    sendRequest(url, 'GET', '/users/me', { headers: { authorization: basic('x@example.com', 'k'.repeat(32)), 'x-forwarded-for': client } });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i += 1) statuses.push((await wrong('203.0.113.1')).status);
  statuses.push((await wrong('203.0.113.2')).status);
  t.same(statuses, [401, 401, 401, 401, 401, 429, 401]);
});

t.test('--help says how to keep secrets off the command line', async (t) => {
  const result = await runParley(['--help']);
  t.equal(result.code, 0);
  for (const text of ['--password-file FILE', '--push-server-key-file FILE', 'PARLEY_PASSWORD', 'PARLEY_SMTP_URL', '--trust-proxy N|ADDRESSES', 'visible to other local users']) t.match(result.stdout, text);
});

/** Starts `parley serve <args>` and resolves to its URL; killed at the end of the test. */
function serveChild(t: Test, args: string[]): Promise<string> {
  const child = spawnParley(['serve', ...args], { env: { PARLEY_RATE_LIMIT: '0', PARLEY_PUSH_BOUNCER_URL: undefined } });
  t.teardown(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /^parley listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}
