// Channel administration over HTTP and in-process: PATCH /streams/{id} (name, description,
// privacy), DELETE /streams/{id} (archiving), GET /streams/{id}/members, GET
// /users/{user_id}/subscriptions/{stream_id}, GET /streams/{id}/email_address; their events
// applied to the state before equal a fresh /register.
import t from 'tap';
import { channelSuite, INVALID, NOT_ADMIN } from './channel_helpers.js';
import type { TestUser } from './helpers.js';
import { bad, bothFail, isError, ok, poll, register, sendToStream, subscribe } from './messaging_helpers.js';
import { eventsApply } from './messaging_events.js';

const { s, admin, member, other, guest, channel } = await channelSuite(t, 'settings');
const api = s.chat.api;

const patch = (as: TestUser, id: number, params: Record<string, unknown>) => s.request('PATCH', `/streams/${id}`, { as, params });

t.test('PATCH /streams/{id}: renaming, Zulip’s rules and errors', async (t) => {
  const { id, name } = await channel([admin, member]);
  const taken = await channel([admin]);
  const update = (as: TestUser, params: Record<string, unknown>) => () => api.streams.update(as.user_id, { streamId: id, ...params });
  await bothFail(t, () => patch(admin, id, { new_name: ` ${name} ` }), update(admin, { newName: name }), bad('Channel already has that name.'));
  const exists = { status: 409, code: 'CHANNEL_ALREADY_EXISTS', msg: `Channel '${taken.name.toUpperCase()}' already exists` };
  await bothFail(t, () => patch(admin, id, { new_name: taken.name.toUpperCase() }), update(admin, { newName: taken.name.toUpperCase() }), exists);
  await bothFail(t, () => patch(admin, id, { new_name: '  ' }), update(admin, { newName: '  ' }), bad("Channel name can't be empty."));
  await bothFail(t, () => patch(admin, id, { new_name: 'x'.repeat(61) }), update(admin, { newName: 'x'.repeat(61) }), bad('Channel name too long (limit: 60 characters).'));
  await bothFail(t, () => patch(member, id, { new_name: 'mine' }), update(member, { newName: 'mine' }), NOT_ADMIN);
  await bothFail(t, () => patch(admin, 999_999, { new_name: 'nowhere' }), () => api.streams.update(admin.user_id, { streamId: 999_999, newName: 'nowhere' }), INVALID);

  const events = await eventsApply(t, s, [admin, member, other, guest], async () => {
    ok(t, await patch(admin, id, { new_name: name.toUpperCase() }), 'a change of case only');
    ok(t, await patch(admin, id, { new_name: `${name}-renamed` }));
  });
  t.match(events.get(other.user_id), [
    { type: 'stream', op: 'update', property: 'name', value: name.toUpperCase(), stream_id: id, name },
    { type: 'stream', op: 'update', property: 'name', value: `${name}-renamed`, stream_id: id, name: name.toUpperCase() },
  ], 'everyone who can see a public channel is told, with its old name');
  t.same(events.get(guest.user_id), [], 'not a guest who cannot see it');
  t.equal(api.streams.get(member.user_id, { streamId: id }).stream.name, `${name}-renamed`);
});

t.test('PATCH /streams/{id}: description, rendered; unsupported parameters are reported', async (t) => {
  const { id } = await channel([admin, member]);
  const events = await eventsApply(t, s, [admin, member], async () => {
    const reply = ok(t, await patch(admin, id, { description: 'Talk *here*\nplease', message_retention_days: 30 }));
    t.same(reply.ignored_parameters_unsupported, ['message_retention_days'], 'retention is not modelled');
  });
  t.match(events.get(member.user_id), [
    { type: 'stream', op: 'update', property: 'description', value: 'Talk *here* please', rendered_description: '<p>Talk <em>here</em> please</p>', stream_id: id },
  ]);
  const long = 'd'.repeat(1025);
  await bothFail(
    t,
    () => patch(admin, id, { description: long }),
    () => api.streams.update(admin.user_id, { streamId: id, description: long }),
    bad('description is too long (limit: 1024 characters)'),
  );
  ok(t, await patch(admin, id, { description: 'Talk *here* please' }), 'an unchanged description');
  t.same(await poll(s, member, await register(s, member)), [], 'sends nothing');
});

