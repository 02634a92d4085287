// How many bots one user may own (limits.botsPerUser, 10 by default; administrators have no limit)
// and who may create them (botCreationPolicy, Zulip's bot_creation_policy, told in /register as
// realm_can_create_bots_group and realm_can_create_write_only_bots_group). Over HTTP and in-process.
import t, { type Test } from 'tap';
import { bad, bothFail } from './assertions.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { botOf } from './bot_helpers.js';
import type { ChatOptions } from '../lib/index.js';

const ADMINS_ONLY = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
const tooMany = (limit: number) => bad(`Too many active bots (limit: ${limit} per user).`);

async function server(t: Test, options: ChatOptions & { socket?: boolean } = {}): Promise<TestServer> {
  const s = await startServer(options);
  t.teardown(() => s.close());
  return s;
}

const botsOwnedBy = (s: TestServer, ownerId: number): number =>
  s.db.prepare('SELECT count(*) FROM user WHERE bot_owner_id = ? AND is_active = 1').pluck().get(ownerId) as number;

t.test('a member owns at most 10 active bots by default: the 11th is refused and nothing is written', async (t) => {
  const s = await server(t);
  const member = await s.user('member');
  for (let i = 0; i < 10; i += 1) await botOf(s, member, `default-${i}`);
  const events = s.db.prepare('SELECT count(*) FROM event').pluck().get();
  await bothFail(
    t,
    () => s.request('POST', '/bots', { as: member, params: { full_name: 'Eleventh', short_name: 'eleventh' } }),
    () => s.chat.api.users.createBot(member.user_id, { fullName: 'Eleventh', shortName: 'eleventh' }),
    tooMany(10),
  );
  t.equal(botsOwnedBy(s, member.user_id), 10);
  t.equal(s.db.prepare("SELECT count(*) FROM user WHERE email LIKE 'eleventh-bot@%'").pluck().get(), 0, 'no account made');
  t.equal(s.db.prepare('SELECT count(*) FROM event').pluck().get(), events, 'no event');
});

t.test('limits.botsPerUser sets the limit; deactivated bots do not count, and reactivating one over the limit is refused', async (t) => {
  const s = await server(t, { limits: { botsPerUser: 2 } });
  const member = await s.user('member');
  const admin = await s.user('admin');
  const first = await botOf(s, member, 'first');
  await botOf(s, member, 'second');
  await bothFail(
    t,
    () => s.request('POST', '/bots', { as: member, params: { full_name: 'Third', short_name: 'third' } }),
    () => s.chat.api.users.createBot(member.user_id, { fullName: 'Third', shortName: 'third' }),
    tooMany(2),
  );
  t.equal((await s.request('DELETE', `/bots/${first.user_id}`, { as: member })).status, 200);
  const third = await botOf(s, member, 'third');
  t.ok(third.user_id > 0, 'a deactivated bot gives its place back');
  await bothFail(
    t,
    () => s.request('POST', `/users/${first.user_id}/reactivate`, { as: member }),
    () => s.chat.api.users.reactivate(admin.user_id, { userId: first.user_id }),
    tooMany(2),
  );
  t.equal(botsOwnedBy(s, member.user_id), 2, 'by its owner or by an administrator: the limit is the owner\'s');
  s.chat.admin.reactivateUser(first.user_id);
  t.equal(botsOwnedBy(s, member.user_id), 3, 'the trusted chat.admin is not limited');
});

t.test('administrators have no limit', async (t) => {
  const s = await server(t, { limits: { botsPerUser: 1 } });
  const admin = await s.user('admin');
  for (let i = 0; i < 3; i += 1) await botOf(s, admin, `admin-${i}`);
  t.equal(botsOwnedBy(s, admin.user_id), 3);
});

t.test('concurrent creations cannot pass the limit together', async (t) => {
  const s = await server(t, { limits: { botsPerUser: 3 }, socket: true });
  const member = await s.user('member');
  const replies = await Promise.all(
    Array.from({ length: 12 }, (_, i) => s.request('POST', '/bots', { as: member, params: { full_name: `Racer ${i}`, short_name: `racer-${i}` } })),
  );
  t.equal(replies.filter((r) => r.status === 200).length, 3, 'three made');
  t.same(new Set(replies.filter((r) => r.status !== 200).map((r) => r.body.msg)), new Set(['Too many active bots (limit: 3 per user).']));
  t.equal(botsOwnedBy(s, member.user_id), 3);
});

