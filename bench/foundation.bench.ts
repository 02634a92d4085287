// Foundation figures: server start-up on :memory:, the in-process own-user lookup against a raw
// point select, and GET /api/v1/users/me over HTTP against bare node:http ceilings.
// BENCH_COMPARE_ROOT=<another checkout> loads a second parley server built from that checkout in
// the same rounds (before/after figures for GET /users/me from one run).
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { msPerCall, perSecond, record } from './harness.js';
import { basicAuth, interleavedLoads, startBenchServer } from './load.js';

function startup(): void {
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const db = new Database(':memory:');
    const start = process.hrtime.bigint();
    const chat = createChatServer(db, { logger: silentLogger });
    chat.api.server.settings(null);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    void chat.close();
    db.close();
  }
  times.sort((a, b) => a - b);
  record({ group: 'foundation', name: 'createChatServer(:memory:) until it serves', value: times[10]!, unit: 'ms', target: '< 5 ms' });
}

async function inProcess(): Promise<void> {
  const db = new Database(':memory:');
  const chat = createChatServer(db, { logger: silentLogger });
  const owner = await chat.admin.initOrganization({ email: 'bench@example.com', fullName: 'Bench' });
  const raw = db.prepare('SELECT * FROM user WHERE id = ?');
  const rawMs = msPerCall(() => raw.get(owner.user_id), 100_000);
  const apiMs = msPerCall(() => chat.api.users.me(owner.user_id), 100_000);
  record({
    group: 'foundation',
    name: 'in-process api.users.me',
    value: perSecond(apiMs),
    unit: 'calls/s',
    baseline: { name: 'raw point select', value: perSecond(rawMs) },
  });
  await chat.close();
  db.close();
}

async function overHttp(): Promise<void> {
  const compareRoot = process.env.BENCH_COMPARE_ROOT;
  type Parley = { owner: { email: string; api_key: string } };
  const [bare, auth, parley, other] = await Promise.all([
    startBenchServer('bare-json'),
    startBenchServer('bare-auth'),
    startBenchServer<Parley>('parley'),
    compareRoot ? startBenchServer<Parley>('parley', { BENCH_PARLEY_ROOT: compareRoot }) : undefined,
  ]);
  const me = (server: typeof parley) => ({ url: server.url + '/api/v1/users/me', headers: { authorization: basicAuth(server.info.owner.email, server.info.owner.api_key) } });
  const [bareRps, authRps, parleyRps, otherRps] = (await interleavedLoads([
    { url: bare.url + '/api/v1/users/me' },
    { url: auth.url + '/api/v1/users/me', headers: { authorization: basicAuth('bench@example.com', 'k'.repeat(32)) } },
    me(parley),
    ...(other ? [me(other)] : []),
  ])) as [number, number, number, number?];
  for (const server of [bare, auth, parley, other]) server?.stop();
  record({ group: 'foundation', name: 'bare node:http, fixed JSON', value: bareRps, unit: 'req/s' });
  const baseline = { name: 'bare + Basic auth + in-memory lookup', value: authRps };
  record({ group: 'foundation', name: 'GET /api/v1/users/me', value: parleyRps, unit: 'req/s', baseline, target: '>= 60%' });
  if (otherRps !== undefined) record({ group: 'foundation', name: `GET /api/v1/users/me, ${compareRoot}`, value: otherRps, unit: 'req/s', baseline });
}

export async function run(): Promise<void> {
  startup();
  await inProcess();
  await overHttp();
}
