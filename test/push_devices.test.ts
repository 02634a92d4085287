// Client devices and their E2EE push registration: POST /register_client_device, POST /mobile_push/register with its checks, forwarding to
// the bouncer stand-in after commit with retries, the `device` events and the `devices` state.
import Database from 'better-sqlite3';
import t from 'tap';
import { createChatServer, type DeliveredEvent } from '../lib/index.js';
import { pushOptionsFromEnv } from '../lib/push/options.js';
import { keyParams, newPhone, newPushKey, sealRegistration, tokenParams, type Phone, type StandInBouncer } from './bouncer.js';
import type { TestServer, TestUser } from './helpers.js';
import {
  activeDevice,
  applyDeviceEvents,
  bad,
  deviceAddEvent,
  deviceRemoveEvent,
  deviceUpdateEvent,
  isError,
  nextDeviceEvent,
  NO_ACTIVE,
  NOT_CONFIGURED,
  pushWorld,
  queuedEvents,
  registerDevices,
  registrationSettled,
  throwsApiError,
} from './push_helpers.js';
import { contextOf } from '../lib/context.js';

const camel = (params: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));

async function newDevice(s: TestServer, user: TestUser): Promise<number> {
  return (await s.request('POST', '/register_client_device', { as: user })).body.device_id as number;
}

function allFields(bouncer: StandInBouncer, phone: Phone, deviceId: number): Record<string, unknown> {
  return { device_id: deviceId, ...keyParams(bouncer, phone), ...tokenParams(bouncer, phone) };
}

/** Most rules need nothing special: they share one server and stand-in, each with a new user. */
const shared = await pushWorld(t);
const sharedWorld = async () => ({ s: shared.s, bouncer: shared.bouncer, member: await shared.s.user('member') });

const register = (s: TestServer, user: TestUser, params: Record<string, unknown>) =>
  s.request('POST', '/mobile_push/register', { as: user, params });

const registerInProcess = (s: TestServer, user: TestUser, params: Record<string, unknown>) =>
  s.chat.api.push.register(user.user_id, camel(params) as never);

t.test('POST /register_client_device gives the caller a new device_id, announced by a device add event', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const added = nextDeviceEvent(s, member.user_id);
  const first = await s.request('POST', '/register_client_device', { as: member });
  t.equal(first.status, 200);
  t.match(first.body, { result: 'success', device_id: Number });
  t.equal(first.body.msg, '');
  t.same((await added).device_id, first.body.device_id);
  t.ok(deviceAddEvent.safeParse(await added).success, 'device add event schema');
  const second = s.chat.api.push.registerClientDevice(member.user_id) as { device_id: number };
  t.not(second.device_id, first.body.device_id);
  const { devices } = await registerDevices(s, member);
  const empty = { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null };
  t.same(devices, { [first.body.device_id]: empty, [second.device_id]: empty });
  const other = await s.user('member');
  t.same((await registerDevices(s, other)).devices, {}, 'devices are per user');
});

t.test('Without a bouncer configured, registration answers PUSH_SERVICE_NOT_CONFIGURED', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { push: false });
  const deviceId = await newDevice(s, member);
  const params = allFields(bouncer, newPhone(), deviceId);
  isError(t, await register(s, member, params), NOT_CONFIGURED);
  await throwsApiError(t, () => registerInProcess(s, member, params), NOT_CONFIGURED);
  t.equal((await registerDevices(s, member)).devices[deviceId]!.pending_push_token_id, null, 'nothing changed');
  t.same((await s.request('GET', '/server_settings')).body.push_notifications_enabled, false);
});

t.test('Bots cannot register push devices', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const bot = await s.user('member', { bot: true });
  const deviceId = await newDevice(s, bot);
  const params = allFields(bouncer, newPhone(), deviceId);
  const expected = bad('This endpoint does not accept bot requests.');
  isError(t, await register(s, bot, params), expected);
  await throwsApiError(t, () => registerInProcess(s, bot, params), expected);
});

