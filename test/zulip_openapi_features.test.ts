// parley's answers validate against Zulip's OpenAPI document (FL 420) and against parley's own:
// success and error bodies of the features (user status, linkifiers, navigation
// views, drafts, alert words, E2EE push, Web Push), PATCH /settings, custom emoji and the events they cause, uploads, attachments, bot storage,
// the image proxy, the emoji data file, and GET /openapi.json. The harness is test/conformance.ts.
import { createECDH, randomBytes } from 'node:crypto';
import t from 'tap';
import { keyParams, newPhone, tokenParams } from './bouncer.js';
import { activeDevice, pushWorld } from './push_helpers.js';
import { IMAGES, uploadEmoji } from './user_status_helpers.js';
import { conformance, FEATURE_GROUPS } from './conformance.js';
import { pngEverywhere, storedKeyCamoPath } from './image_host.js';
import { REACTION_TYPE_DEVIATION } from './zulip_openapi.js';

const { s, bouncer, member } = await pushWorld(t, { chat: { imageProxy: { fetch: pngEverywhere } } });
const admin = await s.user('admin');
const bot = await s.user('member', { bot: true });
const api = conformance(s);
const me = { as: member };
const capabilities = { client_capabilities: { linkifier_url_template: true } };
const registered = (await s.request('POST', '/register', { ...me, params: capabilities })).body;
const queue = { queue_id: registered.queue_id as string, last_event_id: registered.last_event_id as number };

/** A GET outside /api/v1 (an image): its status, and its JSON body when it failed. */
async function image(url: string) {
  const response = await fetch(s.url + url);
  const text = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body: response.ok ? {} : JSON.parse(text.toString()) };
}

t.test('user status, with the service_extra_emoji reaction type parley also accepts', async (t) => {
  await api.call(t, 'POST', '/users/me/status', { ...me, params: { status_text: 'on a break', emoji_name: 'coffee' } }, 200);
  await api.call(t, 'POST', '/users/me/status', me, 400);
  await api.call(t, 'POST', '/users/me/status', { as: bot, params: { status_text: 'beep' } }, 400);
  const params = { status_text: 'Zulip fan', emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: REACTION_TYPE_DEVIATION };
  await api.call(t, 'POST', `/users/${member.user_id}/status`, { as: admin, params }, 200);
  await api.call(t, 'POST', `/users/${admin.user_id}/status`, { ...me, params: { status_text: 'nope' } }, 400);
  await api.call(t, 'POST', `/users/${member.user_id}/status`, { as: admin, params: { status_text: 'x'.repeat(61) } }, 400);
  await api.call(t, 'POST', `/users/${member.user_id}/status`, { as: admin, params: { emoji_code: '1f600' } }, 400);
  await api.call(t, 'POST', `/users/${member.user_id}/status`, { as: admin, params: { emoji_name: 'no_such_emoji' } }, 400);
  const status = await api.call(t, 'GET', `/users/${member.user_id}/status`, me, 200);
  t.equal(status.body.status.reaction_type, REACTION_TYPE_DEVIATION, 'reported as the caller named it');
  await api.call(t, 'GET', '/users/9999/status', me, 400);
});

t.test('custom emoji', async (t) => {
  api.check(t, 'POST', '/realm/emoji/party_parrot', await uploadEmoji(s, member, 'party_parrot'), 200);
  api.check(t, 'POST', '/realm/emoji/party_parrot', await uploadEmoji(s, member, 'party_parrot'), 400);
  api.check(t, 'POST', '/realm/emoji/bad_image', await uploadEmoji(s, member, 'bad_image', [{ filename: 'x.svg', data: IMAGES.svg }]), 400);
  const listed = await api.call(t, 'GET', '/realm/emoji', me, 200);
  await api.call(t, 'GET', '/realm/emoji', {}, 401);
  const sourceUrl = (Object.values(listed.body.emoji)[0] as { source_url: string }).source_url;
  api.check(t, 'GET', sourceUrl, await image(sourceUrl), 200);
  api.check(t, 'GET', '/user_avatars/1/emoji/images/0000000000000000.png', await image('/user_avatars/1/emoji/images/0000000000000000.png'), 404);
  await api.call(t, 'DELETE', '/realm/emoji/party_parrot', me, 200);
  await api.call(t, 'DELETE', '/realm/emoji/no_such_emoji', me, 404);
});

