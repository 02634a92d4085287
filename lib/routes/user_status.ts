// POST /users/me/status, POST /users/{user_id}/status, GET /users/{user_id}/status.
import { z } from 'zod';
import { userStatusSchema } from '../domain/user_dicts.js';
import { MAX_STATUS_TEXT_LENGTH, getUserStatus, updateOwnStatus, updateUserStatus } from '../domain/user_status.js';
import { bool, maxCodePoints, pathInt, str, strippedMax } from '../http/params.js';
import { MAX_TEXT_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

const statusParams = {
  statusText: str(strippedMax(MAX_STATUS_TEXT_LENGTH))
    .optional()
    .describe(`At most ${MAX_STATUS_TEXT_LENGTH} Unicode code points after stripping; "" clears the text`),
  emojiName: str(maxCodePoints(MAX_TEXT_LENGTH)).optional().describe('"" clears the emoji; alone, the code and type are looked up'),
  emojiCode: str(maxCodePoints(MAX_TEXT_LENGTH)).optional().describe('Unicode: dash-separated lowercase hex; realm_emoji: the id; extra: the name'),
  reactionType: str(maxCodePoints(MAX_TEXT_LENGTH))
    .optional()
    .describe('unicode_emoji, realm_emoji or service_extra_emoji (Zulip\'s zulip_extra_emoji is accepted too)'),
};

export const userStatusRoutes = {
  updateOwn: route({
    method: 'POST',
    path: '/users/me/status',
    transactional: true,
    access: 'human',
    summary: "Set the calling user's status",
    params: { ...statusParams, away: bool().optional().describe('Deprecated: sets presence_enabled to its negation') },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => updateOwnStatus(ctx, actor, p),
  }),
  update: route({
    method: 'POST',
    path: '/users/:user_id/status',
    transactional: true,
    access: 'user',
    summary: "Set another user's status (administrators and owners, bots with those roles included)",
    params: { userId: pathInt(), ...statusParams },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => updateUserStatus(ctx, actor, p),
  }),
  get: route({
    method: 'GET',
    path: '/users/:user_id/status',
    access: 'user',
    summary: "A user's status: only the fields that are set, {} for none",
    params: { userId: pathInt() },
    response: z.object({ status: userStatusSchema }),
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => getUserStatus(ctx, actor, p.userId),
  }),
};
