// Navigation views, drafts and alert words: each operation in-process (ms/op, next to a raw
// SQLite point select or one-row UPDATE transaction on the same database) and over HTTP
// (req/s next to a bare node:http server answering fixed JSON), and a user with 1,000 alert words
// receiving a 10 KB message (the matcher alone, and the whole in-process send).
import http from 'node:http';
import autocannon from 'autocannon';
import { usersWithAlertWords } from '../lib/render/alert_words.js';
import { msPerCall, record } from './harness.js';
import { basicAuth, load, startBenchServer } from './load.js';
import { openBenchChat, type Account } from './chat.js';

const GROUP = 'views/drafts/alert words';

async function inProcess(): Promise<void> {
  const { chat, db, owner, close } = await openBenchChat();
  const me = owner.user_id;
  db.exec("CREATE TABLE ceiling (id INTEGER PRIMARY KEY, v INTEGER) STRICT; INSERT INTO ceiling VALUES (1, 0)");
  const rawSelect = db.prepare('SELECT * FROM user WHERE id = ?');
  const rawUpdate = db.prepare('UPDATE ceiling SET v = v + 1 WHERE id = 1');
  const read = { name: 'raw point select', value: msPerCall(() => rawSelect.get(me), 20_000) };
  const write = { name: 'raw one-row UPDATE transaction', value: msPerCall(() => db.transaction(() => rawUpdate.run())(), 5000) };
  const figure = (name: string, value: number, baseline: { name: string; value: number }) =>
    record({ group: GROUP, name: `in-process ${name}`, value, unit: 'ms/op', baseline });

  const { navigationViews, drafts, alertWords } = chat.api;
  for (let i = 0; i < 10; i++) navigationViews.create(me, { fragment: `narrow/view/${i}`, isPinned: true, name: `View ${i}` });
  figure('navigationViews.list (10 views)', msPerCall(() => navigationViews.list(me), 5000), read);
  let n = 0;
  figure('navigationViews.create', msPerCall(() => navigationViews.create(me, { fragment: `narrow/new/${n++}`, isPinned: false, name: `New ${n}` }), 2000), write);
  let pinned = false;
  figure('navigationViews.update', msPerCall(() => navigationViews.update(me, { fragment: 'narrow/view/0', isPinned: (pinned = !pinned) }), 2000), write);
  let gone = 0;
  figure('navigationViews.delete', msPerCall(() => navigationViews.delete(me, { fragment: `narrow/new/${gone++}` }), 1000, 2), write);

  const draft = { type: 'private' as const, to: [me], topic: '', content: 'A draft of a message' };
  drafts.create(me, { drafts: Array.from({ length: 10 }, () => draft) });
  figure('drafts.list (10 drafts)', msPerCall(() => drafts.list(me), 5000), read);
  figure('drafts.create (1 draft)', msPerCall(() => drafts.create(me, { drafts: [draft] }), 2000), write);
  const [editId] = drafts.create(me, { drafts: [draft] }).ids;
  figure('drafts.edit', msPerCall(() => drafts.edit(me, { draftId: editId!, draft }), 2000), write);
  const pool: number[] = [];
  for (let i = 0; i < 4; i++) pool.push(...drafts.create(me, { drafts: Array.from({ length: 1000 }, () => draft) }).ids);
  let next = 0;
  figure('drafts.delete', msPerCall(() => drafts.delete(me, { draftId: pool[next++]! }), 1000, 3), write);

  alertWords.add(me, { alertWords: Array.from({ length: 10 }, (_, i) => `word${i}`) });
  figure('alertWords.list (10 words)', msPerCall(() => alertWords.list(me), 5000), read);
  figure('alertWords.add (1 word)', msPerCall(() => alertWords.add(me, { alertWords: ['word0'] }), 2000), write);
  figure('alertWords.remove (1 word)', msPerCall(() => alertWords.remove(me, { alertWords: ['absent'] }), 2000), write);

  // A user with 1,000 words.
  const thousand = Array.from({ length: 1000 }, (_, i) => `alertword${i} phrase`);
  const member = await chat.admin.addUser({ email: 'words@example.com', fullName: 'Many Words' });
  const start = process.hrtime.bigint();
  alertWords.add(member.user_id, { alertWords: thousand });
  record({ group: GROUP, name: 'in-process alertWords.add of 1,000 words at once', value: Number(process.hrtime.bigint() - start) / 1e6, unit: 'ms' });
  figure('alertWords.list (1,000 words)', msPerCall(() => alertWords.list(member.user_id), 1000), read);
  figure('alertWords.add (1 word, 1,000 stored)', msPerCall(() => alertWords.add(member.user_id, { alertWords: ['alertword7 phrase'] }), 500), write);
  figure('alertWords.remove (1 absent word, 1,000 stored)', msPerCall(() => alertWords.remove(member.user_id, { alertWords: ['absent'] }), 500), write);

  // The whole send (render, matcher, rows, events) of a 10 KB direct message to that user.
  const plain = await chat.admin.addUser({ email: 'nowords@example.com', fullName: 'No Words' });
  const content = tenKilobytes();
  const sendTo = (userId: number) => () => chat.api.messages.send(me, { type: 'direct', to: [userId], content });
  const bare = { name: 'the same send to a user without alert words', value: msPerCall(sendTo(plain.user_id), 100, 3) };
  record({ group: GROUP, name: 'in-process 10 KB direct message to a user with 1,000 alert words', value: msPerCall(sendTo(member.user_id), 100, 3), unit: 'ms/op', baseline: bare });
  await close();
}