t.test('PATCH /streams/{id}: privacy; who can see the channel learns of it or forgets it', async (t) => {
  const { id, name } = await channel([admin, member]);
  await bothFail(
    t,
    () => patch(admin, id, { is_web_public: true }),
    () => api.streams.update(admin.user_id, { streamId: id, isWebPublic: true }),
    bad('Web-public channels are not enabled.'),
  );
  const events = await eventsApply(t, s, [admin, member, other, guest], async () => {
    ok(t, await patch(admin, id, { is_private: true }));
  });
  t.match(events.get(member.user_id), [{ type: 'stream', op: 'update', property: 'invite_only', value: true, history_public_to_subscribers: false, is_web_public: false }, { property: 'history_public_to_subscribers', value: false }]);
  t.match(events.get(other.user_id), [{ type: 'stream', op: 'delete', stream_ids: [id] }], 'a member not subscribed loses sight of it');
  isError(t, await s.request('GET', `/streams/${id}`, { as: other }), INVALID);

  await eventsApply(t, s, [admin, member], async () => {
    ok(t, await patch(admin, id, { history_public_to_subscribers: true }));
  });
  t.match(api.streams.get(member.user_id, { streamId: id }).stream, { invite_only: true, history_public_to_subscribers: true });

  const events2 = await eventsApply(t, s, [admin, member, other], async () => {
    ok(t, await patch(admin, id, { is_private: false, history_public_to_subscribers: false }));
  });
  t.match(events2.get(other.user_id), [{ type: 'stream', op: 'create', streams: [{ stream_id: id, name, invite_only: false, history_public_to_subscribers: true }] }, { property: 'invite_only', value: false }]);

  // Administrators not subscribed to a private channel may rename it but not change its privacy.
  const hidden = await channel([member], { invite_only: true });
  ok(t, await patch(admin, hidden.id, { description: 'seen by admins' }));
  await bothFail(t, () => patch(admin, hidden.id, { is_private: false }), () => api.streams.update(admin.user_id, { streamId: hidden.id, isPrivate: false }), INVALID);
  await bothFail(t, () => patch(other, hidden.id, { description: 'x' }), () => api.streams.update(other.user_id, { streamId: hidden.id, description: 'x' }), INVALID);
  t.equal(api.streams.get(member.user_id, { streamId: hidden.id }).stream.description, 'seen by admins', 'a failed request changed nothing');
});

