// Presence: POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence.
import { z } from 'zod';
import { getRealmPresence, getUserPresence, updatePresence } from '../domain/presence.js';
import { modernPresenceSchema, presencesAnswerSchema, userLegacyPresenceSchema } from '../domain/presence_dicts.js';
import { bool, int, maxCodePoints, pathStr, str } from '../http/params.js';
import { MAX_EMAIL_LENGTH } from './limits.js';
import { route } from './route.js';

export const presenceRoutes = {
  update: route({
    method: 'POST',
    path: '/users/me/presence',
    transactional: true,
    access: 'human',
    summary: "Report the caller's presence (active or idle) and fetch everyone's",
    params: {
      status: str(maxCodePoints(MAX_EMAIL_LENGTH)).describe('active or idle'),
      pingOnly: bool().optional().describe('Only record the presence; the answer has no presences'),
      newUserInput: bool().optional().describe('Accepted for compatibility; parley keeps no usage statistics'),
      slimPresence: bool().optional().describe('Presences keyed by user id (modern format) instead of by email'),
      lastUpdateId: int().optional().describe('Only presences changed after this id; selects the modern format'),
      historyLimitDays: int().optional().describe('Only presences of the last N days (default 14); ignored when last_update_id > 0'),
    },
    response: presencesAnswerSchema.partial().describe('Without fields with ping_only'),
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => updatePresence(ctx, actor, p),
  }),
  realm: route({
    method: 'GET',
    path: '/realm/presence',
    access: 'user',
    summary: "Every active user's presence, in the legacy format (keyed by email)",
    params: {},
    response: presencesAnswerSchema.omit({ presence_last_update_id: true }),
    handler: (ctx, { actor }) => getRealmPresence(ctx, actor),
  }),
  user: route({
    method: 'GET',
    path: '/users/:user_id_or_email/presence',
    access: 'user',
    summary: "One user's presence, by user id or email",
    params: {
      userIdOrEmail: pathStr(),
      slimPresence: bool().optional().describe('The modern format (active_timestamp, idle_timestamp)'),
    },
    response: z.object({ presence: z.union([modernPresenceSchema, userLegacyPresenceSchema]) }),
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => getUserPresence(ctx, actor, p),
  }),
};
