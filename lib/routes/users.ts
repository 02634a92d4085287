// Users and bots: GET /users, /users/me, /users/{user_id} (or {email}); POST /users; PATCH and DELETE
// /users/{user_id}; DELETE /users/me; POST /users/{user_id}/reactivate; POST /users/me/api_key/regenerate; GET and
// POST /bots; PATCH and DELETE /bots/{bot_id}; POST /bots/{bot_id}/api_key/regenerate.
import { z } from 'zod';
import { regenerateOwnApiKey } from '../domain/api_keys.js';
import { createdBotSchema } from '../domain/bot_dicts.js';
import { createBot, deactivateBot, listOwnBots, ownBotsSchema, regenerateBotApiKey, updateBot, updatedBotSchema } from '../domain/bots.js';
import { isUrl } from '../integrations/wild.js';
import { deactivateOwnAccount, deactivateUser, reactivateUser } from '../domain/user_activation.js';
import { ownUserSchema, userSchema } from '../domain/user_dicts.js';
import { createUser, getOwnUser, getUser, listUsers, updateUser } from '../domain/users.js';
import { bool, int, json, maxCodePoints, pathInt, pathIntOrStr, str } from '../http/params.js';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

/** Zulip's Service.name max_length. */
const MAX_SERVICE_NAME_LENGTH = 100;

/** Zulip's check_url on a JSON string: http(s) or ftp(s) with a host, at most 2048 characters. */
function serviceUrl() {
  return z.string().check((payload) => {
    if (!isUrl(payload.value)) payload.issues.push({ code: 'custom', message: '{var} is not a URL', input: payload.value });
  });
}

const CLIENT_GRAVATAR =
  'Default true: avatar_url is null for users with the default avatar whose email everyone may see (the client computes the gravatar); false: the gravatar URL';

