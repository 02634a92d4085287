// POST and DELETE /users/me/muted_users/{muted_user_id}.
import { muteUser, unmuteUser } from '../domain/muted_users.js';
import { pathInt } from '../http/params.js';
import { noFields, route } from './route.js';

export const mutedUserRoutes = {
  mute: route({
    method: 'POST',
    path: '/users/me/muted_users/:muted_user_id',
    transactional: true,
    access: 'user',
    summary: "Mute a user: their messages arrive read and clients hide them",
    params: { mutedUserId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => muteUser(ctx, actor, p),
  }),
  unmute: route({
    method: 'DELETE',
    path: '/users/me/muted_users/:muted_user_id',
    transactional: true,
    access: 'user',
    summary: 'Unmute a user',
    params: { mutedUserId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => unmuteUser(ctx, actor, p),
  }),
};
