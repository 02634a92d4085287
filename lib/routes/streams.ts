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
      invite_only: bool().optional(),
      history_public_to_subscribers: bool().optional(),
      authorization_errors_fatal: bool().optional(),
      announce: bool().optional().describe('Accepted; parley sends no announcement messages'),
    },
    errors: ['BAD_REQUEST'],
    response: subscribeAnswerSchema,
    handler: (ctx, actor, p) =>
      addSubscriptions(ctx, actor, {
        subscriptions: p.subscriptions,
        principals: p.principals,
        inviteOnly: p.invite_only,
        historyPublicToSubscribers: p.history_public_to_subscribers,
        authorizationErrorsFatal: p.authorization_errors_fatal,
      }),
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
    handler: (ctx, actor, p) => removeSubscriptions(ctx, actor, { subscriptions: p.subscriptions, principals: p.principals }),
  }),
  listSubscriptions: route({
    method: 'GET',
    path: '/users/me/subscriptions',
    access: 'user',
    summary: "The caller's subscriptions",
    params: { include_subscribers: jsonOrString(z.union([z.boolean(), z.literal('partial')])).optional() },
    response: listSubscriptionsAnswerSchema,
    handler: (ctx, actor, p) => listSubscriptions(ctx, actor, { includeSubscribers: p.include_subscribers }),
  }),
  list: route({
    method: 'GET',
    path: '/streams',
    access: 'user',
    summary: 'Channels the caller can see',
    params: {
      include_public: bool().optional(),
      include_web_public: bool().optional(),
      include_subscribed: bool().optional(),
      exclude_archived: bool().optional(),
      include_all_active: bool().optional(),
      include_all: bool().optional(),
      include_default: bool().optional(),
      include_owner_subscribed: bool().optional(),
    },
    errors: ['BAD_REQUEST'],
    response: getStreamsAnswerSchema,
    handler: (ctx, actor, p) =>
      getStreams(ctx, actor, {
        includePublic: p.include_public,
        includeWebPublic: p.include_web_public,
        includeSubscribed: p.include_subscribed,
        excludeArchived: p.exclude_archived,
        includeAllActive: p.include_all_active,
        includeAll: p.include_all,
        includeDefault: p.include_default,
        includeOwnerSubscribed: p.include_owner_subscribed,
      }),
  }),
  get: route({
    method: 'GET',
    path: '/streams/:stream_id',
    access: 'user',
    summary: 'One channel',
    params: { stream_id: pathInt() },
    errors: ['BAD_REQUEST'],
    response: getStreamAnswerSchema,
    handler: (ctx, actor, p) => getStream(ctx, actor, { streamId: p.stream_id }),
  }),
  getId: route({
    method: 'GET',
    path: '/get_stream_id',
    access: 'user',
    summary: "A channel's id by name",
    params: { stream: str(maxCodePoints(MAX_TEXT_LENGTH)) },
    errors: ['BAD_REQUEST'],
    response: getStreamIdAnswerSchema,
    handler: (ctx, actor, p) => getStreamId(ctx, actor, { stream: p.stream }),
  }),
  topics: route({
    method: 'GET',
    path: '/users/me/:stream_id/topics',
    access: 'user',
    summary: "A channel's topics with their newest message id, newest first",
    params: { stream_id: pathInt(), allow_empty_topic_name: bool().optional() },
    errors: ['BAD_REQUEST'],
    response: getTopicsAnswerSchema,
    handler: (ctx, actor, p) => getTopics(ctx, actor, { streamId: p.stream_id }),
  }),
  ...streamSettingRoutes,
};
