// POST /mobile_push/e2ee/test_notification: an E2EE test notification to one
// or all of the caller's devices registered with the bouncer. The devices are read in one
// transaction, the bouncer is called outside any transaction, and its answer is applied in a
// second one (tokens it deleted, the organization's push status). Also what every E2EE push
// shares (lib/notifications/push.ts): the push requests and applying the bouncer's answer.
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

export type PushableDevice = DeviceRow & { push_token_id: string; push_key: Buffer; push_key_id: number };

export const isPushable = (device: DeviceRow): device is PushableDevice =>
  device.push_token_id !== null && device.push_key !== null && device.push_key_id !== null;

/**
 * Zulip's send_push_notifications: APNs gets headers and an `aps` alert, FCM a priority. A
 * removal goes at the lower priority: FCM normal, APNs 5 as a background push.
 */
function pushRequest(device: PushableDevice, encryptedData: string, removal = false): PushRequest {
  const payload = { push_key_id: device.push_key_id, encrypted_data: encryptedData };
  if (device.push_token_kind === 'apns') {
    if (removal) {
      return { token_id: device.push_token_id, http_headers: { apns_priority: 5, apns_push_type: 'background' }, payload: { ...payload, aps: { 'content-available': 1 } } };
    }
    return {
      token_id: device.push_token_id,
      http_headers: { apns_priority: 10, apns_push_type: 'alert' },
      payload: { ...payload, aps: { 'mutable-content': 1, alert: { title: 'New notification' } } },
    };
  }
  return { token_id: device.push_token_id, fcm_priority: removal ? 'normal' : 'high', payload };
}

/** Encrypts a payload for each device (a fresh nonce each) as its push request. Await sodiumReady() first. */
export function encryptedRequests(ctx: Ctx, devices: readonly PushableDevice[], plaintext: string, removal = false): PushRequest[] {
  return devices.map((device) => pushRequest(device, encryptForDevice(device.push_key, plaintext, ctx.random(NONCE_BYTES)), removal));
}

/**
 * Applies a notify answer in a transaction: the tokens the bouncer deleted leave their devices
 * (a `device` event each) and the organization's push status follows realm_push_status.
 * `sent` names whose token each request was for. Returns the deleted tokens that were sent.
 */
export function applyNotifyReply(ctx: Ctx, sent: readonly { userId: number; tokenId: string }[], reply: NotifyReply): Set<string> {
  const owners = new Map(sent.map((s) => [s.tokenId, s.userId]));
  const deleted = new Set(reply.delete_token_ids.filter((id) => owners.has(id)));
  const canPush = reply.realm_push_status?.can_push;
  const pushChanged = typeof canPush === 'boolean' && canPush !== getRealm(ctx).pushNotificationsEnabled;
  if (deleted.size > 0 || pushChanged) {
    ctx.tx(() => {
      for (const tokenId of deleted) {
        const userId = owners.get(tokenId)!;
        for (const deviceId of clearDeviceTokens(ctx.store, userId, [tokenId])) {
          appendDeviceUpdate(ctx, { id: deviceId, user_id: userId }, { push_token_id: null });
        }
      }
      if (pushChanged) updateRealmPushEnabled(ctx.store, canPush);
    });
  }
  return deleted;
}

/** A bouncer failure that tells the organization it may not push: remembered, as Zulip does. */
export function noteBouncerRefusal(ctx: Ctx, failure: BouncerFailure): void {
  if (failure.kind === 'missing_realm' || failure.kind === 'disallowed') ctx.tx(() => updateRealmPushEnabled(ctx.store, false));
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
  const pushRequests = encryptedRequests(ctx, devices, plaintext);

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
    noteBouncerRefusal(ctx, error);
    throw bouncerApiError(error);
  }

  const sent = pushRequests.map((r) => ({ userId: actor.id, tokenId: r.token_id }));
  const deleted = applyNotifyReply(ctx, sent, reply);
  if (deleted.size === new Set(sent.map((s) => s.tokenId)).size) throw noActivePushDevice();
  return {};
}