t.test("device_id is required; push_account_id is its older name; sending both is Can't decide", async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const phone = newPhone();
  const { device_id, ...rest } = allFields(bouncer, phone, await newDevice(s, member));
  const missing = await register(s, member, rest);
  t.equal(missing.status, 400);
  t.has(missing.body, { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'device_id' argument", var_name: 'device_id' });
  const both = await register(s, member, { ...rest, device_id, push_account_id: device_id });
  isError(t, both, { status: 400, code: 'REQUEST_CONFUSING_VAR', msg: "Can't decide between 'device_id' and 'push_account_id' arguments" });
  const settled = registrationSettled(s, member.user_id, device_id as number);
  const old = await register(s, member, { ...rest, push_account_id: device_id });
  t.same(old.body, { result: 'success', msg: '' }, 'no ignored_parameters_unsupported: the alias was read');
  t.equal((await settled).push_token_id, phone.tokenId);
});

t.test('An unknown device_id, or another user\'s, is Invalid `device_id`', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const other = await s.user('member');
  const othersDevice = await newDevice(s, other);
  for (const deviceId of [othersDevice, othersDevice + 100, -1]) {
    const params = allFields(bouncer, newPhone(), deviceId);
    isError(t, await register(s, member, params), bad('Invalid `device_id`'));
    await throwsApiError(t, () => registerInProcess(s, member, params), bad('Invalid `device_id`'));
  }
  t.equal((await registerDevices(s, other)).devices[othersDevice]!.push_key_id, null, "the other user's device is untouched");
});

t.test('Only three field sets are accepted: all fields, the key fields, or the token fields', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const deviceId = await newDevice(s, member);
  const all = allFields(bouncer, newPhone(), deviceId);
  const msg = 'Missing parameters: must provide either all push key fields, all token fields, or both.';
  const partial = [
    ['device_id'],
    ['device_id', 'push_key'],
    ['device_id', 'push_key_id'],
    ['device_id', 'token_kind', 'token_id', 'bouncer_public_key'],
    ['device_id', 'token_id', 'bouncer_public_key', 'encrypted_push_registration'],
    ['device_id', 'push_key', 'token_kind', 'token_id', 'bouncer_public_key'],
  ];
  for (const keys of partial) {
    const params = Object.fromEntries(keys.map((k) => [k, all[k]]));
    isError(t, await register(s, member, params), bad(msg));
    await throwsApiError(t, () => registerInProcess(s, member, params), bad(msg));
  }
  t.equal(s.db.prepare('SELECT count(*) FROM device WHERE id = ? AND push_key IS NOT NULL').pluck().get(deviceId), 0, 'nothing stored');
});

t.test('push_key must be standard Base64 of 33 bytes whose first byte is 0x31', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const deviceId = await newDevice(s, member);
  const forwarded = bouncer.requests.length;
  let urlSafe = newPushKey();
  while (!/[+/]/.test(urlSafe.toString('base64'))) urlSafe = newPushKey();
  const invalid = [
    newPushKey().subarray(0, 32).toString('base64'),
    Buffer.concat([newPushKey(), Buffer.from([1])]).toString('base64'),
    Buffer.concat([Buffer.from([0x32]), newPushKey().subarray(1)]).toString('base64'),
    urlSafe.toString('base64url'),
    newPushKey().toString('hex'),
    newPushKey().toString('base64') + '=',
    '',
  ];
  for (const pushKey of invalid) {
    const params = { ...allFields(bouncer, newPhone(), deviceId), push_key: pushKey };
    const reply = await register(s, member, params);
    isError(t, reply, bad('Invalid `push_key`'));
    if (pushKey !== '') t.notMatch(JSON.stringify(reply.body), pushKey, 'the key is not echoed');
    await throwsApiError(t, () => registerInProcess(s, member, params), bad('Invalid `push_key`'));
  }
  t.equal((await registerDevices(s, member)).devices[deviceId]!.push_key_id, null, 'nothing stored');
  t.equal(bouncer.requests.length, forwarded, 'nothing forwarded');
});

