// Typing notifications: POST /typing, POST /messages/{message_id}/typing.
import { z } from 'zod';
import { sendEditTyping, sendTyping } from '../domain/typing.js';
import { json, maxCodePoints, pathInt, str } from '../http/params.js';
import { MAX_TEXT_LENGTH, MAX_USERS_PER_REQUEST } from './limits.js';
import { noFields, route } from './route.js';

const op = str(z.enum(['start', 'stop'])).describe('start or stop');

export const typingRoutes = {
  send: route({
    method: 'POST',
    path: '/typing',
    transactional: true,
    access: 'user',
    summary: 'Tell the other participants of a conversation that the caller started or stopped typing',
    params: {
      op,
      type: str(z.enum(['direct', 'stream', 'channel'])).optional().describe('direct (default), or stream / channel'),
      to: json(z.array(z.int()).max(MAX_USERS_PER_REQUEST)).optional().describe('direct: the user ids of the conversation'),
      streamId: json(z.int()).optional().describe('stream / channel: the channel'),
      topic: str(maxCodePoints(MAX_TEXT_LENGTH)).optional().describe('stream / channel: the topic; "(no topic)" is the empty topic'),
    },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => sendTyping(ctx, actor, p),
  }),
  edit: route({
    method: 'POST',
    path: '/messages/:message_id/typing',
    transactional: true,
    access: 'user',
    summary: "Tell the message's other recipients that the caller (its sender) started or stopped editing it",
    params: { messageId: pathInt(), op },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => sendEditTyping(ctx, actor, p),
  }),
};
