// Users and bots: GET /users/me, /users, /users/{id}; POST /users; PATCH and DELETE
// /users/{id}; POST /bots; realm_user events. Over HTTP and in-process (chat.api.users.*).
import { createHash } from 'node:crypto';
import t, { type Test } from 'tap';
import { z } from 'zod';
import { bad, throwsApiError } from './assertions.js';
import { startServer, withAuth, type Reply, type TestServer, type TestUser } from './helpers.js';
import { userSchema } from '../lib/domain/user_dicts.js';
import { applyUserEvent, byId, registerState } from './user_events.js';

// The route table's user dictionary, strict, with Zulip's date format.
const userDict = userSchema.extend({ date_joined: z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/) }).strict();

const realmUserAdd = z.object({ type: z.literal('realm_user'), op: z.literal('add'), id: z.int(), person: userDict }).strict();
const realmUserUpdate = z
  .object({
    type: z.literal('realm_user'),
    op: z.literal('update'),
    id: z.int(),
    person: z.union([
      z.object({ user_id: z.int(), full_name: z.string() }).strict(),
      z.object({ user_id: z.int(), role: z.int() }).strict(),
      z.object({ user_id: z.int(), is_active: z.boolean() }).strict(),
    ]),
  })
  .strict();

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

function expectError(t: Test, reply: Reply, status: number, msg: string, code = 'BAD_REQUEST'): void {
  t.equal(reply.status, status, msg);
  t.same(reply.body, error(msg, code));
}

async function server(t: Test): Promise<TestServer> {
  const s = await startServer({ realm: { name: 'Acme', url: 'https://chat.acme.test' } });
  t.teardown(() => s.close());
  return s;
}

t.test('GET /users/me: the caller as a user dictionary, with max_message_id', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const reply = await s.request('GET', '/users/me', { as: member });
  t.equal(reply.status, 200);
  const { result, msg, max_message_id, ...user } = reply.body;
  t.same([result, msg, max_message_id], ['success', '', -1], 'max_message_id is -1 before any message');
  t.ok(userDict.safeParse(user).success, JSON.stringify(userDict.safeParse(user).error?.issues));
  t.match(user, { user_id: member.user_id, email: member.email, role: 400, is_admin: false, is_bot: false, is_active: true, profile_data: {} });
  // The newest message this user received, not the newest in the organization.
  s.db.exec(`INSERT INTO direct_group (id, member_key) VALUES (1, 'k')`);
  const insert = s.db.prepare(`INSERT INTO message (id, sender_id, direct_group_id, content, rendered_content, date_sent) VALUES (?, ?, 1, 'x', '<p>x</p>', 0)`);
  insert.run(10, s.owner.user_id);
  insert.run(20, s.owner.user_id);
  s.db.prepare('INSERT INTO user_message (user_id, message_id) VALUES (?, 10)').run(member.user_id);
  t.equal((await s.request('GET', '/users/me', { as: member })).body.max_message_id, 10);
  t.equal(s.chat.api.users.me(member.user_id).max_message_id, 10, 'in-process');
  t.equal(s.chat.api.users.me(s.owner.user_id).max_message_id, -1);
});

t.test('GET /users: every user and bot of the organization, deactivated ones included', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const bot = await s.user('member', { bot: true });
  s.chat.admin.deactivateUser(member.user_id);
  const reply = await s.request('GET', '/users', { as: s.owner });
  t.equal(reply.status, 200);
  const members = reply.body.members as any[];
  t.same(members.map((u) => u.user_id), [s.owner.user_id, member.user_id, bot.user_id]);
  for (const user of members) t.ok(userDict.safeParse(user).success, `user ${user.user_id} matches the schema`);
  t.match(members[1], { is_active: false });
  t.match(members[2], { is_bot: true, bot_type: 1, bot_owner_id: s.owner.user_id });
  t.notOk('profile_data' in members[2], 'bots have no profile_data');
  t.same(s.chat.api.users.list(s.owner.user_id), { members }, 'in-process');
});

