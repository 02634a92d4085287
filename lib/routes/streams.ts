// Channels and subscriptions: POST/DELETE/GET /users/me/subscriptions, GET /streams,
// GET /streams/{stream_id}, GET /get_stream_id, GET /users/me/{stream_id}/topics; channel
// administration and subscription settings (./stream_settings.ts) belong to the same group.
import { z } from 'zod';
import {
  getStream,
  getStreamAnswerSchema,
  getStreamId,
  getStreamIdAnswerSchema,
  getStreams,
  getStreamsAnswerSchema,
  getTopics,
  getTopicsAnswerSchema,
} from '../domain/streams.js';
import {
  addSubscriptions,
  listSubscriptions,
  listSubscriptionsAnswerSchema,
  removeSubscriptions,
  subscribeAnswerSchema,
  unsubscribeAnswerSchema,
} from '../domain/subscriptions.js';
import { isGuest } from '../domain/roles.js';
import { MAX_STREAM_DESCRIPTION_LENGTH } from '../domain/stream_dicts.js';
import { badRequest } from '../errors.js';
import { bool, json, jsonOrString, maxCodePoints, pathInt, str } from '../http/params.js';
import { MAX_CHANNELS_PER_REQUEST, MAX_TEXT_LENGTH, MAX_USERS_PER_REQUEST, itemsAtMost } from './limits.js';
import { route } from './route.js';
import { streamSettingRoutes } from './stream_settings.js';

const principals = json(z.union([z.array(z.string()), z.array(z.int())]).check(itemsAtMost(MAX_USERS_PER_REQUEST)));

export const streamRoutes = {
  subscribe: route({
    method: 'POST',
    path: '/users/me/subscriptions',
    transactional: true,
    access: 'user',
    summary: 'Subscribe to channels, creating those that do not exist',
    // Zulip's @require_non_guest_user, before the parameters are read.
    before: (_ctx, actor) => {
      if (isGuest(actor)) throw badRequest('Not allowed for guest users');
    },
    params: {
      subscriptions: json(
        z.array(
          z.object({
            name: z.string(),
            description: maxCodePoints(MAX_STREAM_DESCRIPTION_LENGTH).optional(),
            color: z.string().optional(),
          }),
        ).max(MAX_CHANNELS_PER_REQUEST),
      ),
      principals: principals.optional(),
      inviteOnly: bool().optional(),
      historyPublicToSubscribers: bool().optional(),
      authorizationErrorsFatal: bool().optional(),
      announce: bool().optional().describe('Accepted; parley sends no announcement messages'),
    },
    errors: ['BAD_REQUEST'],
    response: subscribeAnswerSchema,
    handler: (ctx, { actor }, p) => addSubscriptions(ctx, actor, p),
  }),
  unsubscribe: route({
    method: 'DELETE',
    path: '/users/me/subscriptions',
    transactional: true,
    access: 'user',
    summary: 'Unsubscribe from channels (others: administrators); their messages become read',
    params: { subscriptions: json(z.array(z.string()).max(MAX_CHANNELS_PER_REQUEST)), principals: principals.optional() },
    errors: ['BAD_REQUEST'],
    response: unsubscribeAnswerSchema,
    handler: (ctx, { actor }, p) => removeSubscriptions(ctx, actor, p),
  }),
  listSubscriptions: route({
    method: 'GET',
    path: '/users/me/subscriptions',
    access: 'user',
    summary: "The caller's subscriptions",
    params: { includeSubscribers: jsonOrString(z.union([z.boolean(), z.literal('partial')])).optional() },
    response: listSubscriptionsAnswerSchema,
    handler: (ctx, { actor }, p) => listSubscriptions(ctx, actor, p),
  }),
  list: route({
    method: 'GET',
    path: '/streams',
    access: 'user',
    summary: 'Channels the caller can see',
    params: {
      includePublic: bool().optional(),
      includeWebPublic: bool().optional(),
      includeSubscribed: bool().optional(),
      excludeArchived: bool().optional(),
      includeAllActive: bool().optional(),
      includeAll: bool().optional(),
      includeDefault: bool().optional(),
      includeOwnerSubscribed: bool().optional(),
    },
    errors: ['BAD_REQUEST'],
    response: getStreamsAnswerSchema,
    handler: (ctx, { actor }, p) => getStreams(ctx, actor, p),
  }),
  get: route({
    method: 'GET',
    path: '/streams/:stream_id',
    access: 'user',
    summary: 'One channel',
    params: { streamId: pathInt() },
    errors: ['BAD_REQUEST'],
    response: getStreamAnswerSchema,
    handler: (ctx, { actor }, p) => getStream(ctx, actor, p),
  }),
  getId: route({
    method: 'GET',
    path: '/get_stream_id',
    access: 'user',
    summary: "A channel's id by name",
    params: { stream: str(maxCodePoints(MAX_TEXT_LENGTH)) },
    errors: ['BAD_REQUEST'],
    response: getStreamIdAnswerSchema,
    handler: (ctx, { actor }, p) => getStreamId(ctx, actor, p),
  }),
  topics: route({
    method: 'GET',
    path: '/users/me/:stream_id/topics',
    access: 'user',
    summary: "A channel's topics with their newest message id, newest first",
    params: { streamId: pathInt(), allowEmptyTopicName: bool().optional() },
    errors: ['BAD_REQUEST'],
    response: getTopicsAnswerSchema,
    handler: (ctx, { actor }, p) => getTopics(ctx, actor, p),
  }),
  ...streamSettingRoutes,
};
