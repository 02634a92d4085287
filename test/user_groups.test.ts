// User groups: POST /user_groups/create, GET /user_groups, POST /user_groups/{id}/members over
// HTTP and in-process, Zulip's name and member rules, who may change members, user_group events;
// the role-based system groups (members by role, kept current by user_group events).
import t, { type Test } from 'tap';
import { startServer } from './helpers.js';
import { bad, bothFail, ok } from './messaging_helpers.js';
import { eventsApply } from './messaging_events.js';

/** The groups users made (GET /user_groups also lists the system groups). */
function made<T extends { is_system_group: boolean }>(groups: readonly T[]): T[] {
  return groups.filter((group) => !group.is_system_group);
}

async function world(t: Test) {
  const s = await startServer();
  t.teardown(() => s.close());
  const admin = await s.user('admin');
  const member = await s.user('member');
  const other = await s.user('member');
  const guest = await s.user('guest');
  const bot = await s.user('member', { bot: true });
  return { s, admin, member, other, guest, bot };
}

t.test('POST /user_groups/create returns group_id; GET /user_groups lists groups with their members', async (t) => {
  const { s, member, other } = await world(t);
  const body = ok(t, await s.request('POST', '/user_groups/create', { as: member, params: { name: 'backend', description: 'Backend team', members: [other.user_id, member.user_id] } }));
  t.type(body.group_id, 'number');
  const inProcess = s.chat.api.userGroups.create(other.user_id, { name: 'frontend', description: '', members: [] });
  const list = ok(t, await s.request('GET', '/user_groups', { as: other })).user_groups;
  t.match(made(list), [
    { id: body.group_id, name: 'backend', description: 'Backend team', members: [member.user_id, other.user_id].sort((a, b) => a - b), direct_subgroup_ids: [], is_system_group: false, creator_id: member.user_id, deactivated: false },
    { id: inProcess.group_id, name: 'frontend', members: [], creator_id: other.user_id },
  ]);
  t.same(s.chat.api.userGroups.list(member.user_id).user_groups, list, 'in-process list');
});

t.test('group names: not empty, at most 100 characters, no reserved prefix, unique case-insensitively', async (t) => {
  const { s, member } = await world(t);
  const cases: [string, string][] = [
    ['  ', "User group name can't be empty!"],
    ['g'.repeat(101), 'User group name cannot exceed 100 characters.'],
    ['@ops', "User group name cannot start with '@'."],
    ['role:ops', "User group name cannot start with 'role:'."],
    ['channel:ops', "User group name cannot start with 'channel:'."],
  ];
  for (const [name, msg] of cases) {
    await bothFail(
      t,
      () => s.request('POST', '/user_groups/create', { as: member, params: { name, description: '', members: [] } }),
      () => s.chat.api.userGroups.create(member.user_id, { name, description: '', members: [] }),
      bad(msg),
    );
  }
  ok(t, await s.request('POST', '/user_groups/create', { as: member, params: { name: 'ops', description: '', members: [] } }));
  await bothFail(
    t,
    () => s.request('POST', '/user_groups/create', { as: member, params: { name: 'Ops', description: '', members: [] } }),
    () => s.chat.api.userGroups.create(member.user_id, { name: 'Ops', description: '', members: [] }),
    bad("User group 'Ops' already exists."),
  );
  await bothFail(
    t,
    () => s.request('POST', '/user_groups/create', { as: member, params: { name: 'x', description: 'd'.repeat(1025), members: [] } }),
    () => s.chat.api.userGroups.create(member.user_id, { name: 'x', description: 'd'.repeat(1025), members: [] }),
    bad('description is too long (limit: 1024 characters)'),
  );
});

