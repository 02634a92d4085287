// Fuzzing over real HTTP: for every route of the route table (new routes are covered without a
// change here), random and malformed requests as an administrator, a member and with bad
// credentials. Properties: never a 5xx (but the test notification's documented 502 for a bouncer
// that does not answer), always the JSON envelope (`code` on errors), and a request that fails
// changes nothing in the database. Push is configured, and the member has an active device, so
// the push routes get past PUSH_SERVICE_NOT_CONFIGURED. Well-formed message fetches and flag
// changes whose narrows pile up search words and phrases reach the search itself. Reproduce a
// failure with the printed seed and path: FUZZ_SEED=<seed> npx tap test/fuzz.test.ts; FUZZ_RUNS
// sets the runs per route.
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { Response } from 'node-fetch';
import type { PushOptions } from '../lib/index.js';
import { allRoutes } from '../lib/routes/index.js';
import { basic, startServer } from './helpers.js';
import { requestsFor, searchRequests, webhookRequests, type FuzzRequest, type World } from './fuzz_arbitraries.js';
import { INTEGRATIONS } from '../lib/integrations/registry.js';
import { databaseSnapshots, sendRaw, type RawReply } from './raw_http.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_422);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
// Rows a request may change without meaning to: when a queue was last polled.
const VOLATILE = ['event_queue.last_poll_at'];
// Routes that wait for the bouncer: its documented 502 for a bouncer that does not answer is no crash.
const BOUNCER_ROUTES = new Set(['POST /mobile_push/e2ee/test_notification']);
// Success bodies that are not the JSON envelope (documents and images).
const RAW_ROUTES = new Set(['GET /openapi.json', 'GET /static/generated/emoji/:file_name', 'GET /user_avatars/:realm_id/emoji/images/:file_name', 'GET /external_content/:digest/:hex_url', 'GET /user_uploads/:realm_id/*', 'GET /user_uploads/temporary/:token/:filename']);

// A bouncer that accepts registrations during the set-up and afterwards never answers: it only
// gives up when the request's signal aborts (parley's timeout, as node-fetch does), so the test
// notification ends at once with FAILED_TO_CONNECT_BOUNCER, a registration the fuzzing makes
// waits an hour for its retry, and nothing the bouncer does writes to the database meanwhile.
let bouncerAnswers = true;
const bouncerFetch = (async (_url: unknown, init?: { signal?: AbortSignal | null }) => {
  if (bouncerAnswers) return new Response(JSON.stringify({ result: 'success', msg: '' }), { status: 200 });
  return new Promise((_resolve, reject) => {
    const signal = init?.signal;
    const abort = () => reject(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }));
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}) as unknown as NonNullable<PushOptions['fetch']>;
const push: PushOptions = {
  bouncerUrl: 'https://push.invalid',
  serverId: 'fuzz-server',
  serverKey: 'fuzz-key',
  fetch: bouncerFetch,
  timeoutMs: 50,
  retryDelaysMs: [3_600_000],
};
// Email goes to a sink, so that invitations, resets and sign-ups get past "does not send email".
const s = await startServer({ events: { heartbeatSeconds: 0.02, gcIntervalMs: 3_600_000 }, push, email: { send: async () => undefined } });
t.teardown(() => s.close());

