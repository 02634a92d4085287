// User status: POST /users/{user_id}/status in-process (ms/op next to a raw one-row UPDATE
// transaction on the same database) and over HTTP (req/s next to bare node:http servers answering
// fixed JSON, with and without one UPDATE transaction per request), plus the emoji name lookup.
import { unicodeEmojiTables } from '../lib/render/emoji.js';
import { msPerCall, record } from './harness.js';
import { basicAuth, interleavedLoads, startBenchServer } from './load.js';
import { openBenchChat, type Account } from './chat.js';

const GROUP = 'user status';

async function inProcess(): Promise<void> {
  const { chat, db, owner, close } = await openBenchChat();
  const member = await chat.admin.addUser({ email: 'member@example.com', fullName: 'Member' });
  db.exec('CREATE TABLE ceiling (id INTEGER PRIMARY KEY, v TEXT) STRICT; INSERT INTO ceiling VALUES (1, NULL)');
  const rawUpdate = db.prepare('UPDATE ceiling SET v = ? WHERE id = 1');
  let n = 0;
  const write = { name: 'raw one-row UPDATE transaction', value: msPerCall(() => db.transaction(() => rawUpdate.run(`x${n++}`))(), 5000) };
  const { userStatus } = chat.api;
  const figure = (name: string, fn: () => unknown) =>
    record({ group: GROUP, name: `in-process ${name}`, value: msPerCall(fn, 3000), unit: 'ms/op', baseline: write });
  figure('userStatus.update (text)', () => userStatus.update(owner.user_id, { userId: member.user_id, statusText: `Busy ${n++}` }));
  figure('userStatus.update (text + emoji looked up)', () =>
    userStatus.update(owner.user_id, { userId: member.user_id, statusText: `Busy ${n++}`, emojiName: 'car' }),
  );
  figure('userStatus.update (text + emoji, code and type given)', () =>
    userStatus.update(owner.user_id, {
      userId: member.user_id,
      statusText: `Busy ${n++}`,
      emojiName: 'car',
      emojiCode: '1f697',
      reactionType: 'unicode_emoji',
    }),
  );
  const { nameToCode } = unicodeEmojiTables();
  record({ group: GROUP, name: 'Unicode emoji name -> code lookup', value: msPerCall(() => nameToCode.get('car'), 100_000), unit: 'ms/op' });
  await close();
}

async function overHttp(): Promise<void> {
  const body = new URLSearchParams({ status_text: 'In a meeting', emoji_name: 'car' }).toString();
  const form = { method: 'POST' as const, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body };
  const [bare, update, parley] = await Promise.all([
    startBenchServer('bare-json'),
    startBenchServer('bare-update'),
    startBenchServer<{ owner: Account; members: Account[] }>('parley', { BENCH_USERS: '1' }),
  ]);
  const { owner, members } = parley.info;
  const headers = { ...form.headers, authorization: basicAuth(owner.email, owner.api_key) };
  const [bareRps, updateRps, parleyRps] = (await interleavedLoads([
    { url: `${bare.url}/api/v1/users/2/status`, ...form },
    { url: `${update.url}/api/v1/users/2/status`, ...form, body: 'v=In+a+meeting' },
    { url: `${parley.url}/api/v1/users/${members[0]!.user_id}/status`, ...form, headers },
  ])) as [number, number, number];
  for (const server of [bare, update, parley]) server.stop();
  record({ group: GROUP, name: 'bare node:http, fixed JSON', value: bareRps, unit: 'req/s' });
  record({ group: GROUP, name: 'bare node:http + one UPDATE transaction', value: updateRps, unit: 'req/s' });
  const name = 'POST /api/v1/users/{id}/status (text + emoji)';
  record({ group: GROUP, name, value: parleyRps, unit: 'req/s', baseline: { name: 'bare fixed JSON', value: bareRps } });
  record({ group: GROUP, name, value: parleyRps, unit: 'req/s', baseline: { name: 'bare + one UPDATE transaction', value: updateRps }, target: '>= 60%' });
}

export async function run(): Promise<void> {
  await inProcess();
  await overHttp();
}
