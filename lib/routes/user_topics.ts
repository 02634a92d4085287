// POST /user_topics and the legacy PATCH /users/me/subscriptions/muted_topics (older clients).
import { z } from 'zod';
import { MAX_TOPIC_LENGTH } from '../domain/message_addressee.js';
import { updateMutedTopic, updateUserTopic } from '../domain/user_topics.js';
import { int, json, maxCodePoints, str } from '../http/params.js';
import { noFields, route } from './route.js';

export const userTopicRoutes = {
  update: route({
    method: 'POST',
    path: '/user_topics',
    transactional: true,
    access: 'user',
    summary: "Set the caller's visibility policy for a topic: 0 none, 1 muted, 2 unmuted, 3 followed",
    params: {
      streamId: int(),
      topic: str(maxCodePoints(MAX_TOPIC_LENGTH)),
      visibilityPolicy: json(z.literal([0, 1, 2, 3])),
    },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => updateUserTopic(ctx, actor, p),
  }),
  updateMutedTopic: route({
    method: 'PATCH',
    path: '/users/me/subscriptions/muted_topics',
    transactional: true,
    access: 'user',
    summary: 'Mute or unmute a topic (legacy; exactly one of stream and stream_id)',
    params: {
      streamId: int().optional(),
      stream: str().optional(),
      topic: str(maxCodePoints(MAX_TOPIC_LENGTH)),
      op: str(z.enum(['add', 'remove'])),
    },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => updateMutedTopic(ctx, actor, p),
  }),
};