// Users the ids of the world point at; the callers are created after them, so small random ids
// (0..10) never deactivate or demote a caller.
const victims = [];
for (let i = 0; i < 9; i += 1) victims.push(await s.user(i % 3 === 0 ? 'admin' : 'member'));
const member = await s.user('member');
const api = s.chat.api;
api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'fuzz' }], principals: [s.owner.user_id, member.user_id] });
const streamId = api.streams.getId(member.user_id, { stream: 'fuzz' }).stream_id;
const messageId = api.messages.send(member.user_id, { type: 'stream', to: 'fuzz', topic: 'fuzzing', content: 'hello @**all**' }).id;
const draftId = api.drafts.create(member.user_id, { drafts: [{ type: 'stream', to: [streamId], topic: 't', content: 'draft' }] }).ids[0]!;
api.navigationViews.create(member.user_id, { fragment: 'narrow/fuzz', isPinned: true, name: 'Fuzz' });
api.alertWords.add(member.user_id, { alertWords: ['fuzz'] });
const linkifierId = api.linkifiers.add(s.owner.user_id, { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://example.com/{id}' }).id;
const groupId = api.userGroups.create(member.user_id, { name: 'fuzzers', description: 'd', members: [member.user_id] }).group_id;
const deviceId = api.push.registerClientDevice(member.user_id, {}).device_id;
api.push.register(member.user_id, {
  deviceId,
  pushKey: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64'),
  pushKeyId: 7,
  tokenKind: 'fcm',
  tokenId: Buffer.alloc(8, 9).toString('base64'),
  bouncerPublicKey: Buffer.alloc(32, 5).toString('base64'),
  encryptedPushRegistration: Buffer.alloc(80, 6).toString('base64'),
});
// The registration is forwarded after it commits; the device is active once the bouncer accepted it.
const activeToken = s.db.prepare('SELECT push_token_id FROM device WHERE id = ?').pluck();
for (let waited = 0; activeToken.get(deviceId) === null; waited += 5) {
  if (waited > 10_000) throw new Error('the fuzz device never became active');
  await new Promise((resolve) => setTimeout(resolve, 5));
}
bouncerAnswers = false;
const uploaded = (await api.uploads.upload(member.user_id, { files: [{ field: 'f', filename: 'fuzz.txt', mimetype: 'text/plain', data: Buffer.from('fuzz') }] })).url;
const queues = [api.events.register(member.user_id, {}), api.events.register(s.owner.user_id, {})].map((q) => (q as { queue_id: string }).queue_id);
const world: World = {
  ids: [...victims.map((v) => v.user_id), streamId, messageId, draftId, linkifierId, groupId, deviceId, 1],
  names: ['fuzz', 'fuzzing', 'Fuzz', 'narrow/fuzz', 'inbox', 'fuzzers', victims[1]!.email, ...queues, 'smile', 'octopus', uploaded.split('/').slice(3).join('/')],
};
const restoreKey = s.db.prepare('UPDATE user SET api_key = ? WHERE id = ?');
// parley writes through s.db's connection: the dump is only made again after rows changed.
const snapshot = databaseSnapshots(s.db, VOLATILE);
const queueRows = s.db.prepare('SELECT * FROM event_queue').all() as Record<string, unknown>[];
/** DELETE /users/me deactivates the member caller and its bots and drops its queues: all come back for the next routes. */
function restoreMember(): void {
  s.db.prepare('UPDATE user SET is_active = 1 WHERE id = ? OR bot_owner_id = ?').run(member.user_id, member.user_id);
  for (const row of queueRows) {
    const columns = Object.keys(row);
    s.db.prepare(`INSERT OR IGNORE INTO event_queue (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...Object.values(row));
  }
}
// An incoming webhook bot of the owner's (who has no push device: its direct messages to its owner
// start no delivery that ends after the answer), posting with its key in the URL (Zulip's webhook_view).
const webhookBot = (await s.request('POST', '/bots', { as: s.owner, params: { full_name: 'Fuzz Hook', short_name: 'fuzzhook', bot_type: 2 } })).body as { api_key: string };
const auth = { owner: s.owner.auth, member: member.auth, nobody: basic('nobody@example.com', 'n'.repeat(32)), webhookBot: undefined };

function problem(routeKey: string, request: FuzzRequest, reply: RawReply): string | undefined {
  const unreachableBouncer = reply.status === 502 && reply.json?.code === 'FAILED_TO_CONNECT_BOUNCER' && BOUNCER_ROUTES.has(routeKey);
  if (reply.status >= 500 && !unreachableBouncer) return `answered ${reply.status}: ${reply.text.slice(0, 300)}`;
  const body = reply.json;
  if (request.path.startsWith('/api/v1/external/') && request.method === 'POST' && body) {
    // Zulip's answers of its own: an unsupported event is an error answered with 200 (the service
    // must not retry), and the Slack-compatible integration answers errors as Slack does.
    if (reply.status === 200 && body.code === 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' && body.result === 'error') return undefined;
    if (request.path.startsWith('/api/v1/external/slack_incoming') && body.ok === false) return reply.status >= 400 && typeof body.error === 'string' ? undefined : `Slack error with status ${reply.status}`;
  }
  const raw = RAW_ROUTES.has(routeKey) && reply.status === 200 && request.method === routeKey.split(' ')[0];
  if (raw) return undefined;
  if (!body) return `not JSON (${reply.status}, ${reply.contentType}): ${reply.text.slice(0, 200)}`;
  if (!reply.contentType.startsWith('application/json')) return `content-type ${reply.contentType}`;
  if (typeof body.msg !== 'string') return `no msg: ${reply.text.slice(0, 200)}`;
  if (body.result === 'success') return reply.status === 200 ? undefined : `success with status ${reply.status}`;
  if (body.result !== 'error') return `result ${String(body.result)}`;
  if (typeof body.code !== 'string' || body.code === '') return `error without code: ${reply.text.slice(0, 200)}`;
  if (reply.status < 400) return `error with status ${reply.status}`;
  return undefined;
}

function describe(request: FuzzRequest): string {
  const params = request.params.map(([name, value]) => `${name}=${value.length > 80 ? `<${value.length} bytes>` : JSON.stringify(value.toString('latin1'))}`);
  return `${request.caller} ${request.method} ${request.path.slice(0, 200)} [${request.encoding}] ${params.join(' ')}`;
}

let requests = 0;

/** Fuzzes one route (`key`, `METHOD path`) with the requests of `arbitrary`, `runs` of them. */
async function fuzz(t: Test, key: string, arbitrary: fc.Arbitrary<FuzzRequest>, runs: number): Promise<void> {
  const statuses = new Map<string, number>();
  const property = fc.asyncProperty(arbitrary, async (request) => {
    // Bookkeeping the server defers to the next tick (poll acknowledgements) lands first.
    await new Promise((resolve) => setImmediate(resolve));
    const before = snapshot();
    const reply = await sendRaw(s.url, {
      method: request.method,
      path: request.caller === 'webhookBot' ? `${request.path}?api_key=${webhookBot.api_key}` : request.path,
      params: request.params,
      encoding: request.encoding,
      authorization: auth[request.caller],
      body: request.body,
    });
    requests += 1;
    const label = `${reply.status}${reply.json?.code ? ` ${String(reply.json.code)}` : ''}`;
    statuses.set(label, (statuses.get(label) ?? 0) + 1);
    const found = problem(key, request, reply);
    if (found) throw new Error(`${found}\n  request: ${describe(request)}`);
    // Zulip's partial success: some addresses had accounts, the others were invited.
    const partial = reply.json?.code === 'INVITATION_FAILED' && reply.json.sent_invitations === true;
    // A webhook bot's body that is not JSON, or a channel id that does not exist, tells the bot's owner (Zulip's notices).
    const ownerTold = request.caller === 'webhookBot' && (reply.json?.code === 'INVALID_JSON' || reply.json?.code === 'STREAM_DOES_NOT_EXIST');
    if (reply.json?.result !== 'success' && !(RAW_ROUTES.has(key) && reply.status === 200) && !partial && !ownerTold) {
      const after = snapshot();
      if (after !== before) throw new Error(`a failed request (${reply.status} ${reply.text.slice(0, 120)}) changed the database\n  request: ${describe(request)}`);
    }
  });
  const outcome = await fc.check(property, { numRuns: runs, seed: SEED, endOnFailure: true });
  // POST /users/me/api_key/regenerate replaces the caller's key: the next routes keep theirs.
  for (const caller of [s.owner, member]) restoreKey.run(caller.api_key, caller.user_id);
  if (key === 'DELETE /users/me') restoreMember();
  if (outcome.failed) {
    const error = outcome.errorInstance instanceof Error ? outcome.errorInstance.message : String(outcome.errorInstance);
    t.fail(`${key}: ${error}\n${fc.defaultReportMessage(outcome) ?? 'failed'}\nReproduce: FUZZ_SEED=${SEED} (path ${outcome.counterexamplePath})`);
  } else {
    t.pass(`${key}: ${outcome.numRuns} requests (${[...statuses].map(([label, n]) => `${label}: ${n}`).join(', ')})`);
  }
}

for (const route of allRoutes) {
  const key = `${route.method} ${route.path}`;
  t.test(key, (t) => fuzz(t, key, requestsFor(route, world), RUNS));
}

// Most random requests stop at another parameter: these reach the narrow, its search and its query.
t.test('search narrows of up to 100 terms piling up words and phrases', (t) => fuzz(t, 'GET /messages, POST /messages/flags/narrow', searchRequests(world), RUNS * 4));

// The webhook route's random requests mostly stop at Basic auth: these reach the integrations.
t.test('incoming webhooks: every integration, event headers, JSON and other bodies', (t) => fuzz(t, 'POST /external/:integration', webhookRequests(world, [...INTEGRATIONS.keys()]), RUNS * 10));

t.test('the server still answers after the fuzzing', async (t) => {
  const me = await s.request('GET', '/users/me', { as: member });
  t.equal(me.status, 200);
  t.ok(requests >= (allRoutes.length + 4) * RUNS, `${requests} requests sent`);
});
