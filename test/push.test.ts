// The E2EE test notification: device selection, the
// encrypted payload and push requests as the bouncer stand-in receives and decrypts them, and
// every error of section 7 produced through the stand-in, over HTTP and in-process.
import t, { type Test } from 'tap';
import { createChatServer } from '../lib/index.js';
import { newPhone } from './bouncer.js';
import { sendRequest, type TestServer, type TestUser } from './helpers.js';
import {
  activeDevice,
  ADMIN,
  applyDeviceEvents,
  bad,
  BOUNCER_5XX,
  deviceUpdateEvent,
  isError,
  NO_ACTIVE,
  NO_CONNECTION,
  nextDeviceEvent,
  NOT_CONFIGURED,
  pushWorld,
  queuedEvents,
  registerDevices,
  throwsApiError,
  type Expected,
} from './push_helpers.js';
import { contextOf } from '../lib/context.js';

const NOW_MS = 1_700_000_000_500;

const testNotification = (s: TestServer, user: TestUser, params?: Record<string, unknown>) =>
  s.request('POST', '/mobile_push/e2ee/test_notification', { as: user, params });

const testInProcess = (s: TestServer, user: TestUser, input: { deviceId?: number } = {}) =>
  s.chat.api.push.testNotification(user.user_id, input);

/** Both ways, same error. */
async function failsBothWays(t: Test, s: TestServer, user: TestUser, expected: Expected, params: Record<string, unknown> = {}): Promise<void> {
  isError(t, await testNotification(s, user, params), expected);
  await throwsApiError(t, () => testInProcess(s, user, params.device_id === undefined ? {} : { deviceId: params.device_id as number }), expected);
}

const pushEnabled = async (s: TestServer): Promise<boolean> => (await s.request('GET', '/server_settings')).body.push_notifications_enabled;

/** Rules that need no special bouncer or server options share one server, each with a new user. */
const shared = await pushWorld(t);
const sharedWorld = async () => ({ s: shared.s, bouncer: shared.bouncer, member: await shared.s.user('member') });

t.test('With no device registered with the bouncer: NO_ACTIVE_PUSH_DEVICE', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const calls = bouncer.requests.length;
  await failsBothWays(t, s, member, NO_ACTIVE);
  const pending = (await s.request('POST', '/register_client_device', { as: member })).body.device_id;
  await failsBothWays(t, s, member, NO_ACTIVE);
  await failsBothWays(t, s, member, NO_ACTIVE, { device_id: pending });
  t.equal(bouncer.requests.length, calls, 'the bouncer is not called');
});

t.test('Without a bouncer configured no device can register, so the test answers NO_ACTIVE_PUSH_DEVICE', async (t) => {
  const { s, member } = await pushWorld(t, { push: false });
  await failsBothWays(t, s, member, NO_ACTIVE);
});

t.test('A device made active while a bouncer was configured, after a restart without one: PUSH_SERVICE_NOT_CONFIGURED', async (t) => {
  const { s, bouncer, member } = await pushWorld(t);
  const { deviceId } = await activeDevice(s, member, bouncer);
  await s.chat.close();
  const next = createChatServer(s.db, { logger: contextOf(s.chat).logger });
  t.teardown(() => next.close());
  const url = `http://127.0.0.1:${(await next.listen(0, '127.0.0.1')).port}`;
  const calls = bouncer.requests.length;
  for (const params of [{}, { device_id: deviceId }]) {
    isError(t, await sendRequest(url, 'POST', '/mobile_push/e2ee/test_notification', { as: member, params }), NOT_CONFIGURED);
    await throwsApiError(t, () => next.api.push.testNotification(member.user_id, params.device_id === undefined ? {} : { deviceId }), NOT_CONFIGURED);
  }
  isError(t, await sendRequest(url, 'POST', '/mobile_push/e2ee/test_notification', { as: member, params: { device_id: deviceId + 1000 } }), NO_ACTIVE);
  t.equal(bouncer.requests.length, calls, 'the bouncer is not called');
  t.not(s.db.prepare('SELECT push_token_id FROM device WHERE id = ?').pluck().get(deviceId), null, 'the device keeps its token for a later start with a bouncer');
});

t.test('Bots are refused', async (t) => {
  const { s } = await sharedWorld();
  const bot = await s.user('member', { bot: true });
  await failsBothWays(t, s, bot, bad('This endpoint does not accept bot requests.'));
});

