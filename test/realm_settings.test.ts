// PATCH /realm (Zulip's update_realm) for the organization's name and description: administrators
// only; each property that changes is answered "updated" and told to every active user in a
// realm update event, which applied to /register's realm_name and realm_description gives a fresh
// /register's; an unchanged one changes nothing; GET /server_settings renders the description.
// Over HTTP and in-process.
import t from 'tap';
import { startServer, type TestUser } from './helpers.js';
import { bothFail, ok, poll, register } from './messaging_helpers.js';

const s = await startServer();
t.teardown(() => s.close());
const api = s.chat.api;
const notAdmin = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
const patch = (as: TestUser, params: Record<string, unknown>) => s.request('PATCH', '/realm', { as, params });
const REALM_KEYS = ['realm_name', 'realm_description'] as const;
const pick = (state: Record<string, any>) => Object.fromEntries(REALM_KEYS.map((k) => [k, state[k]]));

t.test('an administrator renames the organization and describes it: every active user is told, once per property', async (t) => {
  const [admin, member, guest, bot] = [await s.user('admin'), await s.user('member'), await s.user('guest'), await s.user('member', { bot: true })];
  const watchers = [s.owner, admin, member, guest, bot];
  const queues = new Map<number, Record<string, any>>();
  for (const user of watchers) queues.set(user.user_id, await register(s, user, { event_types: ['realm'], fetch_event_types: ['realm'] }));

  const answer = ok(t, await patch(admin, { name: 'Acme Corp', description: 'We **make** things <script>' }));
  t.same({ name: answer.name, description: answer.description }, { name: 'updated', description: 'updated' }, "Zulip's answer: each property that changed");

  for (const user of watchers) {
    const queue = queues.get(user.user_id)!;
    const events = (await poll(s, user, queue)).filter((e) => e.type === 'realm');
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [
        { type: 'realm', op: 'update', property: 'name', value: 'Acme Corp' },
        { type: 'realm', op: 'update', property: 'description', value: 'We **make** things <script>' },
      ],
      `user ${user.user_id}: one event per property`,
    );
    // Zulip's apply_event: realm_<property> = value.
    const applied = { ...pick(queue) };
    for (const e of events) applied[`realm_${e.property}`] = e.value;
    const fresh = await register(s, user, { event_types: ['realm'], fetch_event_types: ['realm'] });
    t.same(applied, pick(fresh), `user ${user.user_id}: the events applied to the state before equal a fresh /register`);
    t.same(pick(fresh), { realm_name: 'Acme Corp', realm_description: 'We **make** things <script>' }, '/register gives the Markdown');
  }
  const stored = s.db.prepare("SELECT count(*) FROM event WHERE type = 'realm' AND payload LIKE '%Acme Corp%'").pluck().get();
  t.equal(stored, 1, 'one event row for the name, for every recipient');

  const settings = ok(t, await s.request('GET', '/server_settings'));
  t.equal(settings.realm_name, 'Acme Corp');
  t.equal(settings.realm_description, '<p>We <strong>make</strong> things &lt;script&gt;</p>', 'GET /server_settings renders it (escaped, as a message)');
});

t.test('a value equal to the current one changes nothing and tells no one; no property, no change', async (t) => {
  const admin = await s.user('admin');
  ok(t, await patch(admin, { name: 'Same Name', description: 'Same' }));
  const queue = await register(s, s.owner, { event_types: ['realm'] });
  const answer = ok(t, await patch(admin, { name: 'Same Name', description: 'Changed' }));
  t.notOk('name' in answer, 'the unchanged name is not in the answer');
  t.equal(answer.description, 'updated');
  t.same(api.realm.update(admin.user_id, {}), {}, 'in-process: nothing asked, nothing changed');
  t.same(api.realm.update(s.owner.user_id, { name: 'Same Name' }), {});
  const events = (await poll(s, s.owner, queue)).filter((e) => e.type === 'realm');
  t.same(events.map((e) => e.property), ['description'], 'an event for the description only');
  t.same(api.realm.update(s.owner.user_id, { name: 'In Process' }), { name: 'updated' }, 'owners too, in-process');
});

t.test('an empty string is a value as in Zulip (only a maximum length): the description removed, even the name emptied', async (t) => {
  t.same(ok(t, await patch(s.owner, { description: '' })).description, 'updated');
  t.equal(ok(t, await s.request('GET', '/server_settings')).realm_description, '', 'no description: empty');
  const before = ok(t, await s.request('GET', '/server_settings')).realm_name;
  t.same(ok(t, await patch(s.owner, { name: '' })).name, 'updated');
  t.equal(ok(t, await s.request('GET', '/server_settings')).realm_name, '');
  ok(t, await patch(s.owner, { name: before }));
});

t.test('only administrators (bots with the member role included) may change them', async (t) => {
  for (const role of ['moderator', 'member', 'guest'] as const) {
    const user = await s.user(role);
    await bothFail(t, () => patch(user, { name: 'Mine now' }), () => api.realm.update(user.user_id, { name: 'Mine now' }), notAdmin);
  }
  const bot = await s.user('member', { bot: true });
  await bothFail(t, () => patch(bot, { name: 'Bots rule' }), () => api.realm.update(bot.user_id, { name: 'Bots rule' }), notAdmin);
  t.equal(ok(t, await s.request('GET', '/server_settings')).realm_name, 'In Process', 'unchanged');
});

t.test("Zulip's limits: a name of at most 40 characters, a description of at most 1,000", async (t) => {
  ok(t, await patch(s.owner, { name: 'n'.repeat(40), description: 'd'.repeat(1000) }));
  const tooLong = (name: string, limit: number) => ({ status: 400, code: 'BAD_REQUEST', msg: `${name} is too long (limit: ${limit} characters)` });
  await bothFail(t, () => patch(s.owner, { name: 'n'.repeat(41) }), () => api.realm.update(s.owner.user_id, { name: 'n'.repeat(41) }), tooLong('name', 40));
  await bothFail(t, () => patch(s.owner, { description: 'd'.repeat(1001) }), () => api.realm.update(s.owner.user_id, { description: 'd'.repeat(1001) }), tooLong('description', 1000));
  t.equal(ok(t, await s.request('GET', '/server_settings')).realm_name, 'n'.repeat(40), 'nothing written');
});

t.test("Zulip's other organization settings are not parameters here: named back as ignored", async (t) => {
  const answer = ok(t, await patch(s.owner, { description: 'Ignored too?', default_language: 'de' }));
  t.same(answer.ignored_parameters_unsupported, ['default_language']);
  t.equal(answer.description, 'updated', 'the settings parley has still change');
});