t.test('push_key_id is an unsigned 32-bit integer', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const base = allFields(bouncer, newPhone(), await newDevice(s, member));
  const cases: [unknown, string][] = [
    [-1, 'Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer'],
    [2 ** 32, 'Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer'],
    [1.5, 'push_key_id is not an integer'],
    ['"7"', 'push_key_id is not an integer'],
    ['seven', 'push_key_id is not valid JSON'],
  ];
  for (const [value, msg] of cases) isError(t, await register(s, member, { ...base, push_key_id: value }), bad(msg));
  await throwsApiError(t, () => registerInProcess(s, member, { ...base, push_key_id: 2 ** 32 }), bad('Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer'));
  const settled = registrationSettled(s, member.user_id, base.device_id as number);
  t.equal((await register(s, member, { ...base, push_key_id: 2 ** 32 - 1 })).status, 200, 'the largest uint32 is accepted');
  await settled;
});

t.test('token_kind is fcm or apns and token_id is Base64 of 8 bytes', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const base = allFields(bouncer, newPhone(), await newDevice(s, member));
  const forwarded = bouncer.requests.length;
  isError(t, await register(s, member, { ...base, token_kind: 'gcm' }), bad('Invalid token_kind'));
  await throwsApiError(t, () => registerInProcess(s, member, { ...base, token_kind: 'APNS' }), bad('Invalid token_kind'));
  for (const tokenId of ['AAAAAAAAAA==', 'AAAAAAAAAAAA', 'not base64!', '']) {
    isError(t, await register(s, member, { ...base, token_id: tokenId }), bad('Invalid `token_id`'));
  }
  await throwsApiError(t, () => registerInProcess(s, member, { ...base, token_id: 'AAAA' }), bad('Invalid `token_id`'));
  t.equal(bouncer.requests.length, forwarded, 'nothing forwarded');
});

t.test('Rotating a key or a token needs an earlier registration', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const phone = newPhone();
  const deviceId = await newDevice(s, member);
  const keyOnly = { device_id: deviceId, ...keyParams(bouncer, phone) };
  const tokenOnly = { device_id: deviceId, ...tokenParams(bouncer, phone) };
  isError(t, await register(s, member, keyOnly), bad('No push registration exists to rotate key for.'));
  await throwsApiError(t, () => registerInProcess(s, member, keyOnly), bad('No push registration exists to rotate key for.'));
  isError(t, await register(s, member, tokenOnly), bad('No push registration exists to rotate token for.'));
  await throwsApiError(t, () => registerInProcess(s, member, tokenOnly), bad('No push registration exists to rotate token for.'));
});

t.test('A registration is answered at once and forwarded to the bouncer after it commits: pending, then active', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { push: { timeoutMs: 400 } });
  const phone = newPhone('apns');
  const deviceId = await newDevice(s, member);
  const inTransaction: boolean[] = [];
  bouncer.onRequest = () => inTransaction.push(s.db.inTransaction);
  bouncer.mode.register = 'hang';
  const params = allFields(bouncer, phone, deviceId);
  const pendingEvent = nextDeviceEvent(s, member.user_id);
  t.same((await register(s, member, params)).body, { result: 'success', msg: '' });
  const pending = await pendingEvent;
  t.match(pending, {
    type: 'device',
    op: 'update',
    device_id: deviceId,
    push_key_id: phone.pushKeyId,
    pending_push_token_id: phone.tokenId,
    push_token_last_updated_timestamp: Number,
    push_registration_error_code: null,
  });
  t.ok(deviceUpdateEvent.safeParse(pending).success, 'device update event schema');
  t.match((await registerDevices(s, member)).devices[deviceId], { push_token_id: null, pending_push_token_id: phone.tokenId });

  // The hanging bouncer times out; the retry is answered.
  while (bouncer.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  bouncer.mode.register = 'ok';
  const active = await registrationSettled(s, member.user_id, deviceId);
  t.match(active, { device_id: deviceId, push_token_id: phone.tokenId, pending_push_token_id: null });
  t.ok(deviceUpdateEvent.safeParse(active).success);
  const sent = bouncer.requests.at(-1)!.body;
  t.same(sent, {
    realm_uuid: s.db.prepare('SELECT uuid FROM realm').pluck().get(),
    token_id: phone.tokenId,
    bouncer_public_key: bouncer.publicKey,
    encrypted_push_registration: params.encrypted_push_registration,
  });
  t.same(bouncer.registrations.get(phone.tokenId), { realm_uuid: sent.realm_uuid, token_id: phone.tokenId, token: phone.token, token_kind: 'apns' });
  t.ok(inTransaction.length >= 2 && inTransaction.every((open) => !open), 'the bouncer is never called inside a transaction');
  t.same(bouncer.problems, []);
});

