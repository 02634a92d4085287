// PATCH /settings (Zulip's json_change_settings): the stored settings, their checks and messages,
// the user_settings events and /register's user_settings; full name and password changes; typing
// notifications honouring the typing settings. Over HTTP and in-process.
import t from 'tap';
import { bad, bothFail } from './assertions.js';
import { startServer, type TestServer } from './helpers.js';
import { camelize, ok, poll, register } from './messaging_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

const settingsOf = async (user: { user_id: number }) => (await register(s, user as never, { event_types: ['user_settings'] })).user_settings as Record<string, unknown>;

t.test('stored settings show in /register and send user_settings events', async (t) => {
  const me = await s.user('member');
  const queue = await register(s, me, { event_types: ['user_settings', 'realm_user'] });
  t.match(queue.user_settings, { twenty_four_hour_time: false, emojiset: 'google', default_language: 'en', starred_message_counts: true, emojiset_choices: [{ key: 'google' }] });
  const change = {
    twenty_four_hour_time: true,
    emojiset: 'twitter',
    starred_message_counts: false,
    display_emoji_reaction_users: false,
    send_read_receipts: false,
    web_home_view: 'recent_topics',
    web_font_size_px: 18,
    color_scheme: 2,
    enable_desktop_notifications: false,
    notification_sound: 'ding',
    default_language: 'de',
    timezone: 'Europe/Paris',
    enable_drafts_synchronization: false,
  };
  ok(t, await s.request('PATCH', '/settings', { as: me, params: change }));
  t.match(await settingsOf(me), change, 'the new values');
  const events = await poll(s, me, queue);
  const settingEvents = events.filter((e) => e.type === 'user_settings');
  t.same(Object.fromEntries(settingEvents.map((e) => [e.property, e.value])), change, 'one event per changed setting');
  t.equal(settingEvents.length, Object.keys(change).length);
  t.equal(settingEvents.find((e) => e.property === 'default_language')!.language_name, 'Deutsch', 'default_language names the language');
  t.match(events.find((e) => e.type === 'realm_user'), { op: 'update', person: { user_id: me.user_id, timezone: 'Europe/Paris' } });
  ok(t, await s.request('PATCH', '/settings', { as: me, params: { emojiset: 'twitter', twenty_four_hour_time: true } }));
  t.same((await poll(s, me, { ...queue, last_event_id: events.at(-1)!.id })).length, 0, 'unchanged values send nothing');
  ok(t, await s.request('PATCH', '/settings', { as: me, params: { emojiset: 'google' } }));
  t.equal((await settingsOf(me)).emojiset, 'google', 'back to the default');
  t.same(s.chat.api.userSettings.update(me.user_id, camelize({ twenty_four_hour_time: false })), {}, 'in-process');
  t.equal((await settingsOf(me)).twenty_four_hour_time, false);
});

t.test("Zulip's validation errors", async (t) => {
  const me = await s.user('member');
  const cases: [Record<string, unknown>, string][] = [
    [{ emojiset: 'apple' }, 'Invalid emojiset'],
    [{ web_home_view: 'nowhere' }, 'Invalid web_home_view'],
    [{ color_scheme: 7 }, 'Invalid color_scheme'],
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ notification_sound: 'honk' }, "Invalid notification sound 'honk'"],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    [{ timezone: 'Mars/Olympus' }, 'timezone is not a recognized time zone'],
    [{ timezone: 'europe/paris' }, 'timezone is not a recognized time zone'],
    [{ full_name: 'x' }, 'Name too short!'],
    [{ full_name: 'a@b' }, 'Invalid characters in name!'],
    [{ email: 'new@example.com' }, 'This server does not send email, so it cannot confirm a new email address.'],
    [{ new_password: 'a-new-password', old_password: 'wrong' }, 'Wrong password!'],
  ];
  for (const [params, msg] of cases) {
    await bothFail(
      t,
      () => s.request('PATCH', '/settings', { as: me, params: { ...params, twenty_four_hour_time: true } }),
      () => s.chat.api.userSettings.update(me.user_id, { ...camelize(params), twentyFourHourTime: true } as never),
      bad(msg),
    );
  }
  t.equal((await settingsOf(me)).twenty_four_hour_time, false, 'a failed request changed nothing');
  ok(t, await s.request('PATCH', '/settings', { as: me, params: { email: me.email, timezone: 'US/Eastern' } }), 'the same email, a time zone alias');
});

t.test('full name and password', async (t) => {
  const me = await s.user('member', { password: 'first-password' });
  const other = await s.user('member');
  const queue = await register(s, other, { event_types: ['realm_user'] });
  ok(t, await s.request('PATCH', '/settings', { as: me, params: { full_name: '  Renamed Person ' } }));
  t.match(await poll(s, other, queue), [{ type: 'realm_user', op: 'update', person: { user_id: me.user_id, full_name: 'Renamed Person' } }]);
  await bothFail(
    t,
    () => s.request('PATCH', '/settings', { as: me, params: { old_password: 'first-password', new_password: 'short' } }),
    () => s.chat.api.userSettings.update(me.user_id, { oldPassword: 'first-password', newPassword: 'short' }),
    bad('New password is too weak!'),
  );
  ok(t, await s.request('PATCH', '/settings', { as: me, params: { old_password: 'first-password', new_password: 'second-password' } }));
  const login = await s.request('POST', '/fetch_api_key', { params: { username: me.email, password: 'second-password' } });
  t.equal(login.status, 200, 'the new password logs in');
  t.equal((await s.request('POST', '/fetch_api_key', { params: { username: me.email, password: 'first-password' } })).status, 401, 'the old one does not');
});

t.test('typing notifications honour the typing settings', async (t) => {
  const alice = await s.user('member');
  const bob = await s.user('member');
  ok(t, await s.request('PATCH', '/settings', { as: alice, params: { send_private_typing_notifications: false, send_stream_typing_notifications: false } }));
  await bothFail(
    t,
    () => s.request('POST', '/typing', { as: alice, params: { op: 'start', to: [bob.user_id] } }),
    () => s.chat.api.typing.send(alice.user_id, { op: 'start', to: [bob.user_id] }),
    bad('User has disabled typing notifications for direct messages'),
  );
  await bothFail(
    t,
    () => s.request('POST', '/typing', { as: alice, params: { op: 'start', type: 'channel', stream_id: 1, topic: 'x' } }),
    () => s.chat.api.typing.send(alice.user_id, { op: 'start', type: 'channel', streamId: 1, topic: 'x' }),
    bad('User has disabled typing notifications for channel messages'),
  );
  ok(t, await s.request('PATCH', '/settings', { as: bob, params: { receives_typing_notifications: false } }));
  const queue = await register(s, bob, { event_types: ['typing'] });
  ok(t, await s.request('POST', '/typing', { as: s.owner, params: { op: 'start', to: [bob.user_id] } }));
  t.same(await poll(s, bob, queue), [], 'a user who receives no typing notifications gets none');
});