t.test('GET /users/{user_id}: one user; an unknown id is "No such user"', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const reply = await s.request('GET', `/users/${s.owner.user_id}`, { as: member });
  t.equal(reply.status, 200);
  t.match(reply.body, { result: 'success', user: { user_id: s.owner.user_id, role: 100, is_owner: true } });
  t.ok(userDict.safeParse(reply.body.user).success);
  expectError(t, await s.request('GET', '/users/9999', { as: member }), 400, 'No such user');
  t.throws(() => s.chat.api.users.get(member.user_id, { userId: 9999 }), { code: 'BAD_REQUEST', message: 'No such user', status: 400 });
});

t.test("client_gravatar (GET /users, GET /users/{user_id}): Zulip's default true leaves avatar_url null for emails everyone sees; false gives the gravatar URL", async (t) => {
  const s = await server(t);
  const open = await s.user('member');
  const hidden = await s.user('member');
  t.equal((await s.request('PATCH', '/settings', { as: open, params: { email_address_visibility: 1 } })).status, 200);
  t.equal((await s.request('PATCH', '/settings', { as: hidden, params: { email_address_visibility: 3 } })).status, 200);
  const gravatar = (email: string) => `https://secure.gravatar.com/avatar/${createHash('md5').update(email.toLowerCase()).digest('hex')}?d=identicon&version=1`;
  const avatars = (members: { user_id: number; avatar_url: string | null }[]) =>
    Object.fromEntries(members.filter((u) => u.user_id === open.user_id || u.user_id === hidden.user_id).map((u) => [u.user_id, u.avatar_url]));
  for (const [params, wanted] of [
    [{}, { [open.user_id]: null, [hidden.user_id]: gravatar(hidden.email) }],
    [{ client_gravatar: true }, { [open.user_id]: null, [hidden.user_id]: gravatar(hidden.email) }],
    [{ client_gravatar: false }, { [open.user_id]: gravatar(open.email), [hidden.user_id]: gravatar(hidden.email) }],
  ] as const) {
    const reply = await s.request('GET', '/users', { as: open, params });
    t.equal(reply.status, 200);
    t.notOk('ignored_parameters_unsupported' in reply.body, 'client_gravatar is read');
    t.same(avatars(reply.body.members), wanted, `GET /users ${JSON.stringify(params)}`);
    const inProcess = s.chat.api.users.list(open.user_id, { clientGravatar: (params as { client_gravatar?: boolean }).client_gravatar });
    t.same(avatars(inProcess.members as never), wanted, 'in-process');
    for (const user of [open, hidden]) {
      const one = await s.request('GET', `/users/${user.user_id}`, { as: open, params });
      t.equal(one.body.user.avatar_url, wanted[user.user_id], `GET /users/${user.user_id} ${JSON.stringify(params)}`);
    }
  }
  t.equal(gravatar('Ab@Example.com'), gravatar('ab@example.com'), 'the hash of the lowercased real email');
  const bad = await s.request('GET', '/users', { as: open, params: { client_gravatar: 'maybe' } });
  t.same([bad.status, bad.body.msg], [400, 'client_gravatar is not valid JSON']);
  t.equal((await s.request('GET', '/users/me', { as: open })).body.avatar_url, gravatar(open.email), 'GET /users/me: always the URL, as in Zulip');
});

t.test('POST /users: administrators create users, who can then log in', async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const reply = await s.request('POST', '/users', { as: admin, params: { email: 'new@example.com', password: 'pw-123456', full_name: ' New Person ' } });
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body).sort(), ['msg', 'result', 'user_id']);
  const user = s.chat.api.users.get(admin.user_id, { userId: reply.body.user_id }).user;
  t.match(user, { email: 'new@example.com', full_name: 'New Person', role: 400, is_active: true });
  const login = await s.request('POST', '/fetch_api_key', { params: { username: 'new@example.com', password: 'pw-123456' } });
  t.equal(login.status, 200);
  t.equal(login.body.user_id, reply.body.user_id);
  const inProcess = await s.chat.api.users.create(s.owner.user_id, { email: 'other@example.com', password: 'pw-123456', fullName: 'Other' });
  t.ok(inProcess.user_id > reply.body.user_id, 'in-process');
});