function tenKilobytes(): string {
  const filler = 'The quick brown fox jumps over the lazy dog; parley keeps its state in SQLite. ';
  return filler.repeat(Math.ceil(10_240 / filler.length)).slice(0, 10_240);
}

/** The matcher of lib/render/alert_words.ts on a 10 KB message, against one lower-cased scan of it. */
function matcher(): void {
  const words: [number, string][] = Array.from({ length: 1000 }, (_, i) => [2, `alertword${i} phrase`]);
  const miss = tenKilobytes();
  const hit = miss.slice(0, 10_240 - 30) + ' ALERTWORD999 phrase, at last.';
  const recipients = new Set([1, 2]);
  const scan = msPerCall(() => miss.toLowerCase().indexOf('alertword0 phrase'), 2000);
  const baseline = { name: 'one toLowerCase + indexOf of the message', value: scan };
  const none = msPerCall(() => usersWithAlertWords(miss, words, recipients), 200);
  const found = msPerCall(() => usersWithAlertWords(hit, words, recipients), 200);
  if (usersWithAlertWords(hit, words, recipients).size !== 1 || usersWithAlertWords(miss, words, recipients).size !== 0) {
    throw new Error('the matcher did not find exactly the planted word');
  }
  record({ group: GROUP, name: 'matcher: 1,000 words, 10 KB message, no match', value: none, unit: 'ms/message', baseline });
  record({ group: GROUP, name: 'matcher: 1,000 words, 10 KB message, last word matches', value: found, unit: 'ms/message', baseline });
}

const agent = new http.Agent({ keepAlive: true });

function call(url: string, method: string, auth: string, form: Record<string, string>): Promise<any> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A different path (and body) per request: autocannon's setupRequest (not in
 * bench/autocannon.d.ts). `amount` requests, or BENCH_SECONDS of load without it.
 */