t.test('Every registered device gets the encrypted test payload: FCM with a priority, APNs with headers and aps', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { chat: { clock: () => NOW_MS, realm: { name: 'Acme', url: 'https://chat.acme.example/' } } });
  const fcm = await activeDevice(s, member, bouncer, 'fcm');
  const apns = await activeDevice(s, member, bouncer, 'apns');
  await s.request('POST', '/register_client_device', { as: member });
  t.same((await testNotification(s, member)).body, { result: 'success', msg: '' });
  const notify = bouncer.requests.at(-1)!;
  t.equal(notify.endpoint, 'notify');
  t.same(Object.keys(notify.body), ['realm_uuid', 'push_requests']);
  t.equal(notify.body.realm_uuid, s.db.prepare('SELECT uuid FROM realm').pluck().get());
  const [first, second] = notify.body.push_requests;
  t.same(Object.keys(first), ['token_id', 'fcm_priority', 'payload']);
  t.match(first, { token_id: fcm.phone.tokenId, fcm_priority: 'high', payload: { push_key_id: fcm.phone.pushKeyId, encrypted_data: String } });
  t.same(Object.keys(second), ['token_id', 'http_headers', 'payload']);
  t.same(second.http_headers, { apns_priority: 10, apns_push_type: 'alert' });
  t.same(second.payload.aps, { 'mutable-content': 1, alert: { title: 'New notification' } });
  const expected = { realm_url: 'https://chat.acme.example', realm_name: 'Acme', user_id: member.user_id, type: 'test', time: Math.floor(NOW_MS / 1000) };
  t.same(bouncer.deliveries, [
    { token_id: fcm.phone.tokenId, push_key_id: fcm.phone.pushKeyId, kind: 'fcm', payload: expected },
    { token_id: apns.phone.tokenId, push_key_id: apns.phone.pushKeyId, kind: 'apns', payload: expected },
  ]);
  const plaintextBytes = Buffer.byteLength(JSON.stringify(expected));
  t.equal(Buffer.from(first.payload.encrypted_data, 'base64').length, 24 + 16 + plaintextBytes, 'nonce, MAC, ciphertext');
  t.same(await testInProcess(s, member), {});
  t.not(bouncer.requests.at(-1)!.body.push_requests[0].payload.encrypted_data, first.payload.encrypted_data, 'a fresh nonce each time');
  t.same(bouncer.problems, []);
});

t.test('device_id (or its older name push_account_id) picks one device; any other id: NO_ACTIVE_PUSH_DEVICE', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const one = await activeDevice(s, member, bouncer);
  const two = await activeDevice(s, member, bouncer, 'apns');
  const before = bouncer.deliveries.length;
  t.equal((await testNotification(s, member, { device_id: two.deviceId })).status, 200);
  t.equal((await testNotification(s, member, { push_account_id: one.deviceId })).status, 200);
  t.same(await testInProcess(s, member, { deviceId: two.deviceId }), {});
  t.same(bouncer.deliveries.slice(before).map((d) => d.token_id), [two.phone.tokenId, one.phone.tokenId, two.phone.tokenId]);
  const both = await testNotification(s, member, { device_id: one.deviceId, push_account_id: one.deviceId });
  isError(t, both, { status: 400, code: 'REQUEST_CONFUSING_VAR', msg: "Can't decide between 'device_id' and 'push_account_id' arguments" });
  isError(t, await testNotification(s, member, { device_id: 'one' }), bad('device_id is not valid JSON'));
  const other = await s.user('member');
  const othersDevice = await activeDevice(s, other, bouncer);
  for (const deviceId of [othersDevice.deviceId, two.deviceId + 1000]) await failsBothWays(t, s, member, NO_ACTIVE, { device_id: deviceId });
  t.same(bouncer.problems, []);
});

t.test('A bouncer 5xx: INTERNAL_SERVER_ERROR_ON_BOUNCER (502); the devices keep their tokens', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  await activeDevice(s, member, bouncer);
  const before = await registerDevices(s, member);
  bouncer.script.notify.push('server_error', { status: 503, body: 'maintenance' });
  await failsBothWays(t, s, member, BOUNCER_5XX);
  t.same((await registerDevices(s, member)).devices, before.devices);
});

t.test('The bouncer refuses connections: FAILED_TO_CONNECT_BOUNCER (502)', async (t) => {
  const { s, bouncer, member } = await pushWorld(t);
  await activeDevice(s, member, bouncer);
  await bouncer.close();
  await failsBothWays(t, s, member, NO_CONNECTION);
});

t.test('The bouncer does not answer within the timeout: FAILED_TO_CONNECT_BOUNCER (502)', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { push: { timeoutMs: 400 } });
  await activeDevice(s, member, bouncer);
  bouncer.script.notify.push('hang', 'hang');
  await failsBothWays(t, s, member, NO_CONNECTION);
});