t.test('POST /users by a non-administrator is "Must be an organization administrator" (UNAUTHORIZED_PRINCIPAL)', async (t) => {
  const s = await server(t);
  for (const role of ['moderator', 'member', 'guest'] as const) {
    const user = await s.user(role);
    const reply = await s.request('POST', '/users', { as: user, params: { email: `x-${role}@example.com`, password: 'pw', full_name: 'Xavier' } });
    expectError(t, reply, 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    await t.rejects(s.chat.api.users.create(user.user_id, { email: 'y@example.com', password: 'pw', fullName: 'Yves' }), {
      code: 'UNAUTHORIZED_PRINCIPAL',
      message: 'Must be an organization administrator',
    });
  }
  t.equal(s.chat.api.users.list(s.owner.user_id).members.length, 4, 'nobody was created');
});

t.test('POST /users with an email already in use (case-insensitively) is refused', async (t) => {
  const s = await server(t);
  const reply = await s.request('POST', '/users', { as: s.owner, params: { email: 'OWNER@example.com', password: 'pw', full_name: 'Again' } });
  expectError(t, reply, 400, "Email 'OWNER@example.com' already in use");
});

t.test('POST /users with an invalid email is refused', async (t) => {
  const s = await server(t);
  for (const email of ['not-an-email', 'two@@example.com', 'spaces in@example.com', '']) {
    const reply = await s.request('POST', '/users', { as: s.owner, params: { email, password: 'pw', full_name: 'Valid Name' } });
    expectError(t, reply, 400, `Invalid email '${email}'`);
  }
});

t.test('full names: stripped, 2 to 100 characters, no * ` \\ > " @ or control characters, no trailing |digits', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const cases: [string, string][] = [
    ['x'.repeat(101), 'Name too long!'],
    ['  A  ', 'Name too short!'],
    ['   ', 'Name too short!'],
    ['Bad*Name', 'Invalid characters in name!'],
    ['Bad@Name', 'Invalid characters in name!'],
    ['Bad"Name', 'Invalid characters in name!'],
    ['Bad\u0007Name', 'Invalid characters in name!'],
    ['Name|15', 'Invalid format!'],
  ];
  for (const [name, msg] of cases) {
    expectError(t, await s.request('POST', '/users', { as: s.owner, params: { email: 'n@example.com', password: 'pw', full_name: name } }), 400, msg);
    expectError(t, await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { full_name: name } }), 400, msg);
    expectError(t, await s.request('POST', '/bots', { as: s.owner, params: { full_name: name, short_name: 'nb' } }), 400, msg);
  }
  t.equal((await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { full_name: '😀'.repeat(100) } })).status, 200, '100 code points fit');
  t.equal((await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { full_name: ' Al ' } })).status, 200);
  t.equal(s.chat.api.users.get(member.user_id, { userId: member.user_id }).user.full_name, 'Al', 'stored stripped');
});

t.test('PATCH /users/{user_id}: an administrator changes full_name and role', async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const member = await s.user('member');
  const reply = await s.request('PATCH', `/users/${member.user_id}`, { as: admin, params: { full_name: 'Renamed', role: 300 } });
  t.same(reply.body, { result: 'success', msg: '' });
  t.match(s.chat.api.users.get(admin.user_id, { userId: member.user_id }).user, { full_name: 'Renamed', role: 300 });
  t.same(s.chat.api.users.update(admin.user_id, { userId: member.user_id, role: 600 }), {}, 'in-process');
  t.match(s.chat.api.users.get(admin.user_id, { userId: member.user_id }).user, { role: 600, is_guest: true });
});

