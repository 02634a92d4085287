// The user_status event: its payload (only what changed, with the server-filled emoji code and
// type), who receives it, and applying the events to /register state equals fetching it again.
import t from 'tap';
import { z } from 'zod';
import { startServer } from './helpers.js';
import { eventsSince, register, uploadEmoji } from './user_status_helpers.js';

const userStatusEvent = z
  .strictObject({
    type: z.literal('user_status'),
    id: z.int(),
    user_id: z.int(),
    away: z.boolean().optional(),
    status_text: z.string().optional(),
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.enum(['unicode_emoji', 'realm_emoji', 'service_extra_emoji', 'zulip_extra_emoji']).optional(),
  })
  .refine((e) => [e.emoji_name, e.emoji_code, e.reaction_type].every((v) => v === undefined) || [e.emoji_name, e.emoji_code, e.reaction_type].every((v) => v !== undefined), 'the emoji fields come together');

const userSettingsEvent = z.strictObject({
  type: z.literal('user_settings'),
  id: z.int(),
  op: z.literal('update'),
  property: z.literal('presence_enabled'),
  value: z.boolean(),
});

type Status = Record<string, unknown>;

/** What a client does with a user_status event (Zulip's web app): set or drop each field. */
function applyUserStatus(state: Record<string, Status>, event: Record<string, any>): void {
  const key = String(event.user_id);
  const status: Status = { ...state[key] };
  if ('away' in event) {
    if (event.away) status.away = true;
    else delete status.away;
  }
  if ('status_text' in event) {
    if (event.status_text) status.status_text = event.status_text;
    else delete status.status_text;
  }
  if ('emoji_name' in event) {
    for (const field of ['emoji_name', 'emoji_code', 'reaction_type']) {
      if (event.emoji_name) status[field] = event[field];
      else delete status[field];
    }
  }
  if (Object.keys(status).length > 0) state[key] = status;
  else delete state[key];
}

const s = await startServer();
t.teardown(() => s.close());
const admin = await s.user('admin');

