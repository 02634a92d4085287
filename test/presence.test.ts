// Presence (Zulip's POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence,
// the presence event and the /register `presences` state): each rule over HTTP and in-process.
import t, { type Test } from 'tap';
import { startServer, type TestUser } from './helpers.js';
import { OK, badRequest, camel, eventsSince, expectBoth, register, type Outcome } from './user_status_helpers.js';

const START = 1_767_225_600; // 2026-01-01, in seconds
let nowMs = START * 1000;
const s = await startServer({ clock: () => nowMs });
t.teardown(() => s.close());
const api = s.chat.api;
const advance = (seconds: number) => (nowMs += seconds * 1000);
const now = () => Math.floor(nowMs / 1000);

function ping(tt: Test, as: TestUser, params: Record<string, unknown>, wanted: Outcome, label = '') {
  return expectBoth(tt, wanted, () => s.request('POST', '/users/me/presence', { as, params }), () => api.presence.update(as.user_id, camel(params) as never), label);
}

async function post(as: TestUser, params: Record<string, unknown>): Promise<Record<string, any>> {
  const reply = await s.request('POST', '/users/me/presence', { as, params });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body;
}

t.test('the first report: active_timestamp and idle_timestamp now, in the modern format by user id', async (t) => {
  const user = await s.user('member');
  const body = await post(user, { status: 'active', slim_presence: true });
  t.same(body.presences[String(user.user_id)], { active_timestamp: now(), idle_timestamp: now() });
  t.equal(body.server_timestamp, nowMs / 1000);
  t.type(body.presence_last_update_id, 'number');
});

t.test('legacy format (no slim_presence, no last_update_id): by email, a website entry and its aggregated copy', async (t) => {
  const user = await s.user('member');
  await post(user, { status: 'active' });
  const body = await post(user, { status: 'idle' });
  t.same(body.presences[user.email], {
    aggregated: { client: 'website', status: 'active', timestamp: now() },
    website: { client: 'website', status: 'active', timestamp: now(), pushable: false },
  });
});

t.test('an idle first report: never active, so active_timestamp is when the user joined', async (t) => {
  const user = await s.user('member');
  const joined = s.db.prepare('SELECT date_joined FROM user WHERE id = ?').pluck().get(user.user_id) as number;
  advance(1000);
  const body = await post(user, { status: 'idle', slim_presence: true });
  t.same(body.presences[String(user.user_id)], { active_timestamp: joined, idle_timestamp: now() });
});

t.test('reports less than 55 seconds apart change nothing; later ones move the timestamps', async (t) => {
  const user = await s.user('member');
  const first = await post(user, { status: 'active', slim_presence: true });
  const stamp = now();
  advance(55);
  const second = await post(user, { status: 'active', last_update_id: first.presence_last_update_id });
  t.same(second.presences, {}, 'nothing changed since the client\'s update id');
  t.equal(second.presence_last_update_id, first.presence_last_update_id, 'the same update id comes back');
  advance(1);
  const third = await post(user, { status: 'idle', last_update_id: first.presence_last_update_id });
  t.same(third.presences[String(user.user_id)], { active_timestamp: stamp, idle_timestamp: now() }, 'idle moves only idle_timestamp');
  t.ok(third.presence_last_update_id > first.presence_last_update_id);
  advance(100);
  const fourth = await post(user, { status: 'active', slim_presence: true });
  t.same(fourth.presences[String(user.user_id)], { active_timestamp: now(), idle_timestamp: now() });
});

t.test('legacy status: idle once last active is more than 70 seconds before last connected', async (t) => {
  const user = await s.user('member');
  await post(user, { status: 'active' });
  const active = now();
  advance(71);
  const body = await post(user, { status: 'idle' });
  t.same(body.presences[user.email].aggregated, { client: 'website', status: 'idle', timestamp: now() });
  t.not(now(), active);
});

t.test('ping_only: recorded, and the answer has no presences', async (t) => {
  const user = await s.user('member');
  await ping(t, user, { status: 'active', ping_only: true, new_user_input: true }, OK);
  const reply = await s.request('POST', '/users/me/presence', { as: user, params: { status: 'active', ping_only: true } });
  t.same(reply.body, { result: 'success', msg: '' });
  const realm = await s.request('GET', '/realm/presence', { as: user });
  t.ok(realm.body.presences[user.email], 'recorded');
});

