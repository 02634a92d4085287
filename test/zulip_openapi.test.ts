// parley's answers validate against Zulip's OpenAPI document (FL 420) and against parley's own:
// success and error bodies of the server, user, event, channel, user group, message and message
// flag endpoints. The other endpoints are in test/zulip_openapi_features.test.ts; the validators
// are test/zulip_openapi.ts and test/parley_openapi.ts, the harness test/conformance.ts.
import t from 'tap';
import { startServer } from './helpers.js';
import { conformance, CORE_GROUPS } from './conformance.js';
import { zulipOpenApi } from './zulip_openapi.js';

const s = await startServer();
t.teardown(() => s.close());
const admin = await s.user('admin');
const member = await s.user('member', { password: 'member-password' });
const guest = await s.user('guest');
const api = conformance(s);
const me = { as: member };

t.test('the document loads and its schemas compile', async (t) => {
  const document = zulipOpenApi();
  t.ok(document.operation('POST', '/users/{user_id}/status'), 'the status operation is documented');
  t.ok(document.operation('POST', '/mobile_push/e2ee/test_notification'), 'so is the E2EE test notification (FL 420)');
});

t.test('server settings and fetch_api_key', async (t) => {
  await api.call(t, 'GET', '/server_settings', {}, 200);
  await api.call(t, 'POST', '/fetch_api_key', { params: { username: member.email, password: 'member-password' } }, 200);
  await api.call(t, 'POST', '/fetch_api_key', { params: { username: member.email, password: 'wrong' } }, 401);
  await api.call(t, 'POST', '/fetch_api_key', { params: { username: member.email } }, 400);
});

t.test('users', async (t) => {
  await api.call(t, 'GET', '/users/me', me, 200);
  await api.call(t, 'GET', '/users/me', {}, 401);
  await api.call(t, 'GET', '/users', me, 200);
  await api.call(t, 'GET', '/users', { as: { ...member, auth: 'Basic eDp5' } }, 401);
  await api.call(t, 'GET', `/users/${admin.user_id}`, me, 200);
  await api.call(t, 'GET', '/users/9999', me, 400);
  await api.call(t, 'GET', `/users/${encodeURIComponent(admin.email)}`, me, 200);
  const leaving = await s.user('member');
  await api.call(t, 'DELETE', '/users/me', { as: leaving }, 200);
  await api.call(t, 'DELETE', '/users/me', { as: s.owner }, 400);
  const created = await api.call(t, 'POST', '/users', { as: admin, params: { email: 'new@example.com', password: 'pw-123456', full_name: 'New Person' } }, 200);
  await api.call(t, 'POST', '/users', { as: member, params: { email: 'x@example.com', password: 'pw', full_name: 'X' } }, 400);
  await api.call(t, 'PATCH', `/users/${created.body.user_id}`, { as: admin, params: { full_name: 'Renamed Person' } }, 200);
  await api.call(t, 'PATCH', `/users/${created.body.user_id}`, { as: admin, params: { role: 12345 } }, 400);
  await api.call(t, 'DELETE', `/users/${created.body.user_id}`, { as: admin }, 200);
  await api.call(t, 'DELETE', '/users/9999', { as: admin }, 400);
  await api.call(t, 'POST', '/bots', { ...me, params: { full_name: 'Helper Bot', short_name: 'helper' } }, 200);
  await api.call(t, 'POST', '/bots', { ...me, params: { full_name: 'Helper Bot', short_name: 'helper' } }, 400);
  await api.call(t, 'POST', `/users/${created.body.user_id}/reactivate`, { as: admin }, 200);
  await api.call(t, 'POST', '/users/9999/reactivate', { as: admin }, 400);
  const rotating = await s.user('member');
  await api.call(t, 'POST', '/users/me/api_key/regenerate', { as: rotating }, 200);
  const bot = await s.user('member', { bot: true });
  await api.call(t, 'POST', '/users/me/api_key/regenerate', { as: bot }, 400);
  await api.call(t, 'POST', `/bots/${bot.user_id}/api_key/regenerate`, { as: admin }, 200);
  await api.call(t, 'POST', `/bots/${bot.user_id}/api_key/regenerate`, me, 400);
  await api.call(t, 'GET', '/bots', me, 200);
  await api.call(t, 'GET', '/bots', { as: await s.user('guest') }, 400);
  await api.call(t, 'PATCH', `/bots/${bot.user_id}`, { as: admin, params: { full_name: 'Renamed Bot' } }, 200);
  await api.call(t, 'PATCH', `/bots/${bot.user_id}`, { as: admin, params: { service_interface: 5 } }, 400);
  await api.call(t, 'DELETE', `/bots/${bot.user_id}`, { as: admin }, 200);
  await api.call(t, 'DELETE', '/bots/9999', { as: admin }, 400);
});