t.test('The bouncer rejects the server credentials: ADMIN_ACTION_REQUIRED (403)', async (t) => {
  const { s, bouncer, member } = await pushWorld(t);
  await activeDevice(s, member, bouncer);
  bouncer.serverKey = 'revoked-and-replaced';
  await failsBothWays(t, s, member, ADMIN);
  t.equal(await pushEnabled(s), true, 'the organization flag is left alone');
});

t.test('MISSING_REMOTE_REALM or PUSH_NOTIFICATIONS_DISALLOWED: ADMIN_ACTION_REQUIRED (403), and push is reported off', async (t) => {
  for (const mode of ['missing_realm', 'disallowed'] as const) {
    const { s, bouncer, member } = await pushWorld(t);
    await activeDevice(s, member, bouncer);
    t.equal(await pushEnabled(s), true, 'on before');
    bouncer.script.notify.push(mode);
    isError(t, await testNotification(s, member), ADMIN);
    t.equal(await pushEnabled(s), false, `${mode}: off after`);
    bouncer.script.notify.push(mode);
    await throwsApiError(t, () => testInProcess(s, member), ADMIN);
  }
});

t.test("realm_push_status.can_push becomes the organization's push_notifications_enabled", async (t) => {
  const { s, bouncer, member } = await pushWorld(t);
  await activeDevice(s, member, bouncer);
  bouncer.canPush = false;
  t.equal((await testNotification(s, member)).status, 200);
  t.equal(await pushEnabled(s), false);
  bouncer.canPush = true;
  t.same(await testInProcess(s, member), {});
  t.equal(await pushEnabled(s), true);
});

t.test("Other bouncer 4xx answers reach the client as BAD_REQUEST with the bouncer's message; odd statuses as ADMIN_ACTION_REQUIRED", async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  await activeDevice(s, member, bouncer);
  const clientError = { status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid push_requests' } };
  bouncer.script.notify.push(clientError, clientError);
  await failsBothWays(t, s, member, bad('Invalid push_requests'));
  bouncer.script.notify.push({ status: 302, body: {} }, { status: 404, body: 'not found' });
  isError(t, await testNotification(s, member), ADMIN);
  isError(t, await testNotification(s, member), ADMIN);
});

t.test('Tokens the bouncer deleted are cleared (device event); when it deleted every one: NO_ACTIVE_PUSH_DEVICE', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const one = await activeDevice(s, member, bouncer);
  const two = await activeDevice(s, member, bouncer, 'apns');
  const before = await registerDevices(s, member);
  bouncer.deleteTokenIds.add(one.phone.tokenId);
  const cleared = nextDeviceEvent(s, member.user_id);
  t.equal((await testNotification(s, member)).status, 200, 'one of two deleted: success');
  t.same(await cleared, { id: (await cleared).id, type: 'device', op: 'update', device_id: one.deviceId, push_token_id: null });
  t.match((await registerDevices(s, member)).devices[one.deviceId], { push_token_id: null, push_key_id: one.phone.pushKeyId });
  await failsBothWays(t, s, member, NO_ACTIVE, { device_id: one.deviceId });
  bouncer.script.notify.push('delete_all');
  isError(t, await testNotification(s, member), NO_ACTIVE);
  t.match((await registerDevices(s, member)).devices[two.deviceId], { push_token_id: null });
  await failsBothWays(t, s, member, NO_ACTIVE);

  const events = await queuedEvents(s, member, before.queueId, before.lastEventId);
  t.equal(events.length, 2);
  for (const event of events) t.ok(deviceUpdateEvent.safeParse(event).success, 'device update event schema');
  t.same(applyDeviceEvents(before.devices, events), (await registerDevices(s, member)).devices, 'events applied = fresh fetch');
});

t.test('The bouncer is called outside any transaction: other writes proceed while it is slow', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { push: { timeoutMs: 500 } });
  await activeDevice(s, member, bouncer);
  const inTransaction: boolean[] = [];
  bouncer.onRequest = () => inTransaction.push(s.db.inTransaction);
  bouncer.script.notify.push('hang');
  const slow = testNotification(s, member);
  while (!bouncer.requests.some((r) => r.endpoint === 'notify')) await new Promise((resolve) => setTimeout(resolve, 5));
  const write = await s.request('POST', '/register_client_device', { as: member });
  t.equal(write.status, 200, 'a write while the bouncer hangs');
  isError(t, await slow, NO_CONNECTION);
  t.same(inTransaction, [false]);
});
