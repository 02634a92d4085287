// The bouncer side of E2EE push: the client configuration from options.push, bouncer failures as
// the API's errors, and forwarding device registrations to the bouncer after they commit, with
// retries and backoff; the outcome is kept on the device row and announced by a `device` event.
import type { Ctx } from '../context.js';
import type { TimerHandle } from '../timers.js';
import { ApiError, badRequest } from '../errors.js';
import { BouncerFailure, registerWithBouncer, type BouncerConfig } from '../push/bouncer.js';
import {
  selectDevice,
  selectForwardingDevices,
  updateDeviceTokenActive,
  updateDeviceTokenFailed,
  type DeviceRow,
} from '../store/devices.js';
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

interface Forwarding {
  stopped: boolean;
  readonly abort: AbortController;
  readonly timers: Set<TimerHandle>;
  /** Devices with a forwarding loop in this process. */
  readonly devices: Set<number>;
}

const forwardings = new WeakMap<Ctx, Forwarding>();

function forwardingOf(ctx: Ctx): Forwarding {
  let state = forwardings.get(ctx);
  if (!state) {
    state = { stopped: false, abort: new AbortController(), timers: new Set(), devices: new Set() };
    forwardings.set(ctx, state);
  }
  return state;
}

/** Stops every retry of this server (createChatServer's close). Registrations stay pending in the database. */
export function stopPushForwarding(ctx: Ctx): void {
  const state = forwardingOf(ctx);
  state.stopped = true;
  state.abort.abort();
  for (const timer of state.timers) timer.cancel();
  state.timers.clear();
}

/** Resumes the registrations a previous run left pending (they are rows, so they survive a restart). */
export function resumePushForwarding(ctx: Ctx): void {
  if (!bouncerConfig(ctx)) return;
  for (const device of selectForwardingDevices(ctx.store)) startForwarding(ctx, device.id);
}

/** Starts forwarding a committed registration; returns at once. Never call inside a transaction. */
export function startForwarding(ctx: Ctx, deviceId: number): void {
  const state = forwardingOf(ctx);
  if (state.stopped || state.devices.has(deviceId)) return;
  state.devices.add(deviceId);
  forward(ctx, state, deviceId)
    .catch((error: unknown) => ctx.logger.error('push device registration crashed', { device_id: deviceId, error: String(error) }))
    .finally(() => state.devices.delete(deviceId));
}

/** Resolves after `ms` of ctx.timers, or never when the server stops first. */
function sleep(ctx: Ctx, state: Forwarding, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = ctx.timers.after(ms, () => {
      state.timers.delete(timer);
      resolve();
    });
    state.timers.add(timer);
  });
}

/** The code a device keeps when parley gives up retrying. */
function exhaustedCode(failure: BouncerFailure): string {
  if (failure.kind === 'network') return 'FAILED_TO_CONNECT_BOUNCER';
  if (failure.kind === 'server') return 'INTERNAL_SERVER_ERROR_ON_BOUNCER';
  return 'ADMIN_ACTION_REQUIRED';
}

async function forward(ctx: Ctx, state: Forwarding, deviceId: number): Promise<void> {
  const delays = ctx.options.push?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    const config = bouncerConfig(ctx);
    if (state.stopped || !ctx.db.open || !config) return;
    const device = selectDevice(ctx.store, deviceId);
    if (!device || !isForwarding(device)) return;
    try {
      await registerWithBouncer(
        config,
        {
          realm_uuid: getRealm(ctx).uuid,
          token_id: device.pending_push_token_id!,
          bouncer_public_key: device.bouncer_public_key!,
          encrypted_push_registration: device.encrypted_push_registration!,
        },
        state.abort.signal,
      );
    } catch (error) {
      if (!(error instanceof BouncerFailure)) throw error;
      if (state.stopped || !ctx.db.open) return;
      const fields = { device_id: deviceId, user_id: device.user_id, kind: error.kind, code: error.code, attempt: attempt + 1 };
      // Zulip also retries the failures an administrator must fix: they may be fixed meanwhile.
      if (error.kind !== 'client' && attempt < delays.length) {
        ctx.logger[error.transient ? 'warn' : 'error']('push device registration failed; will retry', fields);
        await sleep(ctx, state, delays[attempt]!);
        continue;
      }
      ctx.logger.error('push device registration failed', fields);
      finish(ctx, device, error.kind === 'client' ? error.code : exhaustedCode(error));
      return;
    }
    if (state.stopped || !ctx.db.open) return;
    finish(ctx, device, null);
    return;
  }
}

function isForwarding(device: DeviceRow): boolean {
  return device.encrypted_push_registration !== null && device.pending_push_token_id !== null;
}

/** Records the outcome unless the registration changed meanwhile (another process, a newer one). */
function finish(ctx: Ctx, started: DeviceRow, errorCode: string | null): void {
  ctx.tx(() => {
    const device = selectDevice(ctx.store, started.id);
    if (!device || !isForwarding(device) || device.pending_push_token_id !== started.pending_push_token_id) return;
    if (errorCode === null) {
      updateDeviceTokenActive(ctx.store, device.id);
      appendDeviceUpdate(ctx, device, { push_token_id: device.pending_push_token_id, pending_push_token_id: null });
    } else {
      updateDeviceTokenFailed(ctx.store, device.id, errorCode);
      appendDeviceUpdate(ctx, device, { push_registration_error_code: errorCode });
    }
  });
}
