// Email address visibility (Zulip's email_address_visibility user setting): the API email and
// delivery_email each viewer gets in user dictionaries, /register and messages; addressing users
// by email; PATCH /settings and its events. Over HTTP and in-process.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { bad, bothFail } from './assertions.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { eventsSince, register } from './user_status_helpers.js';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';

const DOMAIN = 'chat.acme.test';
const dummy = (user: { user_id: number }) => `user${user.user_id}@${DOMAIN}`;

const userSettingsUpdate = z.strictObject({
  type: z.literal('user_settings'),
  op: z.literal('update'),
  id: z.int(),
  property: z.literal('email_address_visibility'),
  value: z.int(),
});
const deliveryEmailUpdate = z.strictObject({
  type: z.literal('realm_user'),
  op: z.literal('update'),
  id: z.int(),
  person: z.strictObject({ user_id: z.int(), delivery_email: z.string().nullable() }),
});
const newEmailUpdate = z.strictObject({
  type: z.literal('realm_user'),
  op: z.literal('update'),
  id: z.int(),
  person: z.strictObject({ user_id: z.int(), new_email: z.string() }),
});

interface Org {
  s: TestServer;
  admin: TestUser;
  moderator: TestUser;
  member: TestUser;
  guest: TestUser;
  /** A member whose real email only administrators see (Zulip's default for new organizations). */
  hidden: TestUser;
}

async function org(t: Test): Promise<Org> {
  const s = await startServer({ realm: { url: `https://${DOMAIN}` } });
  t.teardown(() => s.close());
  return {
    s,
    admin: await s.user('admin'),
    moderator: await s.user('moderator'),
    member: await s.user('member'),
    guest: await s.user('guest'),
    hidden: await s.user('member', { emailAddressVisibility: 3 }),
  };
}

function userIn(list: Record<string, any>[], id: number): Record<string, any> {
  return list.find((user) => user.user_id === id)!;
}

t.test('a guest sees the dummy email and no delivery_email of an administrators-only user; an administrator sees the real one', async (t) => {
  const { s, admin, guest, member, hidden } = await org(t);
  for (const [viewer, delivery] of [
    [guest, null],
    [member, null],
    [admin, hidden.email],
  ] as const) {
    const expected = { email: dummy(hidden), delivery_email: delivery };
    t.match(userIn((await s.request('GET', '/users', { as: viewer })).body.members, hidden.user_id), expected, 'GET /users');
    t.match((await s.request('GET', `/users/${hidden.user_id}`, { as: viewer })).body.user, expected, 'GET /users/{id}');
    t.match(userIn((await register(s, viewer, ['realm_user'])).realm_users, hidden.user_id), expected, '/register realm_users');
    t.match(userIn(s.chat.api.users.list(viewer.user_id).members, hidden.user_id), expected, 'in-process list');
    t.match(s.chat.api.users.get(viewer.user_id, { userId: hidden.user_id }).user, expected, 'in-process get');
  }
  // A user who shows the email to everyone: the real email for all.
  t.match(userIn((await s.request('GET', '/users', { as: guest })).body.members, member.user_id), { email: member.email, delivery_email: member.email });
});

t.test('the user themself sees their real email as delivery_email and the dummy as email', async (t) => {
  const { s, hidden } = await org(t);
  t.match((await s.request('GET', '/users/me', { as: hidden })).body, { email: dummy(hidden), delivery_email: hidden.email });
  const state = await register(s, hidden, ['realm_user', 'user_settings']);
  t.match(state, { email: dummy(hidden), delivery_email: hidden.email, user_settings: { email_address_visibility: 3 } });
  t.match(s.chat.api.users.me(hidden.user_id), { email: dummy(hidden), delivery_email: hidden.email }, 'in-process');
});

