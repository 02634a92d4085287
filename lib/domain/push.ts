// Client devices and their E2EE push registration (Zulip FL 468+): POST /register_client_device,
// POST /remove_client_device, POST /mobile_push/register, the `devices` state of POST /register
// and the `device` events.
// The test notification is in push_notify.ts; talking to the bouncer is in push_bouncer.ts.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import type { StateOptions } from './state_options.js';
import { decodeStandardBase64, parsePushKey } from '../push/crypto.js';
import {
  deleteDevice,
  insertDevice,
  selectUserDevice,
  selectUserDevices,
  updateDevicePendingToken,
  updateDevicePushKey,
  type DeviceRow,
} from '../store/devices.js';
import { appendDeviceUpdate, bouncerConfig, forwardRegistration, pushNotConfigured } from './push_bouncer.js';
import type { Actor } from './roles.js';
import type { DeviceInfo, DeviceState, NewDevice } from './device_dicts.js';
import { emit } from './event_types.js';

/** A device as the `devices` state of POST /register shows it. */
function deviceInfo(row: DeviceRow): DeviceInfo {
  return {
    push_key_id: row.push_key_id,
    push_token_id: row.push_token_id,
    pending_push_token_id: row.pending_push_token_id,
    push_token_last_updated_timestamp: row.push_token_last_updated_timestamp,
    push_registration_error_code: row.push_registration_error_code,
  };
}

/** POST /register state: `devices`, the caller's devices keyed by id (as a string). */
export function fetchDeviceState(ctx: Ctx, actor: Actor, _options: StateOptions): DeviceState {
  const devices: Record<string, DeviceInfo> = {};
  for (const row of selectUserDevices(ctx.store, actor.id)) devices[String(row.id)] = deviceInfo(row);
  return { devices };
}

/**
 * POST /remove_client_device (Zulip FL 470; the mobile app calls it when logging out): the
 * device goes with its push key and token, so nothing is pushed to it any more; a registration
 * still being forwarded is dropped.
 */
export function removeClientDevice(ctx: Ctx, actor: Actor, input: { deviceId: number }): Record<string, never> {
  return ctx.tx(() => {
    const device = selectUserDevice(ctx.store, actor.id, input.deviceId);
    if (!device) throw badRequest('Invalid `device_id`');
    deleteDevice(ctx.store, device.id);
    emit(ctx, [actor.id], { type: 'device', op: 'remove', device_id: device.id });
    return {};
  });
}

/** POST /register_client_device: a new device of the caller. */
export function registerClientDevice(ctx: Ctx, actor: Actor): NewDevice {
  return ctx.tx(() => {
    const deviceId = insertDevice(ctx.store, actor.id, ctx.now());
    emit(ctx, [actor.id], { type: 'device', op: 'add', device_id: deviceId });
    return { device_id: deviceId };
  });
}

export interface PushRegistrationInput {
  deviceId: number;
  pushKey?: string | undefined;
  pushKeyId?: number | undefined;
  tokenKind?: 'fcm' | 'apns' | undefined;
  tokenId?: string | undefined;
  bouncerPublicKey?: string | undefined;
  encryptedPushRegistration?: string | undefined;
}

function checkPushKey(text: string): Buffer {
  const key = parsePushKey(text);
  if (!key) throw badRequest('Invalid `push_key`');
  return key;
}

/** Base64 of the first 8 bytes of SHA-256(token), kept in canonical form so equal ids compare equal. */
function checkTokenId(text: string): string {
  const bytes = decodeStandardBase64(text);
  if (!bytes || bytes.length !== 8) throw badRequest('Invalid `token_id`');
  return bytes.toString('base64');
}

const sameKey = (device: DeviceRow, key: Buffer, keyId: number): boolean =>
  device.push_key_id === keyId && device.push_key !== null && key.equals(device.push_key);

/**
 * POST /mobile_push/register: all fields (a registration), only push_key and push_key_id (key
 * rotation) or only the four token fields (token rotation). A new token is forwarded to the
 * bouncer after the transaction commits (a delivery); the answer does not wait for it.
 */
export function registerPushDevice(ctx: Ctx, actor: Actor, input: PushRegistrationInput): Record<string, never> {
  if (!bouncerConfig(ctx)) throw pushNotConfigured();
  return ctx.tx(() => {
    const device = selectUserDevice(ctx.store, actor.id, input.deviceId);
    if (!device) throw badRequest('Invalid `device_id`');
    const { pushKey, pushKeyId, tokenKind, tokenId, bouncerPublicKey, encryptedPushRegistration } = input;
    const keyFields = pushKey !== undefined && pushKeyId !== undefined;
    const tokenFields =
      bouncerPublicKey !== undefined && encryptedPushRegistration !== undefined && tokenId !== undefined && tokenKind !== undefined;
    if (!tokenFields) {
      if (!keyFields) throw badRequest('Missing parameters: must provide either all push key fields, all token fields, or both.');
      if (device.push_key_id === null) throw badRequest('No push registration exists to rotate key for.');
      const key = checkPushKey(pushKey);
      if (!sameKey(device, key, pushKeyId)) {
        updateDevicePushKey(ctx.store, device.id, key, pushKeyId);
        appendDeviceUpdate(ctx, device, { push_key_id: pushKeyId });
      }
      return {};
    }
    // One registration at a time per device: a second one could race the first at the bouncer.
    if (device.push_registration_error_code === null && device.pending_push_token_id !== null) {
      throw badRequest('A registration for the device already in progress.');
    }
    const canonicalTokenId = checkTokenId(tokenId);
    const registration = {
      tokenId: canonicalTokenId,
      updatedAt: ctx.now(),
      bouncerPublicKey: bouncerPublicKey,
      encryptedPushRegistration: encryptedPushRegistration,
    };
    const pending = {
      pending_push_token_id: canonicalTokenId,
      push_token_last_updated_timestamp: registration.updatedAt,
      push_registration_error_code: null,
    };
    if (!keyFields) {
      if (device.push_key_id === null) throw badRequest('No push registration exists to rotate token for.');
      if (device.push_registration_error_code === null && device.push_token_id === canonicalTokenId) return {};
      updateDevicePendingToken(ctx.store, device.id, registration);
      appendDeviceUpdate(ctx, device, pending);
      forwardRegistration(ctx, device.id, canonicalTokenId);
      return {};
    }
    const key = checkPushKey(pushKey);
    const unchanged =
      device.push_registration_error_code === null &&
      sameKey(device, key, pushKeyId) &&
      device.push_token_id === canonicalTokenId &&
      device.push_token_kind === tokenKind;
    if (unchanged) return {};
    updateDevicePushKey(ctx.store, device.id, key, pushKeyId);
    updateDevicePendingToken(ctx.store, device.id, { ...registration, tokenKind: tokenKind });
    appendDeviceUpdate(ctx, device, { push_key_id: pushKeyId, ...pending });
    forwardRegistration(ctx, device.id, canonicalTokenId);
    return {};
  });
}