t.test('PATCH /users/{user_id}: only owners grant or remove the owner role', async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const member = await s.user('member');
  const grant = await s.request('PATCH', `/users/${member.user_id}`, { as: admin, params: { role: 100 } });
  expectError(t, grant, 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
  const remove = await s.request('PATCH', `/users/${s.owner.user_id}`, { as: admin, params: { role: 200 } });
  expectError(t, remove, 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
  t.throws(() => s.chat.api.users.update(admin.user_id, { userId: member.user_id, role: 100 }), { code: 'UNAUTHORIZED_PRINCIPAL', message: 'Must be an organization owner' });
  const same = await s.request('PATCH', `/users/${s.owner.user_id}`, { as: admin, params: { role: 100, full_name: 'Olivia O' } });
  t.equal(same.status, 200, 'an unchanged role needs no permission; the name changes');
  const owned = await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { role: 100 } });
  t.equal(owned.status, 200, 'an owner grants the owner role');
  const demoted = await s.request('PATCH', `/users/${s.owner.user_id}`, { as: withAuth(member), params: { role: 400 } });
  t.equal(demoted.status, 200, 'an owner removes it from another owner');
  t.match(s.chat.api.users.get(admin.user_id, { userId: s.owner.user_id }).user, { role: 400, is_owner: false, full_name: 'Olivia O' });
});

t.test('PATCH /users/{user_id}: the last owner cannot be demoted', async (t) => {
  const s = await server(t);
  const bot = await s.user('owner', { bot: true });
  t.equal(bot.user_id > 0, true, 'an owner bot does not count as an owner');
  const reply = await s.request('PATCH', `/users/${s.owner.user_id}`, { as: s.owner, params: { role: 200 } });
  expectError(t, reply, 400, 'The owner permission cannot be removed from the only organization owner.');
  await throwsApiError(
    t,
    () => s.chat.api.users.update(s.owner.user_id, { userId: s.owner.user_id, role: 200 }),
    bad('The owner permission cannot be removed from the only organization owner.'),
  );
  t.equal(s.chat.api.users.me(s.owner.user_id).role, 100);
});

t.test('API keys come from the injected random source (ChatOptions.random), bytes of 248 and above skipped', async (t) => {
  // Every call: 248..255 (rejected, they would bias the 62 characters), then 0, 1, 2, ...
  const random = (size: number): Buffer => Buffer.from(Array.from({ length: size }, (_, i) => (248 + i) % 256));
  const s = await startServer({ random });
  t.teardown(() => s.close());
  t.equal(s.owner.api_key, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef');
  const me = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(me.status, 200, 'the key authenticates');
  t.equal(me.body.user_id, s.owner.user_id);
});

t.test('PATCH /users/{user_id}: a role that does not exist is "Invalid role"', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  for (const role of [0, 250, 500, -1]) {
    expectError(t, await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { role } }), 400, 'Invalid role');
  }
  expectError(t, await s.request('PATCH', '/users/9999', { as: s.owner, params: { role: 7 } }), 400, 'Invalid role');
  expectError(t, await s.request('PATCH', '/users/9999', { as: s.owner, params: { role: 400 } }), 400, 'No such user');
});

t.test('PATCH /users/{user_id} by a non-administrator is "Insufficient permission"; a bot owner renames but cannot re-role a bot', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const moderator = await s.user('moderator');
  for (const actor of [member, moderator]) {
    expectError(t, await s.request('PATCH', `/users/${s.owner.user_id}`, { as: actor, params: { full_name: 'Hacked' } }), 400, 'Insufficient permission');
  }
  expectError(t, await s.request('PATCH', `/users/${member.user_id}`, { as: member, params: { role: 200 } }), 400, 'Insufficient permission');
  const created = await s.request('POST', '/bots', { as: member, params: { full_name: 'My Bot', short_name: 'mine' } });
  const botId = created.body.user_id as number;
  t.equal((await s.request('PATCH', `/users/${botId}`, { as: member, params: { full_name: 'My Renamed Bot' } })).status, 200);
  const escalate = await s.request('PATCH', `/users/${botId}`, { as: member, params: { role: 200 } });
  expectError(t, escalate, 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
  t.match(s.chat.api.users.get(member.user_id, { userId: botId }).user, { role: 400, full_name: 'My Renamed Bot' });
  t.throws(() => s.chat.api.users.update(member.user_id, { userId: s.owner.user_id, fullName: 'Hacked' }), { message: 'Insufficient permission' });
});