async function loadEach(
  url: string,
  auth: string,
  method: 'POST' | 'DELETE',
  each: (i: number) => { path: string; body?: string },
  amount?: number,
): Promise<number> {
  let next = 0;
  const headers = { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' };
  const options = {
    url,
    connections: 50,
    ...(amount === undefined ? { duration: Number(process.env.BENCH_SECONDS ?? 5) } : { amount }),
    requests: [{ method, headers, setupRequest: (req: object) => ({ ...req, ...each(next++) }) }],
  };
  const result = await autocannon(options as Parameters<typeof autocannon>[0]);
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${method} load: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

async function overHttp(): Promise<void> {
  const bare = await startBenchServer('bare-json');
  const bareRps = await load({ url: bare.url + '/api/v1/drafts' });
  bare.stop();
  record({ group: GROUP, name: 'bare node:http, fixed JSON', value: bareRps, unit: 'req/s' });
  const baseline = { name: 'bare node:http', value: bareRps };

  const server = await startBenchServer<{ owner: Account }>('parley');
  const api = server.url + '/api/v1';
  const auth = basicAuth(server.info.owner.email, server.info.owner.api_key);
  const headers = { authorization: auth };
  const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
  const figure = async (name: string, rps: Promise<number>) => record({ group: GROUP, name, value: await rps, unit: 'req/s', baseline });

  for (let i = 0; i < 10; i++) await call(`${api}/navigation_views`, 'POST', auth, { fragment: `narrow/view/${i}`, is_pinned: 'true', name: `View ${i}` });
  await figure('GET /navigation_views (10 views)', load({ url: `${api}/navigation_views`, headers }));
  await figure('PATCH /navigation_views/narrow/view/0', load({ url: `${api}/navigation_views/narrow/view/0`, method: 'PATCH', headers: form, body: 'is_pinned=true' }));
  // A new custom view per request; the DELETE load then removes the views it made, one per request.
  const created = (i: number) => ({ path: '/api/v1/navigation_views', body: `fragment=narrow%2Fpost%2F${i}&is_pinned=false&name=Post%20${i}` });
  await figure('POST /navigation_views (a new view each)', loadEach(server.url, auth, 'POST', created));
  const views = (await call(`${api}/navigation_views`, 'GET', auth, {})).navigation_views as { fragment: string }[];
  const made = views.map((v) => v.fragment).filter((f) => f.startsWith('narrow/post/'));
  await figure('DELETE /navigation_views/{fragment}', loadEach(server.url, auth, 'DELETE', (i) => ({ path: `/api/v1/navigation_views/${made[i % made.length]}` }), made.length));

  const draft = JSON.stringify({ type: 'private', to: [server.info.owner.user_id], topic: '', content: 'A draft of a message' });
  await call(`${api}/drafts`, 'POST', auth, { drafts: `[${Array(10).fill(draft).join(',')}]` });
  await figure('GET /drafts (10 drafts)', load({ url: `${api}/drafts`, headers }));
  const { ids } = await call(`${api}/drafts`, 'POST', auth, { drafts: `[${draft}]` });
  await figure('PATCH /drafts/{id}', load({ url: `${api}/drafts/${ids[0]}`, method: 'PATCH', headers: form, body: `draft=${encodeURIComponent(draft)}` }));
  await figure('POST /drafts (1 draft)', load({ url: `${api}/drafts`, method: 'POST', headers: form, body: `drafts=${encodeURIComponent(`[${draft}]`)}` }));
  const pool: number[] = [];
  for (let i = 0; i < 20; i++) pool.push(...(await call(`${api}/drafts`, 'POST', auth, { drafts: `[${Array(1000).fill(draft).join(',')}]` })).ids);
  await figure('DELETE /drafts/{id}', loadEach(server.url, auth, 'DELETE', (i) => ({ path: `/api/v1/drafts/${pool[i % pool.length]}` }), pool.length));

  await call(`${api}/users/me/alert_words`, 'POST', auth, { alert_words: JSON.stringify(Array.from({ length: 10 }, (_, i) => `word${i}`)) });
  await figure('GET /users/me/alert_words (10 words)', load({ url: `${api}/users/me/alert_words`, headers }));
  await figure('POST /users/me/alert_words (1 word)', load({ url: `${api}/users/me/alert_words`, method: 'POST', headers: form, body: 'alert_words=%5B%22word0%22%5D' }));
  await figure('DELETE /users/me/alert_words (1 word)', load({ url: `${api}/users/me/alert_words`, method: 'DELETE', headers: form, body: 'alert_words=%5B%22absent%22%5D' }));
  server.stop();
  agent.destroy();
}

export async function run(): Promise<void> {
  await inProcess();
  matcher();
  await overHttp();
}
