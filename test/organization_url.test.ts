// The organization URL that Zulip's clients log in at (realm_url of /server_settings): chosen by
// --url, realm.url or `parley init --url` and kept; otherwise `parley serve` moves it to the
// address it listens on, so a database made by `parley init` works on any port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { sendRequest } from './helpers.js';
import { runParley } from './cli_process.js';
import { startServe, stop } from './serve_process.js';

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-url-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'chat.db');
}

const realmUrl = async (url: string): Promise<string> => (await sendRequest(url, 'GET', '/server_settings')).body.realm_url as string;
const init = (file: string, extra: string[] = []) =>
  runParley(['init', '--db', file, '--email', 'boss@example.com', '--password', 'pw-secret', ...extra]);

t.test('parley init without --url, then serve on another port: the organization URL is where it listens', async (t) => {
  const file = tempDb();
  t.equal((await init(file)).code, 0);
  const served = await startServe(file);
  t.teardown(() => stop(served));
  t.equal(await realmUrl(served.url), served.url);
  await stop(served, 'SIGTERM');
  const again = await startServe(file);
  t.teardown(() => stop(again));
  t.equal(await realmUrl(again.url), again.url, 'and follows the next port too');
});

t.test('a URL given to parley init --url is kept by serve', async (t) => {
  const file = tempDb();
  t.equal((await init(file, ['--url', 'https://chat.example.org'])).code, 0);
  const served = await startServe(file);
  t.teardown(() => stop(served));
  t.equal(await realmUrl(served.url), 'https://chat.example.org');
});

t.test('serve --url sets the URL of an existing organization, and later runs without --url keep it', async (t) => {
  const file = tempDb();
  t.equal((await init(file)).code, 0);
  const first = await startServe(file, ['--url', 'http://chat.example.org:9991']);
  t.equal(await realmUrl(first.url), 'http://chat.example.org:9991');
  await stop(first, 'SIGTERM');
  const second = await startServe(file);
  t.teardown(() => stop(second));
  t.equal(await realmUrl(second.url), 'http://chat.example.org:9991');
});

t.test('in-process: followListeningUrl moves only a URL nobody chose; realm.url is a choice', async (t) => {
  const unchosen = createChatServer(new Database(':memory:'), { logger: silentLogger });
  t.equal(unchosen.admin.followListeningUrl('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
  unchosen.admin.setOrganizationUrl('https://chat.example.org');
  t.equal(unchosen.admin.followListeningUrl('http://127.0.0.1:8081'), 'https://chat.example.org');
  const chosen = createChatServer(new Database(':memory:'), { logger: silentLogger, realm: { url: 'https://team.example.net' } });
  t.equal(chosen.admin.followListeningUrl('http://127.0.0.1:8080'), 'https://team.example.net');
  await unchosen.close();
  await chosen.close();
});
