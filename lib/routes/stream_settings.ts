// Channel administration and subscription settings: PATCH/DELETE /streams/{stream_id},
// GET /streams/{stream_id}/members, GET /streams/{stream_id}/email_address,
// POST /users/me/subscriptions/properties, GET /users/{user_id}/subscriptions/{stream_id},
// GET/POST/DELETE /default_streams. Part of the `streams` route group.
import { z } from 'zod';
import { addDefaultStream, defaultStreamsAnswerSchema, getDefaultStreams, removeDefaultStream } from '../domain/default_streams.js';
import { deleteStream, updateStream } from '../domain/stream_settings.js';
import {
  getStreamEmailAddress,
  getStreamMembers,
  getSubscriptionStatus,
  streamEmailAddressAnswerSchema,
  streamMembersAnswerSchema,
  subscriptionStatusAnswerSchema,
  updateSubscriptionProperties,
} from '../domain/subscription_properties.js';
import { MAX_STREAM_DESCRIPTION_LENGTH } from '../domain/stream_dicts.js';
import { bool, json, maxCodePoints, pathInt, str } from '../http/params.js';
import { MAX_CHANNELS_PER_REQUEST, MAX_TEXT_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

const streamIdParam = json(z.int()).describe("The channel's id");

export const streamSettingRoutes = {
  update: route({
    method: 'PATCH',
    path: '/streams/:stream_id',
    transactional: true,
    access: 'user',
    summary: "Change a channel's name, description or privacy (administrators)",
    params: {
      streamId: pathInt(),
      newName: str(maxCodePoints(MAX_TEXT_LENGTH)).optional(),
      description: str(maxCodePoints(MAX_STREAM_DESCRIPTION_LENGTH)).optional(),
      isPrivate: bool().optional(),
      isWebPublic: bool().optional().describe('Only false: parley has no web-public channels'),
      historyPublicToSubscribers: bool().optional(),
    },
    errors: ['BAD_REQUEST', 'UNAUTHORIZED_PRINCIPAL', 'CHANNEL_ALREADY_EXISTS'],
    response: noFields,
    handler: (ctx, { actor }, p) => updateStream(ctx, actor, p),
  }),
  archive: route({
    method: 'DELETE',
    path: '/streams/:stream_id',
    transactional: true,
    access: 'user',
    summary: 'Archive a channel (administrators); its messages are kept',
    params: { streamId: pathInt() },
    errors: ['BAD_REQUEST', 'UNAUTHORIZED_PRINCIPAL'],
    response: noFields,
    handler: (ctx, { actor }, p) => deleteStream(ctx, actor, p),
  }),
  members: route({
    method: 'GET',
    path: '/streams/:stream_id/members',
    access: 'user',
    summary: "A channel's active subscribers",
    params: { streamId: pathInt() },
    errors: ['BAD_REQUEST'],
    response: streamMembersAnswerSchema,
    handler: (ctx, { actor }, p) => getStreamMembers(ctx, actor, p),
  }),
  emailAddress: route({
    method: 'GET',
    path: '/streams/:stream_id/email_address',
    access: 'user',
    summary: 'Always an error: parley receives no email',
    params: { streamId: pathInt(), senderId: json(z.int()).optional() },
    errors: ['BAD_REQUEST'],
    response: streamEmailAddressAnswerSchema,
    handler: (ctx, { actor }, p) => getStreamEmailAddress(ctx, actor, p),
  }),
  updateSubscriptionProperties: route({
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    transactional: true,
    access: 'user',
    summary: "Change the caller's settings for their channels, all or none",
    params: {
      subscriptionData: json(
        z.array(z.object({ stream_id: z.int(), property: z.string(), value: z.union([z.boolean(), z.string()]) })).max(MAX_CHANNELS_PER_REQUEST),
      ),
    },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => updateSubscriptionProperties(ctx, actor, p),
  }),
  subscriptionStatus: route({
    method: 'GET',
    path: '/users/:user_id/subscriptions/:stream_id',
    access: 'user',
    summary: 'Whether a user is subscribed to a channel',
    params: { userId: pathInt(), streamId: pathInt() },
    errors: ['BAD_REQUEST'],
    response: subscriptionStatusAnswerSchema,
    handler: (ctx, { actor }, p) => getSubscriptionStatus(ctx, actor, p),
  }),
  defaultStreams: route({
    method: 'GET',
    path: '/default_streams',
    access: 'user',
    summary: 'The ids of the default channels new users join',
    params: {},
    response: defaultStreamsAnswerSchema,
    handler: (ctx, { actor }) => getDefaultStreams(ctx, actor),
  }),
  addDefaultStream: route({
    method: 'POST',
    path: '/default_streams',
    transactional: true,
    access: 'admin',
    summary: 'Make a public channel a default channel',
    params: { streamId: streamIdParam },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => addDefaultStream(ctx, actor, p),
  }),
  removeDefaultStream: route({
    method: 'DELETE',
    path: '/default_streams',
    transactional: true,
    access: 'admin',
    summary: 'Stop a channel being a default channel',
    params: { streamId: streamIdParam },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => removeDefaultStream(ctx, actor, p),
  }),
};