export const userRoutes = {
  me: route({
    method: 'GET',
    path: '/users/me',
    access: 'user',
    summary: 'The calling user',
    params: {},
    response: ownUserSchema,
    handler: (ctx, caller) => getOwnUser(ctx, caller),
  }),
  list: route({
    method: 'GET',
    path: '/users',
    access: 'user',
    summary: 'All users and bots of the organization',
    params: { clientGravatar: bool().optional().describe(CLIENT_GRAVATAR) },
    response: z.object({ members: z.array(userSchema) }),
    handler: (ctx, { actor }, p) => listUsers(ctx, actor, p),
  }),
  get: route({
    method: 'GET',
    path: '/users/:user_id',
    access: 'user',
    summary: 'One user, by id or (as Zulip also takes) by email',
    params: {
      userId: pathIntOrStr().describe('A user id, or an email address the caller may use for the user'),
      clientGravatar: bool().optional().describe(CLIENT_GRAVATAR),
    },
    errors: ['BAD_REQUEST'],
    response: z.object({ user: userSchema }),
    handler: (ctx, { actor }, p) => getUser(ctx, actor, p),
  }),
  create: route({
    method: 'POST',
    path: '/users',
    access: 'user',
    summary: 'Create a user (administrators)',
    params: {
      email: str(maxCodePoints(MAX_EMAIL_LENGTH)),
      password: str(maxCodePoints(MAX_PASSWORD_LENGTH)),
      fullName: str(),
    },
    response: z.object({ user_id: z.int() }),
    errors: ['UNAUTHORIZED_PRINCIPAL', 'BAD_REQUEST'],
    asynchronous: true,
    handler: (ctx, { actor }, p) => createUser(ctx, actor, p),
  }),
  update: route({
    method: 'PATCH',
    path: '/users/:user_id',
    transactional: true,
    access: 'user',
    summary: "Change a user's name or role (administrators; owners for the owner role)",
    params: {
      userId: pathInt(),
      fullName: str().optional(),
      role: int().optional(),
    },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => updateUser(ctx, actor, p),
  }),
  deactivate: route({
    method: 'DELETE',
    path: '/users/:user_id',
    transactional: true,
    access: 'user',
    summary: "Deactivate a user and the bots they own (administrators), or a bot (administrators, the bot's owner)",
    params: { userId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST', 'UNAUTHORIZED_PRINCIPAL'],
    handler: (ctx, { actor }, p) => deactivateUser(ctx, actor, p),
  }),
  deactivateSelf: route({
    method: 'DELETE',
    path: '/users/me',
    transactional: true,
    access: 'user',
    summary: "Deactivate the caller's own account (and the bots it owns)",
    params: {},
    response: noFields,
    errors: ['CANNOT_DEACTIVATE_LAST_USER'],
    handler: (ctx, { actor }) => deactivateOwnAccount(ctx, actor),
  }),
  reactivate: route({
    method: 'POST',
    path: '/users/:user_id/reactivate',
    transactional: true,
    access: 'user',
    summary: "Reactivate a user (administrators) or a bot (administrators, the bot's owner)",
    params: { userId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => reactivateUser(ctx, actor, p),
  }),
  regenerateApiKey: route({
    method: 'POST',
    path: '/users/me/api_key/regenerate',
    transactional: true,
    access: 'human',
    summary: "A new API key for the caller; the old one stops working at once",
    params: {},
    response: z.object({ api_key: z.string() }),
    handler: (ctx, { actor }) => regenerateOwnApiKey(ctx, actor),
  }),
  listBots: route({
    method: 'GET',
    path: '/bots',
    access: 'user',
    summary: "The caller's active bots (not guests or bots)",
    params: {},
    errors: ['BAD_REQUEST'],
    response: ownBotsSchema,
    handler: (ctx, { actor }) => listOwnBots(ctx, actor),
  }),
  createBot: route({
    method: 'POST',
    path: '/bots',
    access: 'user',
    summary: 'Create a bot owned by the caller (not guests or bots); an outgoing webhook bot (bot_type 3) with its service',
    params: {
      fullName: str(),
      shortName: str(maxCodePoints(MAX_EMAIL_LENGTH)),
      botType: int().optional(),
      payloadUrl: json(serviceUrl()).optional().describe("An outgoing webhook bot's endpoint, JSON text (default \"\")"),
      interfaceType: int().optional().describe("An outgoing webhook bot's request format: 1 Zulip's (default), 2 Slack's"),
      serviceName: str(maxCodePoints(MAX_SERVICE_NAME_LENGTH)).optional().describe("The service's name (default: the short name)"),
    },
    errors: ['BAD_REQUEST'],
    response: createdBotSchema,
    asynchronous: true,
    handler: (ctx, { actor }, p) => createBot(ctx, actor, p),
  }),
  updateBot: route({
    method: 'PATCH',
    path: '/bots/:bot_id',
    transactional: true,
    access: 'user',
    summary: "Rename a bot, or change an outgoing webhook bot's endpoint or format (administrators, the bot's owner; not guests or bots)",
    params: {
      botId: pathInt(),
      fullName: str().optional(),
      servicePayloadUrl: json(serviceUrl()).optional().describe('The new endpoint, JSON text'),
      serviceInterface: int().optional().describe("The new request format: 1 Zulip's, 2 Slack's"),
    },
    errors: ['BAD_REQUEST'],
    response: updatedBotSchema,
    handler: (ctx, { actor }, p) => updateBot(ctx, actor, p),
  }),
  deactivateBot: route({
    method: 'DELETE',
    path: '/bots/:bot_id',
    transactional: true,
    access: 'user',
    summary: "Deactivate a bot (administrators, the bot's owner)",
    params: { botId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => deactivateBot(ctx, actor, p),
  }),
  regenerateBotApiKey: route({
    method: 'POST',
    path: '/bots/:bot_id/api_key/regenerate',
    transactional: true,
    access: 'user',
    summary: "A new API key for a bot (administrators, the bot's owner; not guests or bots); the old one stops working at once",
    params: { botId: pathInt() },
    errors: ['BAD_REQUEST'],
    response: z.object({ api_key: z.string() }),
    handler: (ctx, { actor }, p) => regenerateBotApiKey(ctx, actor, p),
  }),
};
