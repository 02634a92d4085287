// User groups: POST /user_groups/create, GET /user_groups, POST /user_groups/{id}/members over
// HTTP and in-process, Zulip's name and member rules, who may change members, user_group events.
import t, { type Test } from 'tap';
import { startServer } from './helpers.js';
import { bad, bothFail, ok } from './messaging_helpers.js';
import { eventsApply } from './messaging_events.js';

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
  t.match(list, [
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
  t.same(s.chat.api.userGroups.list(member.user_id).user_groups, [], 'nothing was created');
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
  t.same(s.chat.api.userGroups.list(member.user_id).user_groups[0]!.members, [member.user_id, other.user_id].sort((a, b) => a - b));
  await bothFail(t, () => s.request('POST', path, { as: member, params: { add: [other.user_id] } }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: group_id, add: [other.user_id] }), bad(`User ${other.user_id} is already a member of this group`));
  await bothFail(t, () => s.request('POST', path, { as: member, params: { delete: [admin.user_id] } }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: group_id, delete: [admin.user_id] }), bad(`There is no member '${admin.user_id}' in this user group`));
  await bothFail(t, () => s.request('POST', path, { as: member }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: group_id }), bad('Nothing to do. Specify at least one of "add" or "delete".'));
  await bothFail(t, () => s.request('POST', '/user_groups/999/members', { as: member, params: { add: [other.user_id] } }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: 999, add: [admin.user_id] }), bad('Invalid user group'));
  await bothFail(t, () => s.request('POST', path, { as: member, params: { add: [999] } }), () => s.chat.api.userGroups.updateMembers(member.user_id, { userGroupId: group_id, add: [999] }), bad('Invalid user ID: 999'));
  await bothFail(t, () => s.request('POST', path, { as: other, params: { add: [admin.user_id] } }), () => s.chat.api.userGroups.updateMembers(other.user_id, { userGroupId: group_id, add: [admin.user_id] }), bad('Insufficient permission'));
  t.same(s.chat.api.userGroups.updateMembers(admin.user_id, { userGroupId: group_id, add: [admin.user_id], delete: [other.user_id] }), {}, 'administrators may change any group');
  t.same(s.chat.api.userGroups.list(member.user_id).user_groups[0]!.members, [admin.user_id, member.user_id].sort((a, b) => a - b));
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