t.test('members must be active users of the organization: Invalid user ID: N', async (t) => {
  const { s, member, other } = await world(t);
  await bothFail(
    t,
    () => s.request('POST', '/user_groups/create', { as: member, params: { name: 'g', description: '', members: [member.user_id, 500] } }),
    () => s.chat.api.userGroups.create(member.user_id, { name: 'g', description: '', members: [500] }),
    bad('Invalid user ID: 500'),
  );
  s.chat.admin.deactivateUser(other.user_id);
  await bothFail(
    t,
    () => s.request('POST', '/user_groups/create', { as: member, params: { name: 'g', description: '', members: [other.user_id] } }),
    () => s.chat.api.userGroups.create(member.user_id, { name: 'g', description: '', members: [other.user_id] }),
    bad(`Invalid user ID: ${other.user_id}`),
  );
  t.same(made(s.chat.api.userGroups.list(member.user_id).user_groups), [], 'nothing was created');
});

t.test('guests and bots may not use the user group endpoints (checked before the parameters)', async (t) => {
  const { s, guest, bot } = await world(t);
  for (const [method, path] of [['POST', '/user_groups/create'], ['GET', '/user_groups'], ['POST', '/user_groups/1/members']] as const) {
    isErrorBoth(t, await s.request(method, path, { as: guest }), 'Not allowed for guest users');
    isErrorBoth(t, await s.request(method, path, { as: bot }), 'This endpoint does not accept bot requests.');
  }
  await bothFail(t, () => s.request('GET', '/user_groups', { as: guest }), () => s.chat.api.userGroups.list(guest.user_id), bad('Not allowed for guest users'));
  await bothFail(t, () => s.request('GET', '/user_groups', { as: bot }), () => s.chat.api.userGroups.list(bot.user_id), bad('This endpoint does not accept bot requests.'));
});

function isErrorBoth(t: Test, reply: { status: number; body: Record<string, unknown> }, msg: string): void {
  t.equal(reply.status, 400);
  t.match(reply.body, { result: 'error', code: 'BAD_REQUEST', msg });
}

t.test('POST /user_groups/{id}/members adds and removes members with Zulip\'s checks', async (t) => {
  const { s, admin, member, other } = await world(t);
  const { group_id } = s.chat.api.userGroups.create(member.user_id, { name: 'team', description: '', members: [member.user_id] });
  const path = `/user_groups/${group_id}/members`;
  t.same(ok(t, await s.request('POST', path, { as: member, params: { add: [other.user_id] } })), { result: 'success', msg: '' });
  t.same(made(s.chat.api.userGroups.list(member.user_id).user_groups)[0]!.members, [member.user_id, other.user_id].sort((a, b) => a - b));
  await bothFail(t, () => s.request('POST', path, { as: member, params: { add: [other.user_id] } }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: group_id, add: [other.user_id] }), bad(`User ${other.user_id} is already a member of this group`));
  await bothFail(t, () => s.request('POST', path, { as: member, params: { delete: [admin.user_id] } }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: group_id, delete: [admin.user_id] }), bad(`There is no member '${admin.user_id}' in this user group`));
  await bothFail(t, () => s.request('POST', path, { as: member }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: group_id }), bad('Nothing to do. Specify at least one of "add" or "delete".'));
  await bothFail(t, () => s.request('POST', '/user_groups/999/members', { as: member, params: { add: [other.user_id] } }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: 999, add: [admin.user_id] }), bad('Invalid user group'));
  await bothFail(t, () => s.request('POST', path, { as: member, params: { add: [999] } }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: group_id, add: [999] }), bad('Invalid user ID: 999'));
  await bothFail(t, () => s.request('POST', path, { as: other, params: { add: [admin.user_id] } }), () => s.chat.api.userGroups.updateMembers(other.user_id, { userGroupId: group_id, add: [admin.user_id] }), bad('Insufficient permission'));
  t.same(s.chat.api.userGroups.updateMembers(admin.user_id, { userGroupId: group_id, add: [admin.user_id], delete: [other.user_id] }), {}, 'administrators may change any group');
  t.same(made(s.chat.api.userGroups.list(member.user_id).user_groups)[0]!.members, [admin.user_id, member.user_id].sort((a, b) => a - b));
});