t.test('the event carries only what changed, stripped, with the looked-up emoji code and type', async (t) => {
  const target = await s.user('member');
  const queue = await register(s, admin, ['user_status']);
  const set = (params: Record<string, unknown>) => s.request('POST', `/users/${target.user_id}/status`, { as: admin, params });
  await set({ status_text: '   in office  ' });
  await set({ emoji_name: 'car' });
  await set({ emoji_name: '', emoji_code: 'ignored' });
  await set({ status_text: '' });
  await set({ emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' });
  const events = await eventsSince(s, admin, queue);
  for (const event of events) t.ok(userStatusEvent.safeParse(event).success, `schema: ${JSON.stringify(event)}`);
  const payloads = events.map(({ id: _id, ...rest }) => rest);
  const base = { type: 'user_status', user_id: target.user_id };
  t.same(payloads, [
    { ...base, status_text: 'in office' },
    { ...base, emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    { ...base, emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' },
    { ...base, status_text: '' },
    { ...base, emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' },
  ]);
});

t.test('every user receives it: members, guests, bots and the target', async (t) => {
  const target = await s.user('member');
  const watchers = [await s.user('member'), await s.user('guest'), await s.user('member', { bot: true }), target];
  const queues = await Promise.all(watchers.map((w) => register(s, w, ['user_status'])));
  s.chat.api.userStatus.update(admin.user_id, { userId: target.user_id, statusText: 'seen by all' });
  for (const [i, watcher] of watchers.entries()) {
    const events = await eventsSince(s, watcher, queues[i]!);
    t.same(events.map((e) => e.status_text), ['seen by all'], `user ${watcher.user_id}`);
  }
});

t.test('away: the user_status event says it, and the user alone gets a user_settings event', async (t) => {
  const member = await s.user('member');
  const other = await s.user('member');
  const own = await register(s, member, ['user_status', 'user_settings']);
  const theirs = await register(s, other, ['user_status', 'user_settings']);
  await s.request('POST', '/users/me/status', { as: member, params: { away: true, status_text: 'gone' } });
  const events = await eventsSince(s, member, own);
  t.same(events.map((e) => e.type), ['user_settings', 'user_status']);
  t.ok(userSettingsEvent.safeParse(events[0]).success, 'user_settings schema');
  t.equal(events[0]!.value, false, 'presence_enabled is now false');
  t.ok(userStatusEvent.safeParse(events[1]).success, 'user_status schema');
  t.same({ away: events[1]!.away, status_text: events[1]!.status_text }, { away: true, status_text: 'gone' });
  t.same((await eventsSince(s, other, theirs)).map((e) => e.type), ['user_status'], 'others only see the status');
});

t.test('a refused update sends no event', async (t) => {
  const target = await s.user('member');
  const queue = await register(s, admin, ['user_status']);
  await s.request('POST', `/users/${target.user_id}/status`, { as: admin, params: { status_text: 'x', emoji_name: 'invalid' } });
  await s.request('POST', `/users/${target.user_id}/status`, { as: admin, params: { status_text: 'a'.repeat(61) } });
  t.same(await eventsSince(s, admin, queue), []);
});

t.test('applying the user_status events to the /register state equals a fresh /register', async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const observer = await server.user('member');
  const [a, b, c] = [await server.user('member'), await server.user('member'), await server.user('member')];
  await server.request('POST', `/users/${c.user_id}/status`, { as: server.owner, params: { status_text: 'before' } });
  const before = await register(server, observer, ['user_status']);
  t.same(before.user_status, { [String(c.user_id)]: { status_text: 'before' } }, 'initial state');
  t.equal((await uploadEmoji(server, server.owner, 'parrot')).status, 200);
  const steps: [typeof a, Record<string, unknown>, boolean][] = [
    [a, { status_text: 'Lunch', emoji_name: 'car' }, false],
    [b, { emoji_name: 'parrot' }, false],
    [a, { status_text: '' }, false],
    [c, { status_text: '' }, false],
    [b, { away: true }, true],
    [a, { emoji_name: '' }, false],
    [b, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', status_text: ' x ' }, false],
    [b, { away: false, emoji_name: '' }, true],
    [c, { away: true }, true],
  ];
  for (const [user, params, own] of steps) {
    const reply = own
      ? await server.request('POST', '/users/me/status', { as: user, params })
      : await server.request('POST', `/users/${user.user_id}/status`, { as: server.owner, params });
    t.equal(reply.status, 200, JSON.stringify(params));
  }
  const state = structuredClone(before.user_status) as Record<string, Status>;
  for (const event of await eventsSince(server, observer, before)) {
    t.ok(userStatusEvent.safeParse(event).success, 'schema');
    applyUserStatus(state, event);
  }
  const after = await register(server, observer, ['user_status']);
  t.same(state, after.user_status);
  t.same(after.user_status, { [String(b.user_id)]: { status_text: 'x' }, [String(c.user_id)]: { away: true } }, 'the expected end state');
});

// The stored settings; the rest of Zulip's user_settings object (its defaults) is checked by
// test/register_flutter.test.ts and test/register_terminal.test.ts.
const userSettingsState = z.looseObject({
  presence_enabled: z.boolean(),
  enable_drafts_synchronization: z.boolean(),
  timezone: z.string(),
  email_address_visibility: z.int().min(1).max(5),
});

t.test('applying the user_settings events to the /register state equals a fresh /register', async (t) => {
  const member = await s.user('member');
  const before = await register(s, member, ['user_settings']);
  t.ok(userSettingsState.safeParse(before.user_settings).success, 'user_settings state schema');
  t.match(before.user_settings, { presence_enabled: true, enable_drafts_synchronization: true, timezone: '', email_address_visibility: 1 }, 'initial state');
  for (const params of [{ away: true }, { status_text: 'no setting changes' }, { away: false, status_text: '' }, { away: true }]) {
    t.equal((await s.request('POST', '/users/me/status', { as: member, params })).status, 200, JSON.stringify(params));
  }
  s.chat.api.userStatus.update(admin.user_id, { userId: member.user_id, statusText: 'set by an admin' });
  const state = structuredClone(before.user_settings) as Record<string, unknown>;
  const events = await eventsSince(s, member, before);
  t.equal(events.length, 3, 'one event per away sent');
  for (const event of events) {
    t.ok(userSettingsEvent.safeParse(event).success, 'user_settings event schema');
    state[event.property] = event.value;
  }
  const after = await register(s, member, ['user_settings']);
  t.same(state, after.user_settings);
  t.equal((after.user_settings as Record<string, unknown>).presence_enabled, false, 'the expected end state');
});