t.test('DELETE /streams/{id}: archiving keeps the messages, refuses new ones, and leaves /register', async (t) => {
  const { id, name } = await channel([admin, member]);
  const messageId = await sendToStream(s, member, name, 'kept', 'before archiving');
  await bothFail(t, () => s.request('DELETE', `/streams/${id}`, { as: member }), () => api.streams.archive(member.user_id, { streamId: id }), NOT_ADMIN);
  const events = await eventsApply(t, s, [admin, member, other, guest], async () => {
    ok(t, await s.request('DELETE', `/streams/${id}`, { as: admin }));
  });
  t.match(events.get(other.user_id), [{ type: 'stream', op: 'delete', streams: [{ stream_id: id }], stream_ids: [id] }]);
  t.same(events.get(guest.user_id), []);
  const reply = await s.request('POST', '/messages', { as: member, params: { type: 'stream', to: name, topic: 'new', content: 'after' } });
  isError(t, reply, bad(`Not authorized to send to channel '${name}'`));
  t.equal(ok(t, await s.request('GET', `/messages/${messageId}`, { as: member })).message.content, '<p>before archiving</p>', 'its messages are kept');
  await bothFail(t, () => s.request('DELETE', `/streams/${id}`, { as: admin }), () => api.streams.archive(admin.user_id, { streamId: id }), bad('Channel is already deactivated'));
  await bothFail(t, () => patch(admin, id, { new_name: 'revived' }), () => api.streams.update(admin.user_id, { streamId: id, newName: 'revived' }), INVALID);
  t.notOk(api.streams.listSubscriptions(member.user_id, {}).subscriptions.some((sub: any) => sub.stream_id === id), 'GET /users/me/subscriptions leaves it out');
  t.ok(ok(t, await s.request('GET', '/streams', { as: admin, params: { exclude_archived: false, include_all: true } })).streams.some((c: any) => c.stream_id === id && c.is_archived), 'GET /streams lists it when asked');
  // Zulip's filter_stream_authorization: nobody, administrators included, subscribes to an archived channel.
  const subscriptions = JSON.stringify([{ name }]);
  await bothFail(
    t,
    () => s.request('POST', '/users/me/subscriptions', { as: admin, params: { subscriptions } }),
    () => api.streams.subscribe(admin.user_id, { subscriptions: [{ name }] }),
    bad(`Unable to access channel (${name}).`),
  );
  const lenient = ok(t, await s.request('POST', '/users/me/subscriptions', { as: admin, params: { subscriptions, authorization_errors_fatal: false } }));
  t.same([lenient.subscribed, lenient.unauthorized], [{}, [name]], 'without authorization_errors_fatal it is listed as unauthorized');
});

t.test('GET /streams/{id}/members and GET /users/{user_id}/subscriptions/{stream_id}', async (t) => {
  const open = await channel([member, other]);
  const closed = await channel([member], { invite_only: true });
  t.same(ok(t, await s.request('GET', `/streams/${open.id}/members`, { as: admin })).subscribers, [member.user_id, other.user_id]);
  t.same(api.streams.members(admin.user_id, { streamId: closed.id }), { subscribers: [member.user_id] }, 'administrators see private channels’ subscribers');
  await bothFail(t, () => s.request('GET', `/streams/${closed.id}/members`, { as: other }), () => api.streams.members(other.user_id, { streamId: closed.id }), INVALID);
  await bothFail(t, () => s.request('GET', `/streams/${open.id}/members`, { as: guest }), () => api.streams.members(guest.user_id, { streamId: open.id }), INVALID);

  const status = (as: TestUser, user: TestUser, id: number) => s.request('GET', `/users/${user.user_id}/subscriptions/${id}`, { as });
  t.same(ok(t, await status(other, member, open.id)).is_subscribed, true);
  t.same(api.streams.subscriptionStatus(other.user_id, { userId: admin.user_id, streamId: open.id }), { is_subscribed: false });
  await bothFail(t, () => status(other, member, closed.id), () => api.streams.subscriptionStatus(other.user_id, { userId: member.user_id, streamId: closed.id }), INVALID);
  await bothFail(
    t,
    () => s.request('GET', `/users/999999/subscriptions/${open.id}`, { as: other }),
    () => api.streams.subscriptionStatus(other.user_id, { userId: 999_999, streamId: open.id }),
    bad('No such user'),
  );
});

t.test('GET /streams/{id}/email_address: parley receives no email', async (t) => {
  const open = await channel([member]);
  const closed = await channel([member], { invite_only: true });
  const noEmail = bad('This server does not receive email, so channels have no email address.');
  await bothFail(t, () => s.request('GET', `/streams/${open.id}/email_address`, { as: other }), () => api.streams.emailAddress(other.user_id, { streamId: open.id }), noEmail);
  await bothFail(t, () => s.request('GET', `/streams/${closed.id}/email_address`, { as: admin }), () => api.streams.emailAddress(admin.user_id, { streamId: closed.id }), INVALID);
  await bothFail(t, () => s.request('GET', '/streams/999999/email_address', { as: admin }), () => api.streams.emailAddress(admin.user_id, { streamId: 999_999 }), INVALID);
});