t.test("botCreationPolicy 3: only administrators create bots (Zulip's BOT_CREATION_ADMINS_ONLY)", async (t) => {
  const s = await server(t, { botCreationPolicy: 3 });
  const member = await s.user('member');
  const admin = await s.user('admin');
  for (const botType of [1, 2, 3]) {
    await bothFail(
      t,
      () => s.request('POST', '/bots', { as: member, params: { full_name: `Kind ${botType}`, short_name: `kind-${botType}`, bot_type: botType } }),
      () => s.chat.api.users.createBot(member.user_id, { fullName: `Kind ${botType}`, shortName: `kind-${botType}`, botType }),
      ADMINS_ONLY,
    );
  }
  t.equal(botsOwnedBy(s, member.user_id), 0);
  await botOf(s, admin, 'allowed');
  t.equal(botsOwnedBy(s, admin.user_id), 1);
});

t.test('botCreationPolicy 2: members create incoming webhook bots only (Zulip: can_create_write_only_bots_group)', async (t) => {
  const s = await server(t, { botCreationPolicy: 2 });
  const member = await s.user('member');
  for (const botType of [1, 3]) {
    await bothFail(
      t,
      () => s.request('POST', '/bots', { as: member, params: { full_name: `Kind ${botType}`, short_name: `kind-${botType}`, bot_type: botType } }),
      () => s.chat.api.users.createBot(member.user_id, { fullName: `Kind ${botType}`, shortName: `kind-${botType}`, botType }),
      ADMINS_ONLY,
    );
  }
  const hook = await s.request('POST', '/bots', { as: member, params: { full_name: 'Hook', short_name: 'hook', bot_type: 2 } });
  t.equal(hook.status, 200, 'an incoming webhook bot');
});

const groups = (ids: number[]) => ({ direct_members: ids, direct_subgroups: [] });

async function botGroups(s: TestServer, user: TestUser): Promise<{ all: unknown; writeOnly: unknown; queue: Record<string, any> }> {
  const state = await s.request('POST', '/register', { as: user, params: { fetch_event_types: ['realm'], event_types: ['realm'] } });
  return { all: state.body.realm_can_create_bots_group, writeOnly: state.body.realm_can_create_write_only_bots_group, queue: state.body };
}

t.test("/register tells each user whether they may create bots, as Zulip's can_create_bots_group and can_create_write_only_bots_group", async (t) => {
  for (const policy of [undefined, 1, 2, 3] as const) {
    const s = await server(t, policy === undefined ? {} : { botCreationPolicy: policy });
    const [member, admin, guest] = [await s.user('member'), await s.user('admin'), await s.user('guest')];
    const bot = await botOf(s, admin, 'asker');
    const label = `policy ${policy ?? 'unset'}`;
    const members = policy === undefined || policy === 1;
    t.same(await botGroups(s, member).then(({ all, writeOnly }) => [all, writeOnly]), [groups(members ? [member.user_id] : []), groups(policy === 3 ? [] : [member.user_id])], `${label}: a member`);
    t.same(await botGroups(s, admin).then(({ all, writeOnly }) => [all, writeOnly]), [groups([admin.user_id]), groups([admin.user_id])], `${label}: an administrator`);
    t.same(await botGroups(s, guest).then(({ all, writeOnly }) => [all, writeOnly]), [groups([]), groups([])], `${label}: a guest`);
    t.same(await botGroups(s, bot).then(({ all, writeOnly }) => [all, writeOnly]), [groups([]), groups([])], `${label}: a bot`);
  }
});

t.test('a role change that changes what a user may create sends them a realm update_dict event; their state stays current', async (t) => {
  const s = await server(t, { botCreationPolicy: 3 });
  const member = await s.user('member');
  const before = await botGroups(s, member);
  t.same(before.all, groups([]));
  t.equal((await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { role: 200 } })).status, 200);
  // Every role change also tells everyone who may delete messages (lib/domain/message_delete_settings.ts).
  const botEvents = (list: Record<string, any>[]) => list.filter((e) => e.data?.can_create_bots_group !== undefined);
  const events = botEvents((await s.request('GET', '/events', { as: member, params: { queue_id: before.queue.queue_id, last_event_id: -1, dont_block: true } })).body.events);
  t.same(events.map(({ id: _id, ...e }) => e), [
    { type: 'realm', op: 'update_dict', property: 'default', data: { can_create_bots_group: groups([member.user_id]), can_create_write_only_bots_group: groups([member.user_id]) } },
  ]);
  const after = await botGroups(s, member);
  t.same([after.all, after.writeOnly], [events[0]!.data.can_create_bots_group, events[0]!.data.can_create_write_only_bots_group], 'the event applied equals a fresh /register');
  const other = await s.user('member');
  const otherBefore = await botGroups(s, other);
  t.equal((await s.request('PATCH', `/users/${other.user_id}`, { as: s.owner, params: { role: 300 } })).status, 200, 'member to moderator: nothing changes');
  const none = botEvents((await s.request('GET', '/events', { as: other, params: { queue_id: otherBefore.queue.queue_id, last_event_id: -1, dont_block: true } })).body.events);
  t.same(none, []);
});
