// GET, PUT and DELETE /bot_storage: a bot's key-value storage (Zulip's zerver/views/storage.py).
import { z } from 'zod';
import { botStorageSchema, getBotStorage, removeBotStorage, updateBotStorage } from '../domain/bot_storage.js';
import { json } from '../http/params.js';
import { noFields, route } from './route.js';

const keys = () => json(z.array(z.string())).optional().describe('Keys; all of them when absent or empty');

export const botStorageRoutes = {
  get: route({
    method: 'GET',
    path: '/bot_storage',
    access: 'user',
    summary: "Read entries of the caller's storage",
    params: { keys: keys() },
    response: botStorageSchema,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => getBotStorage(ctx, actor, p),
  }),
  update: route({
    method: 'PUT',
    path: '/bot_storage',
    transactional: true,
    access: 'user',
    summary: "Set entries of the caller's storage (a JSON object of strings)",
    params: { storage: json(z.record(z.string(), z.string())) },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => updateBotStorage(ctx, actor, p),
  }),
  remove: route({
    method: 'DELETE',
    path: '/bot_storage',
    transactional: true,
    access: 'user',
    summary: "Remove entries of the caller's storage",
    params: { keys: keys() },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => removeBotStorage(ctx, actor, p),
  }),
};
