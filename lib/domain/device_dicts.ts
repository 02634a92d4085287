// Client devices for E2EE push notifications as answers and events: POST /register_client_device,
// the `devices` state of POST /register and the `device` events (add, remove, and update with the
// changed fields).
import { z } from 'zod';

/** A device as the `devices` state shows it. */
export const deviceInfoSchema = z.object({
  push_key_id: z.int().nullable(),
  push_token_id: z.string().nullable(),
  pending_push_token_id: z.string().nullable(),
  push_token_last_updated_timestamp: z.int().nullable(),
  push_registration_error_code: z.string().nullable(),
});
export type DeviceInfo = z.infer<typeof deviceInfoSchema>;

/** POST /register: the caller's devices keyed by id (as a string). */
export const deviceStateSchema = z.object({ devices: z.record(z.string(), deviceInfoSchema) });
export type DeviceState = z.infer<typeof deviceStateSchema>;

/** POST /register_client_device. */
export const newDeviceSchema = z.object({ device_id: z.int() });
export type NewDevice = z.infer<typeof newDeviceSchema>;

/** The fields a `device` update event carries: those that changed. */
const deviceChangeSchema = z.object({
  push_key_id: z.int().exactOptional(),
  push_token_id: z.string().nullable().exactOptional(),
  pending_push_token_id: z.string().nullable().exactOptional(),
  push_token_last_updated_timestamp: z.int().exactOptional(),
  push_registration_error_code: z.string().nullable().exactOptional(),
});
export type DeviceChange = z.infer<typeof deviceChangeSchema>;

export const deviceEventSchemas = [
  z.object({ type: z.literal('device'), op: z.literal('add'), device_id: z.int() }),
  z.object({ type: z.literal('device'), op: z.literal('remove'), device_id: z.int() }),
  deviceChangeSchema.extend({ type: z.literal('device'), op: z.literal('update'), device_id: z.int() }),
] as const;
