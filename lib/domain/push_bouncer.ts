// The bouncer side of E2EE push: the client configuration from options.push, bouncer failures as
// the API's errors, and forwarding device registrations to the bouncer after they commit (the
// push_registration delivery, with retries and back-off); the outcome is kept on the device row
// and announced by a `device` event.
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { enqueueDelivery, type DeliveryKind } from '../deliveries/outbox.js';
import { BouncerFailure, DEFAULT_BOUNCER_TIMEOUT_MS, registerWithBouncer, type BouncerConfig } from '../push/bouncer.js';
import { selectDevice, updateDeviceTokenActive, updateDeviceTokenFailed, type DeviceRow } from '../store/devices.js';
import { getRealm, pushConfigured, ZULIP_VERSION } from './realm.js';
import type { DeviceChange } from './device_dicts.js';
import { emit } from './event_types.js';

/** Zulip retries until the registration expires (24 h); parley gives up after these delays. */
const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000];

export function bouncerConfig(ctx: Ctx): BouncerConfig | undefined {
  const push = ctx.options.push;
  if (!pushConfigured(ctx) || !push?.bouncerUrl) return undefined;
  return {
    url: push.bouncerUrl,
    serverId: push.serverId ?? '',
    serverKey: push.serverKey ?? '',
    fetch: push.fetch,
    timeoutMs: push.timeoutMs,
    userAgent: `ZulipServer/${ZULIP_VERSION}`,
  };
}

export function pushNotConfigured(): ApiError {
  return new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.');
}

/** The messages of the E2EE test notification's bouncer failures (parley's wording; Zulip's differs slightly). */
export function bouncerApiError(failure: BouncerFailure): ApiError {
  switch (failure.kind) {
    case 'network':
      return new ApiError('FAILED_TO_CONNECT_BOUNCER', 'Network error while connecting to the push notification service.');
    case 'server':
      return new ApiError('INTERNAL_SERVER_ERROR_ON_BOUNCER', 'Internal server error on the push notification service, retry later.');
    case 'client':
      return badRequest(failure.message);
    default:
      return new ApiError(
        'ADMIN_ACTION_REQUIRED',
        'Push notification configuration issue on server, contact the server administrator or retry later.',
      );
  }
}

/** Appends a `device` update event with the changed fields. Call inside ctx.tx. */
export function appendDeviceUpdate(ctx: Ctx, device: Pick<DeviceRow, 'id' | 'user_id'>, fields: DeviceChange): void {
  emit(ctx, [device.user_id], { type: 'device', op: 'update', device_id: device.id, ...fields });
}

/** A registration to forward: the device, and the token it was pending with when written. */
interface RegistrationPayload {
  device_id: number;
  token_id: string;
}

/** The code a device keeps when parley gives up retrying. */
function exhaustedCode(failure: BouncerFailure): string {
  if (failure.kind === 'network') return 'FAILED_TO_CONNECT_BOUNCER';
  if (failure.kind === 'server') return 'INTERNAL_SERVER_ERROR_ON_BOUNCER';
  return 'ADMIN_ACTION_REQUIRED';
}

const isForwarding = (device: DeviceRow | undefined, tokenId: string): device is DeviceRow =>
  device !== undefined && device.encrypted_push_registration !== null && device.pending_push_token_id === tokenId;

/**
 * Registrations forwarded to the bouncer after the transaction that stored them commits (a
 * delivery, lib/deliveries/): network errors, 5xx and the errors an administrator must fix are
 * retried after each of push.retryDelaysMs (Zulip retries those too: they may be fixed
 * meanwhile); the bouncer's other refusals fail at once. The outcome is kept on the device row.
 */
export const pushRegistrationDelivery: DeliveryKind<RegistrationPayload> = {
  name: 'push_registration',
  enabled: (ctx) => bouncerConfig(ctx) !== undefined,
  timeoutMs: (ctx) => ctx.options.push?.timeoutMs ?? DEFAULT_BOUNCER_TIMEOUT_MS,
  retryDelaysMs: (ctx) => ctx.options.push?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  async send(ctx, { payload, signal }) {
    const device = selectDevice(ctx.store, payload.device_id);
    // A newer registration replaced this one, or it was settled meanwhile: nothing left to do.
    if (!isForwarding(device, payload.token_id)) return { status: 'sent' };
    try {
      await registerWithBouncer(
        bouncerConfig(ctx)!,
        {
          realm_uuid: getRealm(ctx).uuid,
          token_id: payload.token_id,
          bouncer_public_key: device.bouncer_public_key!,
          encrypted_push_registration: device.encrypted_push_registration!,
        },
        signal,
      );
    } catch (error) {
      if (!(error instanceof BouncerFailure)) throw error;
      const fields = { device_id: device.id, user_id: device.user_id, kind: error.kind, code: error.code };
      if (error.kind === 'client') {
        ctx.logger.error('push device registration refused by the bouncer', fields);
        return { status: 'failed', reason: `bouncer refused the registration (${error.code})`, code: error.code };
      }
      return { status: 'retry', reason: `push bouncer: ${error.kind}`, code: exhaustedCode(error) };
    }
    finish(ctx, payload, null);
    return { status: 'sent' };
  },
  failed(ctx, payload, failure) {
    finish(ctx, payload, failure.code ?? 'FAILED_TO_CONNECT_BOUNCER');
  },
};

/** Forwards a device's new registration after the caller's transaction commits. Call inside ctx.tx. */
export function forwardRegistration(ctx: Ctx, deviceId: number, tokenId: string): void {
  enqueueDelivery(ctx, pushRegistrationDelivery, { device_id: deviceId, token_id: tokenId }, { key: String(deviceId), onPending: 'replace' });
}

/** Records the outcome unless the registration changed meanwhile (another process, a newer one). */
function finish(ctx: Ctx, payload: RegistrationPayload, errorCode: string | null): void {
  ctx.tx(() => {
    const device = selectDevice(ctx.store, payload.device_id);
    if (!isForwarding(device, payload.token_id)) return;
    if (errorCode === null) {
      updateDeviceTokenActive(ctx.store, device.id);
      appendDeviceUpdate(ctx, device, { push_token_id: device.pending_push_token_id, pending_push_token_id: null });
    } else {
      updateDeviceTokenFailed(ctx.store, device.id, errorCode);
      appendDeviceUpdate(ctx, device, { push_registration_error_code: errorCode });
    }
  });
}