t.test('user_group events match their schemas and applied to the state before equal a fresh register', async (t) => {
  const { s, admin, member, other, guest } = await world(t);
  let groupId = 0;
  const events = await eventsApply(t, s, [member, other, guest], async () => {
    groupId = ok(t, await s.request('POST', '/user_groups/create', { as: member, params: { name: 'crew', description: 'The crew', members: [other.user_id] } })).group_id;
    ok(t, await s.request('POST', `/user_groups/${groupId}/members`, { as: member, params: { add: [member.user_id, admin.user_id] } }));
    ok(t, await s.request('POST', `/user_groups/${groupId}/members`, { as: admin, params: { delete: [other.user_id] } }));
  });
  t.same(events.get(guest.user_id)!.map((e) => e.op), ['add', 'add_members', 'remove_members'], 'every user hears of groups');
  t.match(events.get(member.user_id)![1], { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [admin.user_id, member.user_id].sort((a, b) => a - b) });
});

t.test("the system groups: Zulip's role groups, nested, their direct members the active accounts of each role", async (t) => {
  const { s, admin, member, other, guest, bot } = await world(t);
  const moderator = await s.user('moderator');
  const groups = ok(t, await s.request('GET', '/user_groups', { as: member })).user_groups.filter((g: any) => g.is_system_group);
  const id = (name: string) => groups.find((g: any) => g.name === name)!.id;
  const byName = Object.fromEntries(groups.map((g: any) => [g.name, { members: g.members, subgroups: g.direct_subgroup_ids, creator_id: g.creator_id }]));
  t.same(byName, {
    'role:owners': { members: [s.owner.user_id], subgroups: [], creator_id: null },
    'role:administrators': { members: [admin.user_id], subgroups: [id('role:owners')], creator_id: null },
    'role:moderators': { members: [moderator.user_id], subgroups: [id('role:administrators')], creator_id: null },
    'role:fullmembers': { members: [], subgroups: [id('role:members')], creator_id: null },
    'role:members': { members: [member.user_id, other.user_id, bot.user_id].sort((a, b) => a - b), subgroups: [id('role:moderators')], creator_id: null },
    'role:everyone': { members: [guest.user_id], subgroups: [id('role:members')], creator_id: null },
    'role:internet': { members: [], subgroups: [id('role:everyone')], creator_id: null },
    'role:nobody': { members: [], subgroups: [], creator_id: null },
  });
  await bothFail(
    t,
    () => s.request('POST', `/user_groups/${id('role:members')}/members`, { as: s.owner, params: { add: [guest.user_id] } }),
    () => s.chat.api.userGroups.updateMembers(s.owner.user_id, { userGroupId: id('role:members'), add: [guest.user_id] }),
    bad('Insufficient permission'),
  );
  const sent = ok(t, await s.request('POST', '/messages', { as: member, params: { type: 'direct', to: JSON.stringify([other.user_id]), content: 'hi @*role:everyone*' } }));
  const flags = s.db.prepare('SELECT flags FROM user_message WHERE user_id = ? AND message_id = ?').pluck().get(other.user_id, sent.id) as number;
  t.equal(flags & 8, 0, 'a system group is not mentionable: nobody is mentioned');
});

t.test('system groups follow roles: an added, promoted, deactivated or reactivated account is one user_group event each, and the state after equals a fresh register', async (t) => {
  const { s, admin, member, other, guest } = await world(t);
  const events = await eventsApply(t, s, [member, guest], async () => {
    await s.user('member');
    ok(t, await s.request('PATCH', `/users/${other.user_id}`, { as: s.owner, params: { role: 200 } }));
    s.chat.admin.deactivateUser(admin.user_id);
    s.chat.admin.reactivateUser(admin.user_id);
  });
  const groupEvents = events.get(guest.user_id)!.filter((e) => e.type === 'user_group');
  t.same(
    groupEvents.map((e) => [e.op, e.user_ids.length]),
    [
      ['add_members', 1],
      ['remove_members', 1],
      ['add_members', 1],
      ['remove_members', 1],
      ['add_members', 1],
    ],
  );
});