t.test('each role sees what the setting allows: members, moderators, administrators, nobody', async (t) => {
  const { s, admin, moderator, member, guest } = await org(t);
  const seen = async (visibility: 1 | 2 | 3 | 4 | 5) => {
    const target = await s.user('member', { emailAddressVisibility: visibility });
    const viewers = [guest, member, moderator, admin];
    return Promise.all(viewers.map(async (viewer) => (await s.request('GET', `/users/${target.user_id}`, { as: viewer })).body.user.delivery_email !== null));
  };
  t.same(await seen(1), [true, true, true, true], 'everyone');
  t.same(await seen(2), [false, true, true, true], 'members');
  t.same(await seen(5), [false, false, true, true], 'moderators');
  t.same(await seen(3), [false, false, false, true], 'administrators');
  t.same(await seen(4), [false, false, false, false], 'nobody');
});

t.test('messages carry the API email: sender_email and display_recipient', async (t) => {
  const { s, guest, hidden } = await org(t);
  const sent = await s.request('POST', '/messages', { as: hidden, params: { type: 'direct', to: [guest.user_id], content: 'hi' } });
  t.equal(sent.status, 200);
  const fetched = await s.request('GET', `/messages/${sent.body.id}`, { as: guest });
  t.equal(fetched.body.message.sender_email, dummy(hidden));
  t.same(
    fetched.body.message.display_recipient.map((r: Record<string, unknown>) => r.email).sort(),
    [guest.email, dummy(hidden)].sort(),
  );
  t.notMatch(JSON.stringify(fetched.body), hidden.email, 'the real email appears nowhere');
  // A client cannot compute the gravatar from a dummy email: the URL comes with the message
  // (Zulip's MessageDict.finalize_payload), hashed from the real email, as GET /users gives it.
  const hiddenUser = (await s.request('GET', `/users/${hidden.user_id}`, { as: guest, params: { client_gravatar: false } })).body.user;
  t.match(fetched.body.message.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
  t.equal(fetched.body.message.avatar_url, hiddenUser.avatar_url, 'the same URL as GET /users gives');
  t.equal(s.chat.api.messages.get(guest.user_id, { messageId: sent.body.id }).message.avatar_url, hiddenUser.avatar_url, 'in-process too');
  const reply = await s.request('POST', '/messages', { as: guest, params: { type: 'direct', to: [hidden.user_id], content: 'hello' } });
  const fromGuest = await s.request('GET', `/messages/${reply.body.id}`, { as: hidden });
  t.equal(fromGuest.body.message.avatar_url, null, 'a sender whose email everyone sees: null, the client computes it');
});

t.test("a user is addressed by the dummy email, or by the real one only where the caller may see it", async (t) => {
  const { s, admin, guest, hidden } = await org(t);
  const send = (as: TestUser, to: string) => s.request('POST', '/messages', { as, params: { type: 'direct', to: [to], content: 'hi' } });
  t.equal((await send(guest, dummy(hidden))).status, 200, 'the dummy email works for everyone');
  t.equal((await send(admin, hidden.email)).status, 200, 'an administrator may use the real email');
  await bothFail(
    t,
    () => send(guest, hidden.email),
    () => s.chat.api.messages.send(guest.user_id, { type: 'direct', to: [hidden.email], content: 'hi' }),
    bad(`Invalid email '${hidden.email}'`),
  );
  const narrow = [{ operator: 'dm', operand: [hidden.email] }];
  await bothFail(
    t,
    () => s.request('GET', '/messages', { as: guest, params: { anchor: 'newest', num_before: 1, num_after: 0, narrow } }),
    () => s.chat.api.messages.list(guest.user_id, { anchor: 'newest', numBefore: 1, numAfter: 0, narrow }),
    { status: 400, code: 'BAD_NARROW', msg: `Invalid narrow operator: unknown user in ['${hidden.email}']` },
  );
});

t.test('PATCH /settings: an invalid value, and bots, are refused', async (t) => {
  const { s, member } = await org(t);
  for (const value of [0, 6, '"everyone"']) {
    await bothFail(
      t,
      () => s.request('PATCH', '/settings', { as: member, params: { email_address_visibility: value } }),
      () => s.chat.api.userSettings.update(member.user_id, { emailAddressVisibility: (typeof value === 'number' ? value : value) as never }),
      bad('Invalid email_address_visibility'),
    );
  }
  const bot = await s.user('member', { bot: true });
  t.match((await s.request('GET', '/users/me', { as: bot })).body, { email: bot.email, delivery_email: bot.email }, 'bots always show their email');
  await bothFail(
    t,
    () => s.request('PATCH', '/settings', { as: bot, params: { email_address_visibility: 4 } }),
    () => s.chat.api.userSettings.update(bot.user_id, { emailAddressVisibility: 4 }),
    bad('This endpoint does not accept bot requests.'),
  );
});

t.test("PATCH /settings: from administrators only to everyone, with Zulip's events", async (t) => {
  const { s, admin, guest, hidden } = await org(t);
  const queues = new Map<TestUser, Record<string, any>>();
  for (const user of [admin, guest, hidden]) queues.set(user, await register(s, user, ['realm_user', 'user_settings']));
  const reply = await s.request('PATCH', '/settings', { as: hidden, params: { email_address_visibility: 1 } });
  t.same([reply.status, reply.body.result], [200, 'success']);

  const own = await eventsSince(s, hidden, queues.get(hidden)!);
  t.match(own, [{ type: 'user_settings', property: 'email_address_visibility', value: 1 }, { type: 'realm_user', person: { new_email: hidden.email } }]);
  t.ok(userSettingsUpdate.safeParse(own[0]).success, 'user_settings event schema');
  const guests = await eventsSince(s, guest, queues.get(guest)!);
  t.match(guests, [{ person: { user_id: hidden.user_id, delivery_email: hidden.email } }, { person: { user_id: hidden.user_id, new_email: hidden.email } }]);
  t.ok(deliveryEmailUpdate.safeParse(guests[0]).success, 'delivery_email event schema');
  t.ok(newEmailUpdate.safeParse(guests[1]).success, 'new_email event schema');
  const admins = await eventsSince(s, admin, queues.get(admin)!);
  t.match(admins, [{ person: { new_email: hidden.email } }], 'an administrator saw the email already: only new_email');
  t.equal(admins.length, 1);

  t.match((await s.request('GET', `/users/${hidden.user_id}`, { as: guest })).body.user, { email: hidden.email, delivery_email: hidden.email });
  const again = await register(s, hidden, ['user_settings']);
  t.same(await eventsSince(s, hidden, again), [], 'setting the same value again sends nothing');
  t.equal((await s.request('PATCH', '/settings', { as: hidden, params: { email_address_visibility: 1 } })).status, 200);
  t.same(await eventsSince(s, hidden, again), []);
});

t.test('PATCH /settings in-process: to nobody hides the email from administrators too', async (t) => {
  const { s, admin, hidden } = await org(t);
  const queue = await register(s, admin, ['realm_user']);
  t.same(s.chat.api.userSettings.update(hidden.user_id, { emailAddressVisibility: 4 }), {});
  t.match(await eventsSince(s, admin, queue), [{ type: 'realm_user', op: 'update', person: { user_id: hidden.user_id, delivery_email: null } }]);
  t.match(s.chat.api.users.get(admin.user_id, { userId: hidden.user_id }).user, { email: dummy(hidden), delivery_email: null });
});

t.test('applying the events to the /register state equals a fresh /register, for every viewer', async (t) => {
  const { s, admin, moderator, guest, member, hidden } = await org(t);
  const viewers = [admin, moderator, guest, member, hidden];
  const states = new Map<TestUser, Record<string, any>>();
  for (const viewer of viewers) states.set(viewer, await register(s, viewer, ['realm_user', 'user_settings']));
  for (const visibility of [1, 5, 2, 4, 3, 1]) {
    t.equal((await s.request('PATCH', '/settings', { as: hidden, params: { email_address_visibility: visibility } })).status, 200);
  }
  await s.user('member', { fullName: 'Late Member', emailAddressVisibility: 2 });
  for (const viewer of viewers) {
    const before = states.get(viewer)!;
    const state = { realm_users: structuredClone(before.realm_users) as Record<string, any>[], email: before.email, user_settings: { ...before.user_settings } };
    for (const event of await eventsSince(s, viewer, before)) {
      if (event.type === 'user_settings') state.user_settings[event.property] = event.value;
      else if (event.op === 'add') state.realm_users.push(event.person);
      else {
        const user = userIn(state.realm_users, event.person.user_id);
        if ('new_email' in event.person) {
          user.email = event.person.new_email;
          if (event.person.user_id === viewer.user_id) state.email = event.person.new_email;
        }
        if ('delivery_email' in event.person) user.delivery_email = event.person.delivery_email;
      }
    }
    const after = await register(s, viewer, ['realm_user', 'user_settings']);
    t.same(state, { realm_users: after.realm_users, email: after.email, user_settings: after.user_settings }, `viewer ${viewer.user_id}`);
  }
});

t.test('a new user is announced with the real email only to who may see it', async (t) => {
  const { s, admin, guest } = await org(t);
  const queues = [await register(s, admin, ['realm_user']), await register(s, guest, ['realm_user'])];
  const added = await s.user('member', { emailAddressVisibility: 3 });
  t.match(await eventsSince(s, admin, queues[0]!), [{ op: 'add', person: { user_id: added.user_id, email: dummy(added), delivery_email: added.email } }]);
  t.match(await eventsSince(s, guest, queues[1]!), [{ op: 'add', person: { user_id: added.user_id, email: dummy(added), delivery_email: null } }]);
});

t.test("'X is no longer using Zulip' names a deactivated user by the API email", async (t) => {
  const { s, guest, hidden } = await org(t);
  s.chat.admin.deactivateUser(hidden.user_id);
  await bothFail(
    t,
    () => s.request('POST', '/messages', { as: guest, params: { type: 'direct', to: [hidden.user_id], content: 'hi' } }),
    () => s.chat.api.messages.send(guest.user_id, { type: 'direct', to: [hidden.user_id], content: 'hi' }),
    bad(`'${dummy(hidden)}' is no longer using Zulip.`),
  );
});

t.test("parley's default: new users show their email to administrators only, bots to everyone", async (t) => {
  const chat = createChatServer(new Database(':memory:'), { logger: silentLogger, realm: { url: `https://${DOMAIN}` } });
  t.teardown(() => chat.close());
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com' });
  const member = await chat.admin.addUser({ email: 'member@example.com', fullName: 'Member' });
  const bot = await chat.admin.addUser({ email: 'bot@example.com', fullName: 'A Bot', bot: true });
  const state = chat.api.events.register(member.user_id, { eventTypes: ['realm_user', 'user_settings', 'realm_user_settings_defaults'] }) as Record<string, any>;
  t.same(state.realm_user_settings_defaults, { email_address_visibility: 3 });
  t.equal(state.user_settings.email_address_visibility, 3);
  t.match(userIn(state.realm_users, owner.user_id), { email: dummy(owner), delivery_email: null });
  t.match(userIn(state.realm_users, bot.user_id), { email: 'bot@example.com', delivery_email: 'bot@example.com' });
  t.match(userIn(chat.api.users.list(owner.user_id).members, member.user_id), { email: dummy(member), delivery_email: 'member@example.com' });
});

t.test("GET /users/me: the API email follows a new organization URL at once (it is remembered with the callers)", async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const me = await server.user('member');
  t.equal((await server.request('PATCH', '/settings', { as: me, params: { email_address_visibility: 3 } })).status, 200);
  const before = await server.request('GET', '/users/me', { as: me });
  t.equal(before.body.email, `user${me.user_id}@parley.invalid`);
  // Another connection, as another process or a tool would.
  const other = new Database(join(server.dir, 'chat.db'));
  other.prepare('UPDATE realm SET url = ? WHERE id = 1').run('https://chat.example.org');
  other.close();
  const after = await server.request('GET', '/users/me', { as: me });
  t.equal(after.body.email, `user${me.user_id}@chat.example.org`);
  t.equal(after.body.delivery_email, me.email);
});