t.test("status must be active or idle; bots may not report (Zulip's messages)", async (t) => {
  const user = await s.user('member');
  await ping(t, user, { status: 'away' }, badRequest('Invalid status: away'));
  await ping(t, user, {}, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'status' argument" });
  await ping(t, user, { status: 'active', ping_only: '"yes"' }, badRequest('ping_only is not a boolean'));
  await ping(t, user, { status: 'active', last_update_id: '"x"' }, badRequest('last_update_id is not an integer'));
  const invalid = await s.request('POST', '/users/me/presence', { as: user, params: { status: 'active', ping_only: 'yes' } });
  t.same([invalid.status, invalid.body.msg], [400, 'ping_only is not valid JSON']);
  const bot = await s.user('member', { bot: true });
  await ping(t, bot, { status: 'active' }, badRequest('This endpoint does not accept bot requests.'));
});

t.test('history: two weeks by default, history_limit_days otherwise, 0 for nothing', async (t) => {
  const old = await s.user('member');
  await post(old, { status: 'active' });
  advance(15 * 86_400);
  const user = await s.user('member');
  const recent = await post(user, { status: 'active', slim_presence: true });
  t.notOk(recent.presences[String(old.user_id)], 'older than 14 days: left out');
  t.ok(recent.presences[String(user.user_id)]);
  const longer = await post(user, { status: 'active', slim_presence: true, history_limit_days: 30 });
  t.ok(longer.presences[String(old.user_id)], '30 days: included');
  const none = await post(user, { status: 'active', history_limit_days: 0, last_update_id: -1 });
  t.same(none.presences, {});
  t.equal(none.presence_last_update_id, -1);
});

t.test('presence_enabled off (invisible): reports are not recorded', async (t) => {
  const user = await s.user('member');
  api.userStatus.updateOwn(user.user_id, { away: true });
  const body = await post(user, { status: 'active', slim_presence: true });
  t.notOk(body.presences[String(user.user_id)]);
});

t.test('deactivated users and bots are left out of the answers', async (t) => {
  const user = await s.user('member');
  await post(user, { status: 'active' });
  s.chat.admin.deactivateUser(user.user_id);
  const realm = await s.request('GET', '/realm/presence', { as: s.owner });
  t.notOk(realm.body.presences[user.email]);
  t.same(Object.keys(realm.body).sort(), ['msg', 'presences', 'result', 'server_timestamp']);
});

t.test('a presence event to every active user when a user comes online, none for a refresh', async (t) => {
  const user = await s.user('member');
  const watcher = await s.user('member');
  const queue = await register(s, watcher, ['presence']);
  await post(user, { status: 'active', ping_only: true });
  advance(60);
  await post(user, { status: 'active', ping_only: true });
  const events = await eventsSince(s, watcher, queue);
  t.same(events.map(({ id: _id, ...event }) => event), [
    {
      type: 'presence',
      email: user.email,
      user_id: user.user_id,
      server_timestamp: (nowMs - 60_000) / 1000,
      presence: { website: { client: 'website', status: 'active', timestamp: now() - 60, pushable: false } },
    },
  ], 'one event: the first report');
  const ownQueue = await register(s, user, ['presence']);
  advance(71);
  await post(user, { status: 'active', ping_only: true });
  t.equal((await eventsSince(s, user, ownQueue)).length, 1, 'back online after 70+ seconds: announced again, to the user too');
});

t.test('GET /users/{user_id_or_email}/presence: by id or email, legacy without client and pushable, or slim', async (t) => {
  const user = await s.user('member');
  const other = await s.user('member');
  await post(user, { status: 'active' });
  for (const key of [String(user.user_id), user.email]) {
    const wanted = { presence: { aggregated: { status: 'active', timestamp: now() }, website: { status: 'active', timestamp: now() } } };
    const reply = await s.request('GET', `/users/${encodeURIComponent(key)}/presence`, { as: other });
    t.same(reply.body, { result: 'success', msg: '', ...wanted }, key);
    t.same(api.presence.user(other.user_id, { userIdOrEmail: key }), wanted, `${key} in-process`);
  }
  const slim = await s.request('GET', `/users/${user.user_id}/presence`, { as: other, params: { slim_presence: true } });
  t.same(slim.body.presence, { active_timestamp: now(), idle_timestamp: now() });
  advance(141);
  const offline = await s.request('GET', `/users/${user.user_id}/presence`, { as: other });
  t.equal(offline.body.presence.aggregated.status, 'offline', 'not heard from for more than 140 seconds');
  t.equal(offline.body.presence.website.status, 'active');
});

t.test("GET /users/{user_id_or_email}/presence: Zulip's errors", async (t) => {
  const user = await s.user('member');
  const fresh = await s.user('member');
  const bot = await s.user('member', { bot: true });
  const get = (key: string, wanted: Outcome, label: string) =>
    expectBoth(t, wanted, () => s.request('GET', `/users/${encodeURIComponent(key)}/presence`, { as: user }), () => api.presence.user(user.user_id, { userIdOrEmail: key }), label);
  await get('999999', badRequest('No such user'), 'unknown id');
  await get('nobody@example.com', badRequest('No such user'), 'unknown email');
  await get(String(bot.user_id), badRequest('Presence is not supported for bot users.'), 'a bot');
  await get(fresh.email, badRequest(`No presence data for ${fresh.email}`), 'never reported');
  const gone = await s.user('member');
  await post(gone, { status: 'active' });
  s.chat.admin.deactivateUser(gone.user_id);
  await get(String(gone.user_id), badRequest('No such user'), 'deactivated');
});

t.test('/register: presences (legacy, or slim with slim_presence or presence_last_update_id), presence_last_update_id, server_timestamp', async (t) => {
  const user = await s.user('member');
  const first = await post(user, { status: 'active', slim_presence: true });
  const legacy = await s.request('POST', '/register', { as: user, params: { fetch_event_types: ['presence'] } });
  t.same(legacy.body.presences[user.email].aggregated, { client: 'website', status: 'active', timestamp: now() });
  t.equal(legacy.body.server_timestamp, nowMs / 1000);
  t.equal(legacy.body.presence_last_update_id, first.presence_last_update_id);
  const slim = await s.request('POST', '/register', { as: user, params: { fetch_event_types: ['presence'], slim_presence: true } });
  t.same(slim.body.presences[String(user.user_id)], { active_timestamp: now(), idle_timestamp: now() });
  const since = await s.request('POST', '/register', { as: user, params: { fetch_event_types: ['presence'], presence_last_update_id: first.presence_last_update_id } });
  t.same(since.body.presences, {}, 'nothing newer');
  t.equal(since.body.presence_last_update_id, first.presence_last_update_id);
});
