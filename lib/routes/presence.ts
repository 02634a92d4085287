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
      ping_only: bool().optional().describe('Only record the presence; the answer has no presences'),
      new_user_input: bool().optional().describe('Accepted for compatibility; parley keeps no usage statistics'),
      slim_presence: bool().optional().describe('Presences keyed by user id (modern format) instead of by email'),
      last_update_id: int().optional().describe('Only presences changed after this id; selects the modern format'),
      history_limit_days: int().optional().describe('Only presences of the last N days (default 14); ignored when last_update_id > 0'),
    },
    response: presencesAnswerSchema.partial().describe('Without fields with ping_only'),
    errors: ['BAD_REQUEST'],
    handler: (ctx, actor, p) =>
      updatePresence(ctx, actor, {
        status: p.status,
        pingOnly: p.ping_only,
        newUserInput: p.new_user_input,
        slimPresence: p.slim_presence,
        lastUpdateId: p.last_update_id,
        historyLimitDays: p.history_limit_days,
      }),
  }),
  realm: route({
    method: 'GET',
    path: '/realm/presence',
    access: 'user',
    summary: "Every active user's presence, in the legacy format (keyed by email)",
    params: {},
    response: presencesAnswerSchema.omit({ presence_last_update_id: true }),
    handler: (ctx, actor) => getRealmPresence(ctx, actor),
  }),
  user: route({
    method: 'GET',
    path: '/users/:user_id_or_email/presence',
    access: 'user',
    summary: "One user's presence, by user id or email",
    params: {
      user_id_or_email: pathStr(),
      slim_presence: bool().optional().describe('The modern format (active_timestamp, idle_timestamp)'),
    },
    response: z.object({ presence: z.union([modernPresenceSchema, userLegacyPresenceSchema]) }),
    errors: ['BAD_REQUEST'],
    handler: (ctx, actor, p) => getUserPresence(ctx, actor, { userIdOrEmail: p.user_id_or_email, slimPresence: p.slim_presence }),
  }),
};