t.test('channels and subscriptions', async (t) => {
  await api.call(t, 'POST', '/users/me/subscriptions', { ...me, params: { subscriptions: [{ name: 'general' }, { name: 'design' }] } }, 200);
  await api.call(t, 'POST', '/users/me/subscriptions', { ...me, params: { subscriptions: 'general' } }, 400);
  await api.call(t, 'DELETE', '/users/me/subscriptions', { ...me, params: { subscriptions: ['design'] } }, 200);
  await api.call(t, 'DELETE', '/users/me/subscriptions', me, 400);
  await api.call(t, 'GET', '/users/me/subscriptions', me, 200);
  await api.call(t, 'GET', '/users/me/subscriptions', { ...me, params: { include_subscribers: 'true' } }, 200);
  await api.call(t, 'GET', '/users/me/subscriptions', { ...me, params: { include_subscribers: 'sometimes' } }, 400);
  await api.call(t, 'GET', '/streams', me, 200);
  await api.call(t, 'GET', '/streams', { ...me, params: { include_public: 'maybe' } }, 400);
  const id = (await api.call(t, 'GET', '/get_stream_id', { ...me, params: { stream: 'general' } }, 200)).body.stream_id as number;
  await api.call(t, 'GET', '/get_stream_id', { ...me, params: { stream: 'nowhere' } }, 400);
  await api.call(t, 'GET', `/streams/${id}`, me, 200);
  await api.call(t, 'GET', '/streams/9999', me, 400);
  await s.request('POST', '/messages', { ...me, params: { type: 'stream', to: 'general', topic: 'lunch', content: 'hi' } });
  await api.call(t, 'GET', `/users/me/${id}/topics`, me, 200);
  await api.call(t, 'GET', '/users/me/9999/topics', me, 400);
});

t.test('channel administration, subscription settings, default channels', async (t) => {
  await api.call(t, 'POST', '/users/me/subscriptions', { ...me, params: { subscriptions: [{ name: 'admin-1' }, { name: 'admin-2' }] } }, 200);
  const id = (await api.call(t, 'GET', '/get_stream_id', { ...me, params: { stream: 'admin-1' } }, 200)).body.stream_id as number;
  const other = (await api.call(t, 'GET', '/get_stream_id', { ...me, params: { stream: 'admin-2' } }, 200)).body.stream_id as number;
  await api.call(t, 'PATCH', `/streams/${id}`, { as: admin, params: { new_name: 'admin-one', description: 'A *channel*', is_private: false } }, 200);
  await api.call(t, 'PATCH', `/streams/${id}`, { as: admin, params: { new_name: 'admin-2' } }, 409);
  await api.call(t, 'PATCH', `/streams/${id}`, { ...me, params: { description: 'mine' } }, 400);
  await api.call(t, 'GET', `/streams/${id}/members`, me, 200);
  await api.call(t, 'GET', '/streams/9999/members', me, 400);
  await api.call(t, 'GET', `/streams/${id}/email_address`, me, 400);
  const data = (property: string, value: unknown) => ({ subscription_data: [{ stream_id: id, property, value }] });
  await api.call(t, 'POST', '/users/me/subscriptions/properties', { ...me, params: data('is_muted', true) }, 200);
  await api.call(t, 'POST', '/users/me/subscriptions/properties', { ...me, params: data('color', 'blue') }, 400);
  await api.call(t, 'GET', `/users/${member.user_id}/subscriptions/${id}`, me, 200);
  await api.call(t, 'GET', `/users/${member.user_id}/subscriptions/9999`, me, 400);
  await api.call(t, 'GET', '/default_streams', me, 200);
  await api.call(t, 'GET', '/default_streams', {}, 401);
  await api.call(t, 'POST', '/default_streams', { as: admin, params: { stream_id: other } }, 200);
  await api.call(t, 'POST', '/default_streams', { as: admin, params: { stream_id: 9999 } }, 400);
  await api.call(t, 'DELETE', '/default_streams', { as: admin, params: { stream_id: other } }, 200);
  await api.call(t, 'DELETE', '/default_streams', { as: admin, params: { stream_id: 9999 } }, 400);
  await api.call(t, 'POST', '/mark_stream_as_read', { ...me, params: { stream_id: id } }, 200);
  await api.call(t, 'POST', '/mark_stream_as_read', { ...me, params: { stream_id: 9999 } }, 400);
  await s.request('POST', '/messages', { ...me, params: { type: 'stream', to: 'admin-2', topic: 'read me', content: 'x' } });
  await api.call(t, 'POST', '/mark_topic_as_read', { ...me, params: { stream_id: other, topic_name: 'read me' } }, 200);
  await api.call(t, 'POST', '/mark_topic_as_read', { ...me, params: { stream_id: other, topic_name: 'nothing here' } }, 400);
  await api.call(t, 'DELETE', `/streams/${other}`, me, 400);
  await api.call(t, 'DELETE', `/streams/${other}`, { as: admin }, 200);
});