t.test('DELETE /users/{user_id}: deactivates; the user can no longer authenticate and their event queues are gone', async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const member = await s.user('member', { password: 'member-pw' });
  const queue = await s.request('POST', '/register', { as: member, params: { event_types: ['realm_user'] } });
  t.equal(queue.status, 200);
  const reply = await s.request('DELETE', `/users/${member.user_id}`, { as: admin });
  t.same(reply.body, { result: 'success', msg: '' });
  const me = await s.request('GET', '/users/me', { as: member });
  t.same([me.status, me.body.msg], [401, 'Account is deactivated']);
  const login = await s.request('POST', '/fetch_api_key', { params: { username: member.email, password: 'member-pw' } });
  t.same([login.status, login.body.code], [401, 'USER_DEACTIVATED']);
  t.equal(s.db.prepare('SELECT count(*) FROM event_queue WHERE user_id = ?').pluck().get(member.user_id), 0, 'queues deleted');
  t.match(s.chat.api.users.get(admin.user_id, { userId: member.user_id }).user, { is_active: false });
  expectError(t, await s.request('DELETE', `/users/${member.user_id}`, { as: admin }), 400, 'User is deactivated');
  t.throws(() => s.chat.api.users.me(member.user_id), { code: 'UNAUTHORIZED', message: 'Account is deactivated' });
});

t.test('DELETE /users/{user_id}: owners only for owners, never the only owner, not by non-administrators', async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const member = await s.user('member');
  expectError(t, await s.request('DELETE', `/users/${s.owner.user_id}`, { as: admin }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
  expectError(t, await s.request('DELETE', `/users/${s.owner.user_id}`, { as: s.owner }), 400, 'Cannot deactivate the only organization owner');
  expectError(t, await s.request('DELETE', `/users/${admin.user_id}`, { as: member }), 400, 'Insufficient permission');
  expectError(t, await s.request('DELETE', '/users/9999', { as: s.owner }), 400, 'No such user');
  t.throws(() => s.chat.api.users.deactivate(s.owner.user_id, { userId: s.owner.user_id }), { message: 'Cannot deactivate the only organization owner' });
  const second = await s.user('owner');
  t.same(s.chat.api.users.deactivate(second.user_id, { userId: s.owner.user_id }), {}, 'with two owners, one may go');
});

t.test('POST /bots: email <short_name>-bot@<organization domain>, a working API key, owned by the caller', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const reply = await s.request('POST', '/bots', { as: member, params: { full_name: 'Weather Bot', short_name: 'weather' } });
  t.equal(reply.status, 200);
  t.match(reply.body, { result: 'success', user_id: Number, api_key: /^[A-Za-z0-9]{32}$/, email: 'weather-bot@chat.acme.test' });
  const bot = withAuth(reply.body as { email: string; api_key: string; user_id: number });
  const me = await s.request('GET', '/users/me', { as: bot });
  t.match(me.body, { user_id: bot.user_id, is_bot: true, bot_type: 1, bot_owner_id: member.user_id, full_name: 'Weather Bot' });
  const suffixed = await s.request('POST', '/bots', { as: member, params: { full_name: 'Other Bot', short_name: 'other-bot' } });
  t.equal(suffixed.body.email, 'other-bot@chat.acme.test', 'no doubled -bot');
  const inProcess = await s.chat.api.users.createBot(member.user_id, { fullName: 'In Process', shortName: 'inproc' });
  t.equal(inProcess.email, 'inproc-bot@chat.acme.test');
  const local = await startServer();
  t.teardown(() => local.close());
  const onLocalhost = await local.request('POST', '/bots', { as: local.owner, params: { full_name: 'Local Bot', short_name: 'local' } });
  t.equal(onLocalhost.body.email, 'local-bot@parley.invalid', 'an organization URL without a domain gets a reserved one');
});