t.test('While a registration is in progress, another one for the device is refused (key rotation is not)', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { push: { timeoutMs: 60_000 } });
  const deviceId = await newDevice(s, member);
  bouncer.mode.register = 'hang';
  t.equal((await register(s, member, allFields(bouncer, newPhone(), deviceId))).status, 200);
  const msg = 'A registration for the device already in progress.';
  isError(t, await register(s, member, allFields(bouncer, newPhone(), deviceId)), bad(msg));
  await throwsApiError(t, () => registerInProcess(s, member, { device_id: deviceId, ...tokenParams(bouncer, newPhone()) }), bad(msg));
  const rotated = newPhone();
  const event = nextDeviceEvent(s, member.user_id);
  t.equal((await register(s, member, { device_id: deviceId, ...keyParams(bouncer, rotated) })).status, 200);
  t.same((await event).push_key_id, rotated.pushKeyId);
});

t.test('Sending the same registration again changes nothing and is not forwarded again', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const { deviceId, phone } = await activeDevice(s, member, bouncer);
  const before = await registerDevices(s, member);
  const forwarded = bouncer.requests.length;
  t.same((await register(s, member, allFields(bouncer, phone, deviceId))).body, { result: 'success', msg: '' });
  t.same(registerInProcess(s, member, { device_id: deviceId, ...tokenParams(bouncer, phone) }), {});
  t.same(registerInProcess(s, member, { device_id: deviceId, ...keyParams(bouncer, phone) }), {});
  t.same(await queuedEvents(s, member, before.queueId, before.lastEventId), [], 'no events');
  t.equal(bouncer.requests.length, forwarded, 'not forwarded');
});

t.test('Key rotation changes push_key_id and key at once, with a device event', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const { deviceId, phone } = await activeDevice(s, member, bouncer);
  const rotated = { ...phone, pushKey: newPushKey(), pushKeyId: (phone.pushKeyId + 1) % 2 ** 32 };
  const event = nextDeviceEvent(s, member.user_id);
  t.same(registerInProcess(s, member, { device_id: deviceId, ...keyParams(bouncer, rotated) }), {});
  t.same(await event, { id: (await event).id, type: 'device', op: 'update', device_id: deviceId, push_key_id: rotated.pushKeyId });
  t.match((await registerDevices(s, member)).devices[deviceId], { push_key_id: rotated.pushKeyId, push_token_id: phone.tokenId });
  bouncer.phoneKeys.delete(phone.pushKeyId);
  t.equal((await s.request('POST', '/mobile_push/e2ee/test_notification', { as: member })).status, 200);
  t.equal(bouncer.deliveries.at(-1)!.push_key_id, rotated.pushKeyId, 'payloads use the new key');
  t.same(bouncer.problems, []);
});

t.test('Token rotation registers the new token; the old one stays active until the bouncer confirms', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { push: { timeoutMs: 400 } });
  const { deviceId, phone } = await activeDevice(s, member, bouncer);
  const next = { ...newPhone(), pushKey: phone.pushKey, pushKeyId: phone.pushKeyId };
  bouncer.script.register.push('hang');
  const pending = nextDeviceEvent(s, member.user_id);
  t.equal((await register(s, member, { device_id: deviceId, ...tokenParams(bouncer, next) })).status, 200);
  t.match(await pending, { device_id: deviceId, pending_push_token_id: next.tokenId, push_registration_error_code: null });
  t.match((await registerDevices(s, member)).devices[deviceId], { push_token_id: phone.tokenId, pending_push_token_id: next.tokenId });
  t.match(await registrationSettled(s, member.user_id, deviceId), { push_token_id: next.tokenId, pending_push_token_id: null });
});

