// Parley-side helpers for the push tests: a server wired to a bouncer stand-in, device event
// schemas and how a client applies them, waiting for registrations, and error assertions.
import type { Test } from 'tap';
import { z } from 'zod';
import { type ChatOptions, type DeliveredEvent, type PushOptions } from '../lib/index.js';
import { keyParams, newPhone, startBouncer, tokenParams, type Phone, type StandInBouncer } from './bouncer.js';
import { startServer, type Reply, type TestServer, type TestUser } from './helpers.js';

import type { Expected } from './assertions.js';
export { bad, isError, throwsApiError, type Expected } from './assertions.js';

export const NO_ACTIVE: Expected = { status: 400, code: 'NO_ACTIVE_PUSH_DEVICE', msg: 'No active registered push device' };
export const ADMIN: Expected = {
  status: 403,
  code: 'ADMIN_ACTION_REQUIRED',
  msg: 'Push notification configuration issue on server, contact the server administrator or retry later.',
};
export const NO_CONNECTION: Expected = {
  status: 502,
  code: 'FAILED_TO_CONNECT_BOUNCER',
  msg: 'Network error while connecting to the push notification service.',
};
export const BOUNCER_5XX: Expected = {
  status: 502,
  code: 'INTERNAL_SERVER_ERROR_ON_BOUNCER',
  msg: 'Internal server error on the push notification service, retry later.',
};
export const NOT_CONFIGURED: Expected = {
  status: 400,
  code: 'PUSH_SERVICE_NOT_CONFIGURED',
  msg: 'Server is not configured to use push notification service.',
};

export interface PushWorld {
  s: TestServer;
  bouncer: StandInBouncer;
  member: TestUser;
}

/** A parley server using a fresh bouncer stand-in (push: false leaves push unconfigured). */
export async function pushWorld(
  t: { teardown(fn: () => Promise<void>): void },
  options: { push?: Partial<PushOptions> | false; chat?: ChatOptions } = {},
): Promise<PushWorld> {
  const bouncer = await startBouncer();
  const push: PushOptions | undefined =
    options.push === false
      ? undefined
      : { bouncerUrl: bouncer.url, serverId: bouncer.serverId, serverKey: bouncer.serverKey, retryDelaysMs: [5, 5], timeoutMs: 2000, ...options.push };
  const s = await startServer({ ...options.chat, push });
  t.teardown(async () => {
    await s.close();
    await bouncer.close();
  });
  return { s, bouncer, member: await s.user('member') };
}

const nullableString = z.string().nullable();
export const deviceInfoSchema = z
  .object({
    push_key_id: z.int().nullable(),
    push_token_id: nullableString,
    pending_push_token_id: nullableString,
    push_token_last_updated_timestamp: z.int().nullable(),
    push_registration_error_code: nullableString,
  })
  .strict();
export const deviceAddEvent = z.object({ id: z.int(), type: z.literal('device'), op: z.literal('add'), device_id: z.int() }).strict();
export const deviceUpdateEvent = z
  .object({
    id: z.int(),
    type: z.literal('device'),
    op: z.literal('update'),
    device_id: z.int(),
    push_key_id: z.int().min(0).max(2 ** 32 - 1).optional(),
    push_token_id: nullableString.optional(),
    pending_push_token_id: nullableString.optional(),
    push_token_last_updated_timestamp: z.int().optional(),
    push_registration_error_code: nullableString.optional(),
  })
  .strict();
export const deviceRemoveEvent = z.object({ id: z.int(), type: z.literal('device'), op: z.literal('remove'), device_id: z.int() }).strict();
export const deviceEvent = z.union([deviceAddEvent, deviceUpdateEvent, deviceRemoveEvent]);

export type DeviceState = Record<string, z.infer<typeof deviceInfoSchema>>;

/** What a client does with `device` events to its `devices` state. */
export function applyDeviceEvents(state: DeviceState, events: readonly unknown[]): DeviceState {
  const next: DeviceState = structuredClone(state);
  for (const raw of events) {
    const event = deviceEvent.parse(raw);
    if (event.op === 'remove') {
      delete next[String(event.device_id)];
    } else if (event.op === 'add') {
      next[String(event.device_id)] = {
        push_key_id: null,
        push_token_id: null,
        pending_push_token_id: null,
        push_token_last_updated_timestamp: null,
        push_registration_error_code: null,
      };
    } else {
      const { id: _id, type: _type, op: _op, device_id, ...fields } = event;
      Object.assign(next[String(device_id)]!, fields);
    }
  }
  return next;
}

/** POST /register for device state and events only. */
export async function registerDevices(s: TestServer, user: TestUser): Promise<{ queueId: string; lastEventId: number; devices: DeviceState }> {
  const reply = await s.request('POST', '/register', { as: user, params: { event_types: ['device'] } });
  const devices = z.record(z.string(), deviceInfoSchema).parse(reply.body.devices);
  return { queueId: reply.body.queue_id, lastEventId: reply.body.last_event_id, devices };
}

export async function queuedEvents(s: TestServer, user: TestUser, queueId: string, lastEventId: number): Promise<unknown[]> {
  const reply = await s.request('GET', '/events', { as: user, params: { queue_id: queueId, last_event_id: lastEventId, dont_block: true } });
  return reply.body.events as unknown[];
}

/** Resolves with the user's next `device` event that matches; call before causing it. */
export function nextDeviceEvent(s: TestServer, userId: number, match: (event: DeliveredEvent) => boolean = () => true): Promise<DeliveredEvent> {
  return new Promise((resolve) => {
    let found: DeliveredEvent | undefined;
    let stop: (() => void) | undefined;
    stop = s.chat.events.subscribe(
      userId,
      (event) => {
        if (found || !match(event)) return;
        found = event;
        stop?.();
        resolve(event);
      },
      { eventTypes: ['device'] },
    );
    if (found) stop();
  });
}

/** The event that ends a device's registration: its token became active, or it failed. */
export function registrationSettled(s: TestServer, userId: number, deviceId: number): Promise<DeliveredEvent> {
  return nextDeviceEvent(
    s,
    userId,
    (e) => e.device_id === deviceId && ((typeof e.push_token_id === 'string') || typeof e.push_registration_error_code === 'string'),
  );
}

/** A new device of `user`, registered with the stand-in and active, with the phone behind it. */
export async function activeDevice(
  s: TestServer,
  user: TestUser,
  bouncer: StandInBouncer,
  kind: 'fcm' | 'apns' = 'fcm',
): Promise<{ deviceId: number; phone: Phone }> {
  const phone = newPhone(kind);
  const created = await s.request('POST', '/register_client_device', { as: user });
  const deviceId = created.body.device_id as number;
  const settled = registrationSettled(s, user.user_id, deviceId);
  const registered = await s.request('POST', '/mobile_push/register', {
    as: user,
    params: { device_id: deviceId, ...keyParams(bouncer, phone), ...tokenParams(bouncer, phone) },
  });
  if (registered.status !== 200) throw new Error(`registration refused: ${JSON.stringify(registered.body)}`);
  const event = await settled;
  if (event.push_token_id !== phone.tokenId) throw new Error(`registration failed: ${JSON.stringify(event)}`);
  return { deviceId, phone };
}
