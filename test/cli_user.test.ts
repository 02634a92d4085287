// `parley user deactivate | reactivate | regenerate-api-key | set-password` as a child process: a
// user's bots go with them and their keys stop working; a bot whose owner is deactivated is not
// reactivated; a rotated key is the only stdout line; a password is set from a file or the
// environment and never printed; unknown emails exit 1, missing flags 2.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { runParley } from './cli_process.js';
import { basic, sendRequest } from './helpers.js';

t.setTimeout(300_000);

const dir = mkdtempSync(join(tmpdir(), 'parley-cli-user-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'chat.db');

// Set up in-process, then closed: each command is a separate process on the file.
const setup = new Database(file);
const chat = createChatServer(setup, { logger: silentLogger });
await chat.admin.initOrganization({ email: 'boss@example.com', fullName: 'The Boss' });
const member = await chat.admin.addUser({ email: 'mem@example.com', fullName: 'Mem Ber' });
const bot = await chat.admin.addUser({ email: 'helper-bot@example.com', fullName: 'Helper', bot: true, botOwnerId: member.user_id });
await chat.close();
setup.close();

const run = (...args: string[]) => runParley(['user', ...args, '--db', file], { PARLEY_RATE_LIMIT: '0' });

/** What GET /users/me answers with these credentials, from a server on the file: 'ok' or the error. */
async function keyWorks(email: string, apiKey: string): Promise<string> {
  const db = new Database(file);
  const reader = createChatServer(db, { logger: silentLogger });
  try {
    const { port } = await reader.listen(0, '127.0.0.1');
    const reply = await sendRequest(`http://127.0.0.1:${port}`, 'GET', '/users/me', { as: { email, api_key: apiKey, user_id: 0, auth: basic(email, apiKey) } });
    return reply.status === 200 ? 'ok' : String(reply.body.msg);
  } finally {
    await reader.close();
    db.close();
  }
}

t.test('deactivate: the user and the bots they own; their keys stop working; again is a no-op', async (t) => {
  const result = await run('deactivate', '--email', member.email);
  t.same([result.code, result.stdout, result.stderr], [0, 'Deactivated mem@example.com and 1 bot it owned.\n', '']);
  t.equal(await keyWorks(member.email, member.api_key), 'Account is deactivated');
  t.equal(await keyWorks(bot.email, bot.api_key), 'Account is deactivated');
  const again = await run('deactivate', '--email', member.email);
  t.same([again.code, again.stdout], [0, 'mem@example.com was already deactivated.\n']);
});

t.test('reactivate: not a bot whose owner is deactivated; the owner, then the bot', async (t) => {
  const refused = await run('reactivate', '--email', bot.email);
  t.same([refused.code, refused.stdout, refused.stderr], [1, '', 'parley: Cannot reactivate helper-bot@example.com: its owner mem@example.com is deactivated\n']);
  for (const email of [member.email, bot.email]) {
    const result = await run('reactivate', '--email', email);
    t.same([result.code, result.stdout, result.stderr], [0, `Reactivated ${email}.\n`, '']);
  }
  t.equal(await keyWorks(bot.email, bot.api_key), 'ok');
  t.same((await run('reactivate', '--email', bot.email)).stdout, 'helper-bot@example.com is already active.\n');
});

t.test('regenerate-api-key: the new key is the only stdout line, and the old one stops working', async (t) => {
  for (const account of [member, bot]) {
    const result = await run('regenerate-api-key', '--email', account.email);
    t.equal(result.code, 0, result.stderr);
    t.match(result.stdout, /^[A-Za-z0-9]{32}\n$/);
    const key = result.stdout.trim();
    t.not(key, account.api_key);
    t.equal(await keyWorks(account.email, account.api_key), 'Invalid API key', 'the old key');
    t.equal(await keyWorks(account.email, key), 'ok', 'the new key');
  }
});

/** Whether a password signs `email` in on the file (POST /fetch_api_key in-process): 'ok' or the error. */
async function passwordWorks(email: string, password: string): Promise<string> {
  const db = new Database(file);
  const reader = createChatServer(db, { logger: silentLogger });
  try {
    await reader.api.server.fetchApiKey(null, { username: email, password });
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  } finally {
    await reader.close();
    db.close();
  }
}

t.test('set-password: from --password-file or PARLEY_PASSWORD, never printed; a bot has none; one source is required', async (t) => {
  const owner = 'boss@example.com';
  const secretFile = join(dir, 'new-password');
  writeFileSync(secretFile, 'file-password-123\n');
  const fromFile = await run('set-password', '--email', owner, '--password-file', secretFile);
  t.same([fromFile.code, fromFile.stdout, fromFile.stderr], [0, 'Set the password of boss@example.com; its web sessions have ended.\n', '']);
  t.equal(await passwordWorks(owner, 'file-password-123'), 'ok');
  const fromEnv = await runParley(['user', 'set-password', '--db', file, '--email', owner], { PARLEY_PASSWORD: 'env-password-456' });
  t.equal(fromEnv.code, 0);
  t.notOk((fromEnv.stdout + fromEnv.stderr).includes('env-password-456'), 'the password is not echoed');
  t.equal(await passwordWorks(owner, 'env-password-456'), 'ok');
  t.equal(await passwordWorks(owner, 'file-password-123'), 'Your username or password is incorrect', 'the previous one stops');
  const weak = await run('set-password', '--email', owner, '--password', 'short');
  t.same([weak.code, weak.stderr], [1, 'parley: The password is too weak.\n']);
  const botRun = await run('set-password', '--email', 'helper-bot@example.com', '--password', 'long-enough');
  t.same([botRun.code, botRun.stderr], [1, 'parley: helper-bot@example.com is a bot: bots have no password\n']);
  const none = await run('set-password', '--email', owner);
  t.equal(none.code, 2);
  t.match(none.stderr, /--password, --password-file or PARLEY_PASSWORD is required/);
});

t.test('an unknown email exits 1; a missing --email or an unknown subcommand exits 2', async (t) => {
  const unknown = await run('deactivate', '--email', 'nobody@example.com');
  t.same([unknown.code, unknown.stderr], [1, "parley: no user or bot has the email 'nobody@example.com'\n"]);
  const missing = await run('regenerate-api-key');
  t.equal(missing.code, 2);
  t.match(missing.stderr, /^parley: --email is required\n/);
  const bogus = await run('frobnicate');
  t.equal(bogus.code, 2);
  t.match(bogus.stderr, /^parley: unknown command 'user frobnicate'\n/);
});