t.test('Network errors and 5xx are retried with backoff until the bouncer accepts', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { push: { timeoutMs: 400, retryDelaysMs: [5, 10, 20] } });
  bouncer.script.register.push('server_error', 'hang', 'server_error');
  await activeDevice(s, member, bouncer);
  t.equal(bouncer.requests.filter((r) => r.endpoint === 'register').length, 4, 'three failures, then success');
});

t.test('When the retries run out, the device fails with the error code of the last failure', async (t) => {
  const { s, bouncer, member } = await pushWorld(t);
  for (const [failure, code] of [
    ['server_error', 'INTERNAL_SERVER_ERROR_ON_BOUNCER'],
    ['missing_realm', 'ADMIN_ACTION_REQUIRED'],
    ['disallowed', 'ADMIN_ACTION_REQUIRED'],
  ] as const) {
    bouncer.mode.register = failure;
    const before = bouncer.requests.length;
    const deviceId = await newDevice(s, member);
    const settled = registrationSettled(s, member.user_id, deviceId);
    await register(s, member, allFields(bouncer, newPhone(), deviceId));
    t.match(await settled, { device_id: deviceId, push_registration_error_code: code }, failure);
    t.equal(bouncer.requests.length, before + 3, 'first attempt and two retries');
  }
  const wrongKey = await pushWorld(t, { push: { serverKey: 'not-the-key' } });
  const deviceId = await newDevice(wrongKey.s, wrongKey.member);
  const settled = registrationSettled(wrongKey.s, wrongKey.member.user_id, deviceId);
  await register(wrongKey.s, wrongKey.member, allFields(wrongKey.bouncer, newPhone(), deviceId));
  t.match(await settled, { push_registration_error_code: 'ADMIN_ACTION_REQUIRED' }, 'credentials rejected');
  await bouncer.close();
  const refused = await newDevice(s, member);
  const failed = registrationSettled(s, member.user_id, refused);
  await register(s, member, allFields(bouncer, newPhone(), refused));
  t.match(await failed, { push_registration_error_code: 'FAILED_TO_CONNECT_BOUNCER' }, 'connection refused');
  t.match((await registerDevices(s, member)).devices[refused], { push_token_id: null, push_registration_error_code: 'FAILED_TO_CONNECT_BOUNCER' });
});

t.test("A bouncer client error fails the registration at once with the bouncer's code; the device may register again", async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const phone = newPhone();
  const deviceId = await newDevice(s, member);
  const attempts: [Record<string, unknown>, string][] = [
    [{ bouncer_public_key: Buffer.alloc(32, 1).toString('base64') }, 'INVALID_BOUNCER_PUBLIC_KEY'],
    [{ encrypted_push_registration: Buffer.alloc(80, 2).toString('base64') }, 'INVALID_ENCRYPTED_PUSH_REGISTRATION'],
    [{ encrypted_push_registration: sealRegistration(bouncer, phone, Math.floor(Date.now() / 1000) - 2 * 86400) }, 'REQUEST_EXPIRED'],
  ];
  for (const [override, code] of attempts) {
    const before = bouncer.requests.length;
    const settled = registrationSettled(s, member.user_id, deviceId);
    t.equal((await register(s, member, { ...allFields(bouncer, phone, deviceId), ...override })).status, 200);
    t.match(await settled, { device_id: deviceId, push_registration_error_code: code }, code);
    t.equal(bouncer.requests.length, before + 1, 'not retried');
  }
  const settled = registrationSettled(s, member.user_id, deviceId);
  await register(s, member, allFields(bouncer, phone, deviceId));
  t.match(await settled, { push_token_id: phone.tokenId });
  t.match((await registerDevices(s, member)).devices[deviceId], { push_token_id: phone.tokenId, push_registration_error_code: null });
});

