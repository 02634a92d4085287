// Adding users in a big organization: chat.admin.addUsers (many at once: all checked first, then
// written in batches, each user joining the default channels with the events addUser sends) and
// a new user's realm_user add events, which name their readers by role rather than listing every
// user, so that adding one user writes the same few rows in any organization.
import t from 'tap';
import { IMPORT_BATCH_SIZE } from '../lib/domain/accounts.js';
import { startServer, withAuth, type TestServer, type TestUser } from './helpers.js';

type Queue = { queue_id: string; last_event_id: number };

async function poll(s: TestServer, user: TestUser, queue: Queue): Promise<any[]> {
  const reply = await s.request('GET', '/events', { as: user, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } });
  t.equal(reply.status, 200);
  return reply.body.events;
}

const register = async (s: TestServer, user: TestUser, eventTypes: string[]) =>
  (await s.request('POST', '/register', { as: user, params: { event_types: eventTypes } })).body as Queue & Record<string, any>;

const eventRows = (s: TestServer, type: string) => s.db.prepare('SELECT count(*) FROM event WHERE type = ?').pluck().get(type) as number;

t.test('addUsers: the users, in order, each in the default channels; readers get the events addUser sends', async (t) => {
  const s = await startServer({ defaultChannels: true });
  t.teardown(() => s.close());
  const member = await s.user('member');
  const before = await register(s, member, ['realm_user', 'subscription']);
  const added = await s.chat.admin.addUsers([
    { email: 'ann@example.com', fullName: 'Ann Imported' },
    { email: 'bob@example.com', fullName: 'Bob Imported', role: 'admin' },
    { email: 'cy@example.com', fullName: 'Cy Imported', role: 'guest' },
  ]);
  t.same(
    added.map((c) => c.email),
    ['ann@example.com', 'bob@example.com', 'cy@example.com'],
  );
  t.ok(added.every((c) => /^[A-Za-z0-9]{32}$/.test(c.api_key)));
  const me = await s.request('GET', '/users/me', { as: withAuth(added[1]!) });
  t.match(me.body, { user_id: added[1]!.user_id, role: 200, full_name: 'Bob Imported' }, 'each key works');
  for (const user of added) {
    t.same(
      (s.chat.api.streams.listSubscriptions(user.user_id, {}).subscriptions as { name: string }[]).map((sub) => sub.name),
      ['general', 'sandbox'],
    );
  }
  const events = await poll(s, member, before);
  t.same(
    events.filter((e) => e.type === 'realm_user').map((e) => [e.op, e.person.full_name, e.person.role]),
    [
      ['add', 'Ann Imported', 400],
      ['add', 'Bob Imported', 200],
      ['add', 'Cy Imported', 600],
    ],
  );
  t.same(
    events.filter((e) => e.type === 'subscription').map((e) => [e.op, e.user_ids]),
    [
      ['peer_add', added.map((c) => c.user_id)],
    ],
    'one peer_add for the batch, with both default channels',
  );
  const after = await register(s, member, ['realm_user']);
  t.same(
    after.realm_users.map((u: { user_id: number }) => u.user_id),
    [...before.realm_users.map((u: { user_id: number }) => u.user_id), ...added.map((c) => c.user_id)],
  );
});

t.test('addUsers: a refused entry, named by its place, adds no one', async (t) => {
  const s = await startServer({ defaultChannels: true });
  t.teardown(() => s.close());
  const count = () => s.db.prepare('SELECT count(*) FROM user').pluck().get();
  const users = count();
  const refusals: [object[], string][] = [
    [[{ email: 'a@example.com', fullName: 'Ann A' }, { email: 'not-an-email', fullName: 'Bob B' }], "User 2: Invalid email 'not-an-email'"],
    [[{ email: 'a@example.com', fullName: 'A' }], 'User 1: Name too short!'],
    [[{ email: 'a@example.com', fullName: 'Ann A' }, { email: 'A@example.com', fullName: 'Ann B' }], "User 2: Email 'A@example.com' is listed twice"],
    [[{ email: 'owner@example.com', fullName: 'Ann A' }], "User 1: Email 'owner@example.com' already in use"],
    [[{ email: 'a@example.com', fullName: 'Ann A', role: 'boss' }], 'User 1: unknown role: boss'],
  ];
  for (const [input, message] of refusals) {
    await t.rejects(s.chat.admin.addUsers(input as never), { message }, message);
  }
  t.equal(count(), users, 'no user was added');
});

t.test('addUsers: more users than one batch, each batch with one peer_add and one subscription add', async (t) => {
  const s = await startServer({ defaultChannels: true });
  t.teardown(() => s.close());
  const n = IMPORT_BATCH_SIZE + 5;
  const peerAdds = eventRows(s, 'subscription');
  const userAdds = eventRows(s, 'realm_user');
  const added = await s.chat.admin.addUsers(Array.from({ length: n }, (_, i) => ({ email: `u${i}@example.com`, fullName: `User ${i}` })));
  t.equal(added.length, n);
  t.equal(s.db.prepare("SELECT subscriber_count FROM stream WHERE name = 'general'").pluck().get(), n + 1, 'the count follows');
  t.equal(eventRows(s, 'subscription') - peerAdds, 4, 'per batch: one peer_add and one subscription add');
  t.equal(eventRows(s, 'realm_user') - userAdds, n, 'per user: one realm_user add (real emails are shown to everyone here)');
});

t.test("a new user's realm_user add: two short rows, the real email to those its visibility allows, and the user; its system group's add_members: one short row", async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const viewers = { owner: s.owner, admin: await s.user('admin'), moderator: await s.user('moderator'), member: await s.user('member'), guest: await s.user('guest') };
  const queues = new Map<TestUser, Queue>();
  for (const viewer of Object.values(viewers)) queues.set(viewer, await register(s, viewer, ['realm_user']));
  const rows = s.db.prepare('SELECT max(id) FROM event').pluck().get() as number;
  const moderatorsOnly = await s.user('member', { emailAddressVisibility: 5 });
  t.same(
    s.db.prepare('SELECT user_id, recipients, audience, type FROM event WHERE id > ? ORDER BY id').raw().all(rows),
    [
      [null, `,${moderatorsOnly.user_id},`, '{"maxRole":300}', 'realm_user'],
      [null, null, `{"roleAbove":300,"except":[${moderatorsOnly.user_id}]}`, 'realm_user'],
      [null, null, null, 'user_group'],
    ],
  );
  const members = s.db.prepare("SELECT id FROM user_group WHERE name = 'role:members'").pluck().get();
  t.same(JSON.parse(s.db.prepare('SELECT payload FROM event WHERE id > ? AND type = ?').pluck().get(rows, 'user_group') as string), {
    type: 'user_group',
    op: 'add_members',
    group_id: members,
    user_ids: [moderatorsOnly.user_id],
  });
  for (const [role, viewer] of Object.entries(viewers)) {
    const events = await poll(s, viewer, queues.get(viewer)!);
    const seen = ['owner', 'admin', 'moderator'].includes(role) ? moderatorsOnly.email : null;
    t.same(
      events.map((e) => [e.op, e.person.user_id, e.person.delivery_email]),
      [['add', moderatorsOnly.user_id, seen]],
      role,
    );
  }
});
