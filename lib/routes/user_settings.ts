// PATCH /settings: the caller's own settings (only email_address_visibility so far; Zulip's other
// parameters are reported in ignored_parameters_unsupported).
import { z } from 'zod';
import { updateSettings } from '../domain/user_settings.js';
import { json } from '../http/params.js';
import { route } from './route.js';

export const userSettingsRoutes = {
  update: route({
    method: 'PATCH',
    path: '/settings',
    access: 'human',
    summary: "Change the calling user's settings",
    params: {
      email_address_visibility: json(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]))
        .optional()
        .describe('Who sees your real email: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators'),
    },
    errors: ['BAD_REQUEST'],
    handler: (ctx, actor, p) => updateSettings(ctx, actor, { emailAddressVisibility: p.email_address_visibility }),
  }),
};