t.test('A registration still pending when the server stops is resumed by the next server on the database', async (t) => {
  const { s, bouncer, member } = await pushWorld(t, { push: { timeoutMs: 60_000 } });
  const phone = newPhone();
  const deviceId = await newDevice(s, member);
  bouncer.mode.register = 'hang';
  await register(s, member, allFields(bouncer, phone, deviceId));
  while (bouncer.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await s.chat.close();
  bouncer.mode.register = 'ok';
  const push = { bouncerUrl: bouncer.url, serverId: bouncer.serverId, serverKey: bouncer.serverKey };
  const settled: Promise<DeliveredEvent> = new Promise((resolve) => {
    const next = createChatServer(s.db, { push, logger: contextOf(s.chat).logger });
    const stop = next.events.subscribe(member.user_id, (event) => {
      if (event.push_token_id === phone.tokenId) {
        stop();
        void next.close().then(() => resolve(event));
      }
    }, { afterEventId: 0 });
  });
  t.match(await settled, { device_id: deviceId, pending_push_token_id: null });
  t.equal(bouncer.requests.length, 2, 'sent again by the new server');
});

t.test('device events match their schemas, and applying them to the state fetched before equals a fresh fetch', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const before = await registerDevices(s, member);
  const { deviceId, phone } = await activeDevice(s, member, bouncer, 'apns');
  const { deviceId: second, phone: secondPhone } = await activeDevice(s, member, bouncer, 'fcm');
  registerInProcess(s, member, { device_id: deviceId, ...keyParams(bouncer, { ...phone, pushKey: newPushKey(), pushKeyId: 7 }) });
  const rotated = registrationSettled(s, member.user_id, deviceId);
  registerInProcess(s, member, { device_id: deviceId, ...tokenParams(bouncer, newPhone('apns')) });
  await rotated;
  const third = await newDevice(s, member);
  const failed = registrationSettled(s, member.user_id, third);
  registerInProcess(s, member, { ...allFields(bouncer, newPhone(), third), bouncer_public_key: 'AAAA' });
  await failed;
  bouncer.deleteTokenIds.add(secondPhone.tokenId);
  const cleared = nextDeviceEvent(s, member.user_id, (e) => e.device_id === second);
  t.equal((await s.request('POST', '/mobile_push/e2ee/test_notification', { as: member })).status, 200);
  t.same(await cleared, { id: (await cleared).id, type: 'device', op: 'update', device_id: second, push_token_id: null });

  t.equal((await s.request('POST', '/remove_client_device', { as: member, params: { device_id: third } })).status, 200);

  const events = await queuedEvents(s, member, before.queueId, before.lastEventId);
  t.ok(events.length >= 11, `${events.length} events`);
  for (const event of events) {
    const op = (event as { op: string }).op;
    const schema = op === 'add' ? deviceAddEvent : op === 'remove' ? deviceRemoveEvent : deviceUpdateEvent;
    t.ok(schema.safeParse(event).success, `schema of ${JSON.stringify(event)}`);
  }
  t.same(applyDeviceEvents(before.devices, events), (await registerDevices(s, member)).devices);
  t.same(bouncer.problems, []);
});

t.test('POST /remove_client_device removes the device with its key and token: nothing is pushed to it any more', async (t) => {
  const { s, bouncer, member } = await sharedWorld();
  const other = await s.user('member');
  const { deviceId } = await activeDevice(s, member, bouncer);
  const removed = nextDeviceEvent(s, member.user_id, (e) => e.op === 'remove');
  isError(t, await s.request('POST', '/remove_client_device', { as: other, params: { device_id: deviceId } }), bad('Invalid `device_id`'));
  t.same((await s.request('POST', '/remove_client_device', { as: member, params: { device_id: deviceId } })).body, { result: 'success', msg: '' });
  t.same(await removed, { id: (await removed).id, type: 'device', op: 'remove', device_id: deviceId });
  t.equal(s.db.prepare('SELECT count(*) FROM device WHERE id = ?').pluck().get(deviceId), 0, 'the row, its key and token, are gone');
  t.same((await registerDevices(s, member)).devices[deviceId], undefined);
  isError(t, await s.request('POST', '/remove_client_device', { as: member, params: { device_id: deviceId } }), bad('Invalid `device_id`'));
  await throwsApiError(t, () => s.chat.api.push.removeClientDevice(member.user_id, { deviceId }), bad('Invalid `device_id`'));
  isError(t, await s.request('POST', '/mobile_push/e2ee/test_notification', { as: member }), NO_ACTIVE);
});

