// POST /mobile_push/e2ee/test_notification: an E2EE test notification to one
// or all of the caller's devices registered with the bouncer. The devices are read in one
// transaction, the bouncer is called outside any transaction, and its answer is applied in a
// second one (tokens it deleted, the organization's push status).
import type { Ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { BouncerFailure, notifyThroughBouncer, type NotifyReply, type PushRequest } from '../push/bouncer.js';
import { encryptForDevice, NONCE_BYTES, sodiumReady } from '../push/crypto.js';
import { clearDeviceTokens, selectPushableDevices, type DeviceRow } from '../store/devices.js';
import { updateRealmPushEnabled } from '../store/users.js';
import { appendDeviceUpdate, bouncerApiError, bouncerConfig, pushNotConfigured } from './push_bouncer.js';
import { getRealm } from './realm.js';
import type { Actor } from './roles.js';

function noActivePushDevice(): ApiError {
  return new ApiError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');
}

type PushableDevice = DeviceRow & { push_token_id: string; push_key: Buffer; push_key_id: number };

const isPushable = (device: DeviceRow): device is PushableDevice =>
  device.push_token_id !== null && device.push_key !== null && device.push_key_id !== null;

/** Zulip's send_push_notifications: APNs gets headers and an `aps` alert, FCM a priority. */
function pushRequest(device: PushableDevice, encryptedData: string): PushRequest {
  const payload = { push_key_id: device.push_key_id, encrypted_data: encryptedData };
  if (device.push_token_kind === 'apns') {
    return {
      token_id: device.push_token_id,
      http_headers: { apns_priority: 10, apns_push_type: 'alert' },
      payload: { ...payload, aps: { 'mutable-content': 1, alert: { title: 'New notification' } } },
    };
  }
  return { token_id: device.push_token_id, fcm_priority: 'high', payload };
}

export async function sendTestNotification(ctx: Ctx, actor: Actor, input: { deviceId?: number | undefined }): Promise<Record<string, never>> {
  const { devices, realm } = ctx.tx(() => ({
    devices: selectPushableDevices(ctx.store, actor.id, input.deviceId ?? null).filter(isPushable),
    realm: getRealm(ctx),
  }));
  if (devices.length === 0) throw noActivePushDevice();
  const config = bouncerConfig(ctx);
  if (!config) throw pushNotConfigured();

  await sodiumReady();
  const plaintext = JSON.stringify({ realm_url: realm.url, realm_name: realm.name, user_id: actor.id, type: 'test', time: ctx.now() });
  const pushRequests = devices.map((device) => pushRequest(device, encryptForDevice(device.push_key, plaintext, ctx.random(NONCE_BYTES))));

  let reply: NotifyReply;
  try {
    reply = await notifyThroughBouncer(config, { realm_uuid: realm.uuid, push_requests: pushRequests });
  } catch (error) {
    if (!(error instanceof BouncerFailure)) throw error;
    ctx.logger[error.transient ? 'warn' : 'error']('push test notification failed', {
      user_id: actor.id,
      device_ids: devices.map((d) => d.id),
      kind: error.kind,
      code: error.code,
    });
    if (error.kind === 'missing_realm' || error.kind === 'disallowed') {
      ctx.tx(() => updateRealmPushEnabled(ctx.store, false));
    }
    throw bouncerApiError(error);
  }

  const sentTokens = new Set(pushRequests.map((r) => r.token_id));
  const deleted = reply.delete_token_ids.filter((id) => sentTokens.has(id));
  const canPush = reply.realm_push_status?.can_push;
  const pushChanged = typeof canPush === 'boolean' && canPush !== getRealm(ctx).pushNotificationsEnabled;
  if (deleted.length > 0 || pushChanged) {
    ctx.tx(() => {
      for (const deviceId of clearDeviceTokens(ctx.store, actor.id, deleted)) {
        appendDeviceUpdate(ctx, { id: deviceId, user_id: actor.id }, { push_token_id: null });
      }
      if (pushChanged) updateRealmPushEnabled(ctx.store, canPush);
    });
  }
  if (new Set(deleted).size === sentTokens.size) throw noActivePushDevice();
  return {};
}