t.test('user groups', async (t) => {
  const created = await api.call(t, 'POST', '/user_groups/create', { as: admin, params: { name: 'support', description: 'Help desk', members: [member.user_id] } }, 200);
  await api.call(t, 'POST', '/user_groups/create', { as: admin, params: { name: 'support', description: 'again', members: [] } }, 400);
  await api.call(t, 'GET', '/user_groups', me, 200);
  await api.call(t, 'GET', '/user_groups', {}, 401);
  await api.call(t, 'POST', `/user_groups/${created.body.group_id}/members`, { as: admin, params: { add: [admin.user_id] } }, 200);
  await api.call(t, 'POST', '/user_groups/9999/members', { as: admin, params: { add: [admin.user_id] } }, 400);
});

t.test('messages', async (t) => {
  const sent = await api.call(t, 'POST', '/messages', { ...me, params: { type: 'stream', to: 'general', topic: 'plans', content: 'Hello @**Olivia Owner**' } }, 200);
  await api.call(t, 'POST', '/messages', { ...me, params: { type: 'direct', to: [admin.user_id], content: 'a direct one' } }, 200);
  await api.call(t, 'POST', '/messages', { ...me, params: { type: 'stream', to: 'nowhere', topic: 'x', content: 'lost' } }, 400);
  await api.call(t, 'POST', '/messages', { ...me, params: { type: 'stream', to: 'general', topic: 'x' } }, 400);
  await api.call(t, 'GET', '/messages', { ...me, params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'general' }] } }, 200);
  await api.call(t, 'GET', '/messages', { ...me, params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'nonsense', operand: 'x' }] } }, 400);
  const id = sent.body.id as number;
  await api.call(t, 'GET', `/messages/${id}`, me, 200);
  await api.call(t, 'GET', '/messages/9999', me, 400);
  await api.call(t, 'PATCH', `/messages/${id}`, { ...me, params: { content: 'Hello again' } }, 200);
  await api.call(t, 'PATCH', `/messages/${id}`, { as: guest, params: { content: 'not mine' } }, 400);
  await api.call(t, 'POST', '/messages/render', { ...me, params: { content: '**bold**' } }, 200);
  await api.call(t, 'POST', '/messages/render', me, 400);
});

t.test('message flags', async (t) => {
  const sent = await s.request('POST', '/messages', { as: admin, params: { type: 'stream', to: 'general', topic: 'flags', content: 'read me' } });
  const id = sent.body.id as number;
  await api.call(t, 'POST', '/messages/flags', { ...me, params: { messages: [id], op: 'add', flag: 'read' } }, 200);
  await api.call(t, 'POST', '/messages/flags', { ...me, params: { messages: [id], op: 'remove', flag: 'read' } }, 200);
  await api.call(t, 'POST', '/messages/flags', { ...me, params: { messages: [id], op: 'add', flag: 'mentioned' } }, 400);
  const narrow = { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [{ operator: 'channel', operand: 'general' }] };
  await api.call(t, 'POST', '/messages/flags/narrow', { ...me, params: { ...narrow, op: 'add', flag: 'starred' } }, 200);
  await api.call(t, 'POST', '/messages/flags/narrow', { ...me, params: { ...narrow, op: 'add', flag: 'bogus' } }, 400);
  await api.call(t, 'POST', '/mark_all_as_read', me, 200);
  await api.call(t, 'POST', '/mark_all_as_read', {}, 401);
});