t.test('The push key never appears in a log line or an error message', async (t) => {
  const lines: string[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(JSON.stringify({ level, message, ...fields }));
  const logger = { info: log('info'), warn: log('warn'), error: log('error') };
  const { s, bouncer, member } = await pushWorld(t, { chat: { logger }, push: { timeoutMs: 400, retryDelaysMs: [5, 5, 5] } });
  const phone = newPhone();
  const deviceId = await newDevice(s, member);
  const replies: string[] = [];
  bouncer.script.register.push('server_error', 'hang', 'disallowed');
  replies.push(JSON.stringify((await register(s, member, { ...allFields(bouncer, phone, deviceId), push_key: phone.pushKey.toString('hex') })).body));
  const settled = registrationSettled(s, member.user_id, deviceId);
  replies.push(JSON.stringify((await register(s, member, allFields(bouncer, phone, deviceId))).body));
  await settled;
  for (const mode of ['server_error', 'missing_realm', 'hang', { status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: 'nope' } }] as const) {
    bouncer.script.notify.push(mode);
    replies.push(JSON.stringify((await s.request('POST', '/mobile_push/e2ee/test_notification', { as: member })).body));
  }
  t.ok(lines.length >= 6, `${lines.length} log lines`);
  const forms = [phone.pushKey.toString('base64'), phone.pushKey.toString('hex'), phone.pushKey.subarray(1).toString('base64'), phone.pushKey.subarray(1).toString('hex')];
  for (const text of [...lines, ...replies]) for (const form of forms) t.notOk(text.includes(form), 'no key in ' + text.slice(0, 80));
  t.notOk(lines.join('\n').includes(bouncer.serverKey), 'nor the server key');
});

t.test('pushOptionsFromEnv reads PARLEY_PUSH_* and names a bad setting without its value', async (t) => {
  t.equal(pushOptionsFromEnv({}), undefined, 'no bouncer URL: push off');
  t.equal(pushOptionsFromEnv({ PARLEY_PUSH_BOUNCER_URL: '  ' }), undefined, 'blank counts as unset');
  t.same(
    pushOptionsFromEnv({ PARLEY_PUSH_BOUNCER_URL: 'https://push.example.com/', PARLEY_PUSH_SERVER_ID: 'id-1', PARLEY_PUSH_SERVER_KEY: 'sekrit', PARLEY_PUSH_TIMEOUT_MS: '5000' }),
    { bouncerUrl: 'https://push.example.com', serverId: 'id-1', serverKey: 'sekrit', timeoutMs: 5000 },
  );
  t.throws(() => pushOptionsFromEnv({ PARLEY_PUSH_BOUNCER_URL: 'ftp://x', PARLEY_PUSH_SERVER_ID: 'a', PARLEY_PUSH_SERVER_KEY: 'b' }), /must be an http or https URL/);
  t.throws(() => pushOptionsFromEnv({ PARLEY_PUSH_BOUNCER_URL: 'not a url' }), /PARLEY_PUSH_BOUNCER_URL is not a valid URL/);
  t.throws(() => pushOptionsFromEnv({ PARLEY_PUSH_BOUNCER_URL: 'https://x', PARLEY_PUSH_SERVER_KEY: 'sekrit' }), /PARLEY_PUSH_SERVER_ID is required/);
  try {
    pushOptionsFromEnv({ PARLEY_PUSH_BOUNCER_URL: 'https://x', PARLEY_PUSH_SERVER_ID: 'a', PARLEY_PUSH_SERVER_KEY: 'sekrit', PARLEY_PUSH_TIMEOUT_MS: 'soon' });
    t.fail('expected an error');
  } catch (error) {
    t.match(String(error), /PARLEY_PUSH_TIMEOUT_MS must be a positive integer/);
    t.notMatch(String(error), /sekrit/);
  }
});
