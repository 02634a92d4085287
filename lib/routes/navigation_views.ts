// GET/POST /navigation_views, PATCH/DELETE /navigation_views/{fragment} (the fragment may hold
// slashes, raw or percent-encoded: find-my-way's `*` segment, already decoded).
import {
  addNavigationView,
  listNavigationViews,
  removeNavigationView,
  updateNavigationView,
} from '../domain/navigation_views.js';
import { navigationViewStateSchema } from '../domain/navigation_view_dicts.js';
import { bool, maxCodePoints, pathStr, requiredString, str } from '../http/params.js';
import { MAX_TEXT_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

export const navigationViewRoutes = {
  list: route({
    method: 'GET',
    path: '/navigation_views',
    access: 'user',
    summary: "The calling user's navigation views",
    params: {},
    response: navigationViewStateSchema,
    handler: (ctx, { actor }) => listNavigationViews(ctx, actor),
  }),
  create: route({
    method: 'POST',
    path: '/navigation_views',
    transactional: true,
    access: 'user',
    summary: 'Add a navigation view (a setting for a built-in view, or a custom view)',
    params: {
      fragment: str(requiredString().pipe(maxCodePoints(MAX_TEXT_LENGTH))).describe('URL hash of the view; stripped'),
      isPinned: bool().describe('true pins the view; false hides it in the menu'),
      name: str(requiredString().pipe(maxCodePoints(MAX_TEXT_LENGTH))).optional().describe('Custom views only; stripped'),
    },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => addNavigationView(ctx, actor, p),
  }),
  update: route({
    method: 'PATCH',
    path: '/navigation_views/*',
    transactional: true,
    access: 'user',
    summary: 'Pin, hide or rename a navigation view',
    params: {
      fragment: pathStr().describe('URL hash of the view; may contain slashes'),
      isPinned: bool().optional(),
      name: str(requiredString().pipe(maxCodePoints(MAX_TEXT_LENGTH))).optional().describe('Custom views only'),
    },
    response: noFields,
    errors: ['BAD_REQUEST', 'NOT_FOUND'],
    handler: (ctx, { actor }, p) => updateNavigationView(ctx, actor, p),
  }),
  delete: route({
    method: 'DELETE',
    path: '/navigation_views/*',
    transactional: true,
    access: 'user',
    summary: 'Remove a navigation view',
    params: { fragment: pathStr().describe('URL hash of the view; may contain slashes') },
    response: noFields,
    errors: ['NOT_FOUND'],
    handler: (ctx, { actor }, p) => removeNavigationView(ctx, actor, p),
  }),
};