t.test('reactions', async (t) => {
  const sent = await s.request('POST', '/messages', { as: admin, params: { type: 'stream', to: 'general', topic: 'reactions', content: 'react to me' } });
  const path = `/messages/${sent.body.id as number}/reactions`;
  await api.call(t, 'POST', path, { ...me, params: { emoji_name: 'octopus' } }, 200);
  await api.call(t, 'POST', path, { ...me, params: { emoji_name: 'octopus' } }, 400);
  const fetched = await api.call(t, 'GET', `/messages/${sent.body.id as number}`, me, 200);
  t.match(fetched.body.message.reactions, [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }]);
  await api.call(t, 'DELETE', path, { ...me, params: { emoji_name: 'octopus' } }, 200);
  await api.call(t, 'DELETE', path, { ...me, params: { emoji_name: 'octopus' } }, 400);
});

t.test('deleting messages and edit history', async (t) => {
  const sent = await s.request('POST', '/messages', { ...me, params: { type: 'stream', to: 'general', topic: 'history', content: 'first' } });
  const id = sent.body.id as number;
  await s.request('PATCH', `/messages/${id}`, { ...me, params: { content: 'second', topic: 'history moved' } });
  const history = await api.call(t, 'GET', `/messages/${id}/history`, me, 200);
  t.equal(history.body.message_history.length, 2);
  const fetched = await api.call(t, 'GET', `/messages/${id}`, me, 200);
  t.match(fetched.body.message.edit_history, [{ prev_content: 'first', prev_topic: 'history', topic: 'history moved' }]);
  await api.call(t, 'GET', '/messages/9999/history', me, 400);
  await api.call(t, 'DELETE', `/messages/${id}`, { as: guest }, 400);
  await api.call(t, 'DELETE', `/messages/${id}`, me, 200);
  await api.call(t, 'DELETE', `/messages/${id}`, me, 400);
});

t.test('register and events: the state of every type, then the events of all the changes above', async (t) => {
  const registered = await api.call(t, 'POST', '/register', { ...me, params: { apply_markdown: true } }, 200);
  await api.call(t, 'POST', '/register', { ...me, params: { event_types: 'message' } }, 400);
  const queue = { queue_id: registered.body.queue_id as string, last_event_id: registered.body.last_event_id as number };
  const old = (await s.request('POST', '/register', me)).body;
  const memberName = old.full_name as string;
  await s.request('POST', '/messages', { as: admin, params: { type: 'stream', to: 'general', topic: 'events', content: `ping @**${memberName}**` } });
  await s.request('POST', '/users/me/subscriptions', { ...me, params: { subscriptions: [{ name: 'events-channel' }] } });
  await s.request('PATCH', `/users/${guest.user_id}`, { as: admin, params: { full_name: 'Guest Renamed' } });
  await s.request('POST', '/mark_all_as_read', me);
  const doomed = await s.request('POST', '/messages', { as: admin, params: { type: 'stream', to: 'general', topic: 'events', content: 'gone soon' } });
  await s.request('PATCH', `/messages/${doomed.body.id as number}`, { as: admin, params: { content: 'edited' } });
  await s.request('DELETE', `/messages/${doomed.body.id as number}`, { as: admin });
  const events = await api.call(t, 'GET', '/events', { ...me, params: { ...queue, dont_block: true } }, 200);
  t.match(events.body.events.slice(-2), [{ type: 'update_message' }, { type: 'delete_message', message_id: doomed.body.id }], 'edit and delete events');
  t.ok(events.body.events.length >= 4, 'events of several types');
  await api.call(t, 'GET', '/events', { ...me, params: { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true } }, 400);
  await api.call(t, 'GET', '/events', { ...me, params: { last_event_id: -1 } }, 400);
  await api.call(t, 'DELETE', '/events', { ...me, params: { queue_id: old.queue_id } }, 200);
  await api.call(t, 'DELETE', '/events', { ...me, params: { queue_id: old.queue_id } }, 400);
});

t.test('every route of these groups was checked', async (t) => {
  api.assertCovered(t, CORE_GROUPS);
});
