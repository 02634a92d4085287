// GET /server_settings and POST /fetch_api_key: the two endpoints that need no credentials.
import { z } from 'zod';
import { fetchApiKey } from '../domain/auth.js';
import { serverSettings } from '../domain/realm.js';
import { serverSettingsSchema } from '../domain/realm_dicts.js';
import { maxCodePoints, str } from '../http/params.js';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from './limits.js';
import { route } from './route.js';

/** An email and password (POST /fetch_api_key, and the web client's POST /sessions). */
export const passwordLoginParams = {
  username: str(maxCodePoints(MAX_EMAIL_LENGTH)).describe('The account email'),
  password: str(maxCodePoints(MAX_PASSWORD_LENGTH)).describe('The account password'),
};

export const serverRoutes = {
  settings: route({
    method: 'GET',
    path: '/server_settings',
    access: 'public',
    summary: 'Server version, feature level and organization settings',
    params: {},
    response: serverSettingsSchema,
    handler: (ctx) => serverSettings(ctx),
  }),
  fetchApiKey: route({
    method: 'POST',
    path: '/fetch_api_key',
    access: 'public',
    passwordLogin: { accountParam: 'username' },
    summary: 'Exchange an email and password for the API key',
    params: passwordLoginParams,
    response: z.object({ api_key: z.string(), email: z.string(), user_id: z.int() }),
    errors: ['AUTHENTICATION_FAILED', 'USER_DEACTIVATED', 'RATE_LIMIT_HIT'],
    asynchronous: true,
    handler: (ctx, _caller, p) => fetchApiKey(ctx, p),
  }),
};