t.test('uploads, attachments and bot storage', async (t) => {
  const form = (files: number) => {
    const body = new FormData();
    for (let i = 0; i < files; i++) body.append(`f${i}`, new Blob([IMAGES.png]), `f${i}.png`);
    return body;
  };
  const post = async (files: number) => {
    const response = await fetch(`${s.url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: member.auth }, body: form(files) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  };
  const uploaded = await post(1);
  api.check(t, 'POST', '/user_uploads', uploaded, 200);
  api.check(t, 'POST', '/user_uploads', await post(2), 400);
  const url = uploaded.body.url as string;
  const raw = async (path: string, as = member) => {
    const response = await fetch(s.url + path, { headers: { authorization: as.auth } });
    const text = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, body: response.ok ? {} : JSON.parse(text.toString()) };
  };
  api.check(t, 'GET', url, await raw(url), 200, true);
  api.check(t, 'GET', url, await raw(url, admin), 403, true);
  const temporary = await api.call(t, 'GET', url, me, 200);
  await api.call(t, 'GET', '/user_uploads/1/00/none/x.png', me, 404);
  api.check(t, 'GET', temporary.body.url, await image(temporary.body.url), 200, true);
  api.check(t, 'GET', '/user_uploads/temporary/bad/x.png', await image('/user_uploads/temporary/bad/x.png'), 400, true);
  const listed = await api.call(t, 'GET', '/attachments', me, 200);
  await api.call(t, 'GET', '/attachments', {}, 401);
  await api.call(t, 'DELETE', '/attachments/999999', me, 400);
  await api.call(t, 'DELETE', `/attachments/${listed.body.attachments[0].id}`, me, 200);
  await api.call(t, 'PUT', '/bot_storage', { as: bot, params: { storage: { count: '1' } } }, 200);
  await api.call(t, 'PUT', '/bot_storage', { as: bot, params: { storage: { count: 1 } } }, 400);
  await api.call(t, 'GET', '/bot_storage', { as: bot, params: { keys: ['count'] } }, 200);
  await api.call(t, 'GET', '/bot_storage', { as: bot, params: { keys: ['missing'] } }, 400);
  await api.call(t, 'DELETE', '/bot_storage', { as: bot, params: { keys: ['missing'] } }, 400);
  await api.call(t, 'DELETE', '/bot_storage', { as: bot, params: { keys: ['count'] } }, 200);
});

t.test('the image proxy', async (t) => {
  const path = storedKeyCamoPath(s.db, 'https://images.example/cat.png');
  api.check(t, 'GET', path, await image(path), 200);
  const forged = path.replace(/\/external_content\/./, (prefix) => prefix.slice(0, -1) + (prefix.endsWith('0') ? '1' : '0'));
  api.check(t, 'GET', forged, await image(forged), 403);
});

t.test('linkifiers', async (t) => {
  const linkifier = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/issue/{id}', example_input: '#123', reverse_template: '#{id}' };
  const added = await api.call(t, 'POST', '/realm/filters', { as: admin, params: linkifier }, 200);
  const other = await api.call(t, 'POST', '/realm/filters', { as: admin, params: { pattern: 'PR(?P<n>[0-9]+)', url_template: 'https://git.example.com/pr/{n}' } }, 200);
  await api.call(t, 'POST', '/realm/filters', { as: admin, params: { pattern: '(?P<id>[0-9+', url_template: 'https://x.example.com/{id}' } }, 400);
  await api.call(t, 'POST', '/realm/filters', { ...me, params: linkifier }, 400);
  await api.call(t, 'GET', '/realm/linkifiers', me, 200);
  await api.call(t, 'GET', '/realm/linkifiers', {}, 401);
  await api.call(t, 'PATCH', `/realm/filters/${added.body.id}`, { as: admin, params: { ...linkifier, url_template: 'https://tracker.example.com/i/{id}' }, encoding: 'query' }, 200);
  await api.call(t, 'PATCH', '/realm/filters/9999', { as: admin, params: linkifier }, 400);
  await api.call(t, 'PATCH', '/realm/linkifiers', { as: admin, params: { ordered_linkifier_ids: [other.body.id, added.body.id] } }, 200);
  await api.call(t, 'PATCH', '/realm/linkifiers', { as: admin, params: { ordered_linkifier_ids: [added.body.id] } }, 400);
  await api.call(t, 'DELETE', `/realm/filters/${other.body.id}`, { as: admin }, 200);
  await api.call(t, 'DELETE', `/realm/filters/${other.body.id}`, { as: admin }, 400);
});

t.test('navigation views', async (t) => {
  await api.call(t, 'POST', '/navigation_views', { ...me, params: { fragment: 'narrow/channel/1-general', is_pinned: true, name: 'General' } }, 200);
  await api.call(t, 'POST', '/navigation_views', { ...me, params: { fragment: 'inbox', is_pinned: false } }, 200);
  await api.call(t, 'POST', '/navigation_views', { ...me, params: { fragment: 'inbox', is_pinned: true } }, 400);
  await api.call(t, 'GET', '/navigation_views', me, 200);
  await api.call(t, 'GET', '/navigation_views', {}, 401);
  const custom = encodeURIComponent('narrow/channel/1-general');
  await api.call(t, 'PATCH', `/navigation_views/${custom}`, { ...me, params: { is_pinned: false, name: 'All of general' }, encoding: 'query' }, 200);
  await api.call(t, 'PATCH', '/navigation_views/inbox', { ...me, params: { name: 'My inbox' } }, 400);
  await api.call(t, 'PATCH', '/navigation_views/nowhere', { ...me, params: { is_pinned: true } }, 404);
  await api.call(t, 'DELETE', `/navigation_views/${custom}`, me, 200);
  await api.call(t, 'DELETE', `/navigation_views/${custom}`, me, 404);
});

t.test('drafts', async (t) => {
  const draft = { type: 'private', to: [admin.user_id], topic: '', content: 'Draft text', timestamp: 1_700_000_000 };
  const created = await api.call(t, 'POST', '/drafts', { ...me, params: { drafts: [draft, { ...draft, content: 'second' }] } }, 200);
  await api.call(t, 'POST', '/drafts', { ...me, params: { drafts: [{ ...draft, content: '  ' }] } }, 400);
  await api.call(t, 'GET', '/drafts', me, 200);
  await api.call(t, 'GET', '/drafts', {}, 401);
  const [first, second] = created.body.ids as number[];
  await api.call(t, 'PATCH', `/drafts/${first}`, { ...me, params: { draft: { ...draft, content: 'edited' } }, encoding: 'query' }, 200);
  await api.call(t, 'PATCH', '/drafts/9999', { ...me, params: { draft } }, 404);
  await api.call(t, 'DELETE', `/drafts/${second}`, me, 200);
  await api.call(t, 'DELETE', `/drafts/${second}`, me, 404);
});

t.test('alert words', async (t) => {
  await api.call(t, 'POST', '/users/me/alert_words', { ...me, params: { alert_words: ['urgent', 'on call'] } }, 200);
  await api.call(t, 'POST', '/users/me/alert_words', { ...me, params: { alert_words: 'urgent' } }, 400);
  await api.call(t, 'GET', '/users/me/alert_words', me, 200);
  await api.call(t, 'GET', '/users/me/alert_words', {}, 401);
  await api.call(t, 'DELETE', '/users/me/alert_words', { ...me, params: { alert_words: ['URGENT', 'never added'] }, encoding: 'query' }, 200);
  await api.call(t, 'DELETE', '/users/me/alert_words', { ...me, params: { alert_words: '{}' } }, 400);
});

t.test('E2EE push: registration, the test notification with each bouncer failure, removing a device', async (t) => {
  const other = await s.user('member');
  const { deviceId } = await activeDevice(s, member, bouncer);
  const phone = newPhone();
  const device = await api.call(t, 'POST', '/register_client_device', me, 200);
  await api.call(t, 'POST', '/register_client_device', {}, 401);
  const registration = { device_id: device.body.device_id, ...keyParams(bouncer, phone), ...tokenParams(bouncer, phone) };
  await api.call(t, 'POST', '/mobile_push/register', { ...me, params: registration }, 200);
  await api.call(t, 'POST', '/mobile_push/e2ee/test_notification', { ...me, params: { device_id: deviceId } }, 200);
  await api.call(t, 'POST', '/mobile_push/e2ee/test_notification', me, 200);
  await api.call(t, 'POST', '/mobile_push/e2ee/test_notification', { as: other }, 400);
  bouncer.script.notify.push('invalid_server');
  await api.call(t, 'POST', '/mobile_push/e2ee/test_notification', me, 403);
  bouncer.script.notify.push('server_error');
  await api.call(t, 'POST', '/mobile_push/e2ee/test_notification', me, 502);
  bouncer.script.notify.push('hang');
  await api.call(t, 'POST', '/mobile_push/e2ee/test_notification', me, 502);
  await api.call(t, 'POST', '/mobile_push/register', { ...me, params: { device_id: 9999, push_key: 'x', push_key_id: 1 } }, 400);
  await api.call(t, 'POST', '/mobile_push/register', { as: bot, params: { device_id: deviceId } }, 400);
  await api.call(t, 'POST', '/remove_client_device', { ...me, params: { device_id: device.body.device_id } }, 200);
  await api.call(t, 'POST', '/remove_client_device', { ...me, params: { device_id: device.body.device_id } }, 400);
  t.same(bouncer.problems, [], 'the bouncer stand-in saw no protocol violation');
});

t.test("Web Push (parley's own): the key, a browser's subscription, turning it off", async (t) => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const browser = { endpoint: 'https://push.example.com/send/conformance', p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
  await api.call(t, 'GET', '/web_push/key', me, 200);
  await api.call(t, 'GET', '/web_push/key', { as: bot }, 400);
  await api.call(t, 'POST', '/web_push/subscriptions', { ...me, params: browser }, 200);
  await api.call(t, 'POST', '/web_push/subscriptions', { ...me, params: { ...browser, endpoint: 'http://push.example.com/x' } }, 400);
  await api.call(t, 'DELETE', '/web_push/subscriptions', { ...me, params: { endpoint: browser.endpoint } }, 200);
  await api.call(t, 'DELETE', '/web_push/subscriptions', { ...me, params: { endpoint: browser.endpoint } }, 400);
});

t.test("PATCH /realm: the organization's name and description", async (t) => {
  await api.call(t, 'PATCH', '/realm', { as: admin, params: { name: 'Conformance', description: 'About **us**' } }, 200);
  await api.call(t, 'PATCH', '/realm', { ...me, params: { name: 'Mine' } }, 400);
});

t.test('PATCH /settings: email_address_visibility', async (t) => {
  await api.call(t, 'PATCH', '/settings', { ...me, params: { email_address_visibility: 2 } }, 200);
  await api.call(t, 'PATCH', '/settings', { ...me, params: { email_address_visibility: 9 } }, 400);
  await api.call(t, 'PATCH', '/settings', { as: bot, params: { email_address_visibility: 2 } }, 400);
});

t.test('PATCH /settings: display settings; muting users and topics', async (t) => {
  await api.call(t, 'PATCH', '/settings', { ...me, params: { twenty_four_hour_time: true, emojiset: 'text', default_language: 'de' } }, 200);
  await api.call(t, 'PATCH', '/settings', { ...me, params: { emojiset: 'apple' } }, 400);
  await api.call(t, 'POST', `/users/me/muted_users/${admin.user_id}`, me, 200);
  await api.call(t, 'POST', `/users/me/muted_users/${admin.user_id}`, me, 400);
  await api.call(t, 'DELETE', `/users/me/muted_users/${admin.user_id}`, me, 200);
  await api.call(t, 'DELETE', `/users/me/muted_users/${admin.user_id}`, me, 400);
  const channel = 'conformance muting';
  s.chat.api.streams.subscribe(admin.user_id, { subscriptions: [{ name: channel }], principals: [admin.user_id, member.user_id] });
  const streamId = s.chat.api.streams.getId(admin.user_id, { stream: channel }).stream_id;
  await api.call(t, 'POST', '/user_topics', { ...me, params: { stream_id: streamId, topic: 'noise', visibility_policy: 1 } }, 200);
  await api.call(t, 'POST', '/user_topics', { ...me, params: { stream_id: 9999, topic: 'noise', visibility_policy: 1 } }, 400);
  await api.call(t, 'PATCH', '/users/me/subscriptions/muted_topics', { ...me, params: { stream: channel, topic: 'other', op: 'add' } }, 200);
  await api.call(t, 'PATCH', '/users/me/subscriptions/muted_topics', { ...me, params: { topic: 'other', op: 'add' } }, 400);
});

t.test('typing notifications and presence', async (t) => {
  const channel = 'conformance typing';
  s.chat.api.streams.subscribe(admin.user_id, { subscriptions: [{ name: channel }], principals: [admin.user_id, member.user_id] });
  const streamId = s.chat.api.streams.getId(admin.user_id, { stream: channel }).stream_id;
  await api.call(t, 'POST', '/typing', { as: admin, params: { op: 'start', to: [member.user_id] } }, 200);
  await api.call(t, 'POST', '/typing', { as: admin, params: { op: 'stop', type: 'channel', stream_id: streamId, topic: 'lunch' } }, 200);
  await api.call(t, 'POST', '/typing', { as: admin, params: { op: 'start', to: [] } }, 400);
  const sent = s.chat.api.messages.send(admin.user_id, { type: 'stream', to: channel, topic: 'lunch', content: 'hi' }).id;
  await api.call(t, 'POST', `/messages/${sent}/typing`, { as: admin, params: { op: 'start' } }, 200);
  await api.call(t, 'POST', `/messages/${sent}/typing`, { ...me, params: { op: 'start' } }, 400);
  await api.call(t, 'POST', '/users/me/presence', { as: admin, params: { status: 'active' } }, 200);
  await api.call(t, 'POST', '/users/me/presence', { as: admin, params: { status: 'idle', last_update_id: -1 } }, 200);
  await api.call(t, 'POST', '/users/me/presence', { as: admin, params: { status: 'active', ping_only: true } }, 200);
  await api.call(t, 'POST', '/users/me/presence', { as: admin, params: { status: 'away' } }, 400);
  await api.call(t, 'GET', '/realm/presence', me, 200);
  await api.call(t, 'GET', '/realm/presence', {}, 401);
  await api.call(t, 'GET', `/users/${admin.user_id}/presence`, me, 200);
  // slim_presence (the modern format) is left out: Zulip's document describes only the legacy one here.
  await api.call(t, 'GET', `/users/${encodeURIComponent(admin.email)}/presence`, me, 200);
  await api.call(t, 'GET', '/users/9999/presence', me, 400);
});

t.test('the events of all the changes above', async (t) => {
  const events = await api.call(t, 'GET', '/events', { ...me, params: { ...queue, dont_block: true } }, 200);
  const types = new Set((events.body.events as { type: string }[]).map((e) => e.type));
  for (const type of ['user_status', 'realm_emoji', 'realm_linkifiers', 'navigation_view', 'drafts', 'alert_words', 'user_settings', 'realm_user', 'typing', 'typing_edit_message', 'presence', 'muted_users', 'user_topic']) {
    t.ok(types.has(type), type);
  }
  await api.call(t, 'POST', '/register', { ...me, params: capabilities }, 200);
});

t.test('the emoji data file at server_emoji_data_url, without credentials', async (t) => {
  const path = new URL((await api.call(t, 'POST', '/register', { ...me, params: { fetch_event_types: ['realm'] } }, 200)).body.server_emoji_data_url).pathname;
  api.check(t, 'GET', path, await image(path), 200);
  const other = '/static/generated/emoji/emoji_api.0000000000000000.json';
  api.check(t, 'GET', other, await image(other), 404);
});

t.test('GET /openapi.json, without credentials', async (t) => {
  const reply = await api.call(t, 'GET', '/openapi.json', {}, 200);
  t.equal(reply.body.openapi, '3.1.0');
});

t.test('POST /external/{integration}: a success, an unsupported event (200) and a refused key, with the api_key in the URL', async (t) => {
  const hook = (await s.request('POST', '/bots', { ...me, params: { full_name: 'Conformance Hook', short_name: 'conformancehook', bot_type: 2 } })).body as { api_key: string };
  const post = async (path: string, headers: Record<string, string>, body: string) => {
    const response = await fetch(`${s.url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: response.status, body: (await response.json()) as Record<string, any>, headers: response.headers };
  };
  const path = (key: string) => `/external/github?api_key=${key}&stream=${encodeURIComponent('Denmark')}`;
  api.check(t, 'POST', '/external/json', await post(`/external/json?api_key=${hook.api_key}`, {}, '{"a": 1}'), 200);
  api.check(t, 'POST', '/external/github', await post(path(hook.api_key), { 'X-GitHub-Event': 'sponsorship' }, '{"action": "created"}'), 200);
  api.check(t, 'POST', '/external/github', await post(path('x'.repeat(32)), { 'X-GitHub-Event': 'push' }, '{}'), 401);
});

t.test('every route of these groups was checked', async (t) => {
  api.assertCovered(t, FEATURE_GROUPS);
});
