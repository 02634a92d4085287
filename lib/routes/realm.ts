// PATCH /realm: the organization's name and description (Zulip's update_realm).
import { MAX_REALM_DESCRIPTION_LENGTH, MAX_REALM_NAME_LENGTH, updateRealm, updateRealmAnswerSchema } from '../domain/realm_settings.js';
import { maxCodePoints, str } from '../http/params.js';
import { route } from './route.js';

export const realmRoutes = {
  update: route({
    method: 'PATCH',
    path: '/realm',
    transactional: true,
    access: 'admin',
    summary: "Change the organization's name or description (the settings parley has)",
    params: {
      name: str(maxCodePoints(MAX_REALM_NAME_LENGTH)).optional().describe("The organization's name"),
      description: str(maxCodePoints(MAX_REALM_DESCRIPTION_LENGTH)).optional().describe("The organization's description, in Markdown"),
    },
    response: updateRealmAnswerSchema,
    errors: ['UNAUTHORIZED_PRINCIPAL', 'BAD_REQUEST'],
    handler: (ctx, { actor }, p) => updateRealm(ctx, actor, p),
  }),
};
