// POST /register_client_device, POST /remove_client_device, POST /mobile_push/register,
// POST /mobile_push/e2ee/test_notification.
import { z } from 'zod';
import { newDeviceSchema } from '../domain/device_dicts.js';
import { registerClientDevice, registerPushDevice, removeClientDevice } from '../domain/push.js';
import { sendTestNotification } from '../domain/push_notify.js';
import { int, json, maxCodePoints, str, uint32 } from '../http/params.js';
import { MAX_ENCRYPTED_PUSH_REGISTRATION_LENGTH, MAX_TEXT_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

export const pushRoutes = {
  registerClientDevice: route({
    method: 'POST',
    path: '/register_client_device',
    transactional: true,
    access: 'user',
    summary: 'Register a logged-in client device; its id is used for push registration',
    params: {},
    response: newDeviceSchema,
    handler: (ctx, { actor }) => registerClientDevice(ctx, actor),
  }),
  removeClientDevice: route({
    method: 'POST',
    path: '/remove_client_device',
    transactional: true,
    access: 'user',
    summary: 'Remove one of the caller\'s devices, with its push key and token (the mobile app calls it when logging out)',
    params: { deviceId: int().describe('From POST /register_client_device') },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => removeClientDevice(ctx, actor, p),
  }),
  register: route({
    method: 'POST',
    path: '/mobile_push/register',
    access: 'human',
    summary: 'Register a device for E2EE push notifications, or rotate its key or token',
    params: {
      deviceId: int().alias('push_account_id').describe('From POST /register_client_device (older name: push_account_id)'),
      pushKey: str(maxCodePoints(MAX_TEXT_LENGTH)).optional().describe('Standard Base64 of 0x31 followed by a 32-byte libsodium secretbox key'),
      pushKeyId: json(uint32()).optional().describe('The client\'s uint32 name for push_key'),
      tokenKind: str(z.enum(['fcm', 'apns'])).optional(),
      tokenId: str(maxCodePoints(MAX_TEXT_LENGTH)).optional().describe('Base64 of the first 8 bytes of SHA-256(token)'),
      bouncerPublicKey: str(maxCodePoints(MAX_TEXT_LENGTH)).optional(),
      encryptedPushRegistration: str(maxCodePoints(MAX_ENCRYPTED_PUSH_REGISTRATION_LENGTH)).optional(),
    },
    response: noFields,
    errors: ['BAD_REQUEST', 'PUSH_SERVICE_NOT_CONFIGURED'],
    handler: (ctx, { actor }, p) => registerPushDevice(ctx, actor, p),
  }),
  testNotification: route({
    method: 'POST',
    path: '/mobile_push/e2ee/test_notification',
    access: 'human',
    summary: 'Send an E2EE test push notification to one or all of the caller\'s registered devices',
    params: {
      deviceId: int().alias('push_account_id').optional().describe('One device; all registered devices when omitted'),
    },
    response: noFields,
    errors: [
      'NO_ACTIVE_PUSH_DEVICE',
      'ADMIN_ACTION_REQUIRED',
      'FAILED_TO_CONNECT_BOUNCER',
      'INTERNAL_SERVER_ERROR_ON_BOUNCER',
      'PUSH_SERVICE_NOT_CONFIGURED',
      'BAD_REQUEST',
    ],
    asynchronous: true,
    handler: (ctx, { actor }, p) => sendTestNotification(ctx, actor, p),
  }),
};
