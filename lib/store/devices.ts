// SQL for the device table: client devices and their E2EE push registration state.
import type { Store } from './db.js';

export interface DeviceRow {
  id: number;
  user_id: number;
  push_key: Buffer | null;
  push_key_id: number | null;
  push_token_id: string | null;
  pending_push_token_id: string | null;
  push_token_kind: 'fcm' | 'apns' | null;
  push_token_last_updated_timestamp: number | null;
  push_registration_error_code: string | null;
  bouncer_public_key: string | null;
  encrypted_push_registration: string | null;
  date_created: number;
}

export function insertDevice(s: Store, userId: number, dateCreated: number): number {
  return Number(s.run('INSERT INTO device (user_id, date_created) VALUES (?, ?)', userId, dateCreated).lastInsertRowid);
}

export function selectDevice(s: Store, id: number): DeviceRow | undefined {
  return s.get<DeviceRow>('SELECT * FROM device WHERE id = ?', id);
}

export function selectUserDevice(s: Store, userId: number, id: number): DeviceRow | undefined {
  return s.get<DeviceRow>('SELECT * FROM device WHERE id = ? AND user_id = ?', id, userId);
}

export function selectUserDevices(s: Store, userId: number): DeviceRow[] {
  return s.all<DeviceRow>('SELECT * FROM device WHERE user_id = ? ORDER BY id', userId);
}

/** Devices registered with the bouncer (push_token_id set), all of a user's or one. */
export function selectPushableDevices(s: Store, userId: number, deviceId: number | null): DeviceRow[] {
  if (deviceId === null) {
    return s.all<DeviceRow>('SELECT * FROM device WHERE user_id = ? AND push_token_id IS NOT NULL ORDER BY id', userId);
  }
  return s.all<DeviceRow>('SELECT * FROM device WHERE id = ? AND user_id = ? AND push_token_id IS NOT NULL', deviceId, userId);
}

export function deleteDevice(s: Store, id: number): void {
  s.run('DELETE FROM device WHERE id = ?', id);
}

export function updateDevicePushKey(s: Store, id: number, pushKey: Buffer, pushKeyId: number): void {
  s.run('UPDATE device SET push_key = ?, push_key_id = ? WHERE id = ?', pushKey, pushKeyId, id);
}

/** Starts a registration: the token becomes pending, any earlier error is cleared. */
export function updateDevicePendingToken(
  s: Store,
  id: number,
  r: { tokenId: string; updatedAt: number; bouncerPublicKey: string; encryptedPushRegistration: string; tokenKind?: 'fcm' | 'apns' },
): void {
  s.run(
    `UPDATE device SET pending_push_token_id = ?, push_token_last_updated_timestamp = ?, push_registration_error_code = NULL,
       bouncer_public_key = ?, encrypted_push_registration = ?, push_token_kind = coalesce(?, push_token_kind)
     WHERE id = ?`,
    r.tokenId,
    r.updatedAt,
    r.bouncerPublicKey,
    r.encryptedPushRegistration,
    r.tokenKind ?? null,
    id,
  );
}

/** The bouncer accepted the pending token: it becomes the device's token. */
export function updateDeviceTokenActive(s: Store, id: number): void {
  s.run(
    `UPDATE device SET push_token_id = pending_push_token_id, pending_push_token_id = NULL,
       bouncer_public_key = NULL, encrypted_push_registration = NULL
     WHERE id = ?`,
    id,
  );
}

export function updateDeviceTokenFailed(s: Store, id: number, errorCode: string): void {
  s.run(
    `UPDATE device SET push_registration_error_code = ?, bouncer_public_key = NULL, encrypted_push_registration = NULL
     WHERE id = ?`,
    errorCode,
    id,
  );
}

/** The bouncer reported these tokens deleted; returns the ids of the devices that had one. */
export function clearDeviceTokens(s: Store, userId: number, tokenIds: readonly string[]): number[] {
  const cleared: number[] = [];
  for (const tokenId of tokenIds) {
    const ids = s
      .prepare('UPDATE device SET push_token_id = NULL WHERE user_id = ? AND push_token_id = ? RETURNING id')
      .pluck()
      .all(userId, tokenId) as number[];
    cleared.push(...ids);
  }
  return cleared;
}