t.test('POST /bots: guests are refused; duplicate or bad short names; bad bot_type', async (t) => {
  const s = await server(t);
  const guest = await s.user('guest');
  expectError(t, await s.request('POST', '/bots', { as: guest, params: { full_name: 'Guest Bot', short_name: 'g' } }), 400, 'Not allowed for guest users');
  t.equal((await s.request('POST', '/bots', { as: s.owner, params: { full_name: 'First Bot', short_name: 'dup' } })).status, 200);
  expectError(t, await s.request('POST', '/bots', { as: s.owner, params: { full_name: 'Second Bot', short_name: 'DUP' } }), 400, 'Username already in use');
  for (const short of ['', '  ', 'has space', 'a@b']) {
    expectError(t, await s.request('POST', '/bots', { as: s.owner, params: { full_name: 'Some Bot', short_name: short } }), 400, 'Bad name or username');
  }
  expectError(t, await s.request('POST', '/bots', { as: s.owner, params: { full_name: 'Some Bot', short_name: 'ok', bot_type: 9 } }), 400, 'Invalid bot_type');
  await t.rejects(s.chat.api.users.createBot(guest.user_id, { fullName: 'Guest Bot', shortName: 'g' }), { message: 'Not allowed for guest users' });
});

// realm_user events: each has a schema, and applying them to the state fetched before a change
// gives the state fetched after (Zulip's test_events.py discipline).

t.test('realm_user events match their schemas, and applying them to the state before equals the state after', async (t) => {
  const s = await server(t);
  const admin = await s.user('admin');
  const before = await registerState(s, admin);
  const created = await s.request('POST', '/users', { as: s.owner, params: { email: 'ev@example.com', password: 'pw-123456', full_name: 'Eve Vent' } });
  const eve = created.body.user_id as number;
  await s.request('POST', '/bots', { as: admin, params: { full_name: 'Event Bot', short_name: 'event' } });
  await s.request('PATCH', `/users/${eve}`, { as: admin, params: { full_name: 'Eve Renamed', role: 300 } });
  await s.request('PATCH', `/users/${admin.user_id}`, { as: s.owner, params: { full_name: 'Admin Renamed', role: 400 } });
  await s.request('DELETE', `/users/${eve}`, { as: s.owner });
  s.chat.api.users.update(s.owner.user_id, { userId: admin.user_id, role: 200 });
  const polled = await s.request('GET', '/events', { as: admin, params: { queue_id: before.queueId, last_event_id: before.lastEventId, dont_block: true } });
  const events = polled.body.events as any[];
  t.same(
    events.map((e) => (e.op === 'add' ? 'add' : `update:${Object.keys(e.person).filter((k) => k !== 'user_id').join(',')}`)),
    ['add', 'add', 'update:role', 'update:full_name', 'update:role', 'update:full_name', 'update:is_active', 'update:role'],
  );
  for (const event of events) {
    const schema = event.op === 'add' ? realmUserAdd : realmUserUpdate;
    const parsed = schema.safeParse(event);
    t.ok(parsed.success, `${event.op} ${JSON.stringify(event.person).slice(0, 60)}: ${JSON.stringify(parsed.error?.issues ?? '')}`);
  }
  const state = structuredClone(before.state);
  for (const event of events) applyUserEvent(state, event, admin.user_id);
  const after = (await registerState(s, admin)).state;
  t.same({ ...state, realm_users: byId(state.realm_users), realm_non_active_users: byId(state.realm_non_active_users) }, {
    ...after,
    realm_users: byId(after.realm_users),
    realm_non_active_users: byId(after.realm_non_active_users),
  });
});

t.test('a failed change emits no event and changes nothing', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  const before = await registerState(s, s.owner);
  await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { full_name: 'Okay Name', role: 7 } });
  await s.request('PATCH', `/users/${s.owner.user_id}`, { as: s.owner, params: { full_name: 'New Owner Name', role: 400 } });
  await s.request('POST', '/users', { as: member, params: { email: 'z@example.com', password: 'pw', full_name: 'Zed' } });
  const polled = await s.request('GET', '/events', { as: s.owner, params: { queue_id: before.queueId, last_event_id: before.lastEventId, dont_block: true } });
  t.same(polled.body.events, []);
  t.same((await registerState(s, s.owner)).state, before.state);
});
