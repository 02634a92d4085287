// Linkifiers: GET and PATCH /realm/linkifiers; POST /realm/filters; PATCH and DELETE
// /realm/filters/{filter_id}.
import { z } from 'zod';
import {
  addLinkifier,
  listLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
  updateLinkifier,
} from '../domain/linkifiers.js';
import { linkifierSchema } from '../domain/realm_dicts.js';
import { json, maxCodePoints, pathInt, str } from '../http/params.js';
import { MAX_ALTERNATIVE_URL_TEMPLATES, MAX_LINKIFIER_IDS, MAX_TEXT_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

const linkifierParams = {
  pattern: str(maxCodePoints(MAX_TEXT_LENGTH)).describe('RE2 regular expression; named groups (?P<name>...) are the URL template variables.'),
  urlTemplate: str(maxCodePoints(MAX_TEXT_LENGTH)).describe('RFC 6570 URL template using exactly the named groups of the pattern.'),
  exampleInput: str(maxCodePoints(MAX_TEXT_LENGTH).nullable()).optional().describe('Text the pattern matches. Empty: none.'),
  reverseTemplate: str(maxCodePoints(MAX_TEXT_LENGTH).nullable())
    .optional()
    .describe('Text for a URL matching the template, with {name} for groups and {{ }} for braces; needs example_input.'),
  alternativeUrlTemplates: json(z.array(maxCodePoints(MAX_TEXT_LENGTH)).max(MAX_ALTERNATIVE_URL_TEMPLATES))
    .optional()
    .describe('More RFC 6570 templates, for reverse linkification in clients only.'),
};

export const linkifierRoutes = {
  list: route({
    method: 'GET',
    path: '/realm/linkifiers',
    access: 'user',
    summary: "The organization's linkifiers, in processing order",
    params: {},
    response: z.object({ linkifiers: z.array(linkifierSchema) }),
    handler: (ctx) => listLinkifiers(ctx),
  }),
  add: route({
    method: 'POST',
    path: '/realm/filters',
    transactional: true,
    access: 'admin',
    summary: 'Add a linkifier (administrators); it is processed last',
    params: linkifierParams,
    response: z.object({ id: z.int() }),
    errors: ['UNAUTHORIZED_PRINCIPAL', 'BAD_REQUEST'],
    handler: (ctx, { actor }, p) => addLinkifier(ctx, actor, p),
  }),
  update: route({
    method: 'PATCH',
    path: '/realm/filters/:filter_id',
    transactional: true,
    access: 'admin',
    summary: 'Change a linkifier (administrators); omitted optional fields keep their value',
    params: { filterId: pathInt(), ...linkifierParams },
    response: noFields,
    errors: ['UNAUTHORIZED_PRINCIPAL', 'BAD_REQUEST'],
    handler: (ctx, { actor }, p) => updateLinkifier(ctx, actor, p),
  }),
  remove: route({
    method: 'DELETE',
    path: '/realm/filters/:filter_id',
    transactional: true,
    access: 'admin',
    summary: 'Remove a linkifier (administrators)',
    params: { filterId: pathInt() },
    response: noFields,
    errors: ['UNAUTHORIZED_PRINCIPAL', 'BAD_REQUEST'],
    handler: (ctx, { actor }, p) => removeLinkifier(ctx, actor, p),
  }),
  reorder: route({
    method: 'PATCH',
    path: '/realm/linkifiers',
    transactional: true,
    access: 'admin',
    summary: 'Set the order linkifiers are processed in (administrators)',
    params: { orderedLinkifierIds: json(z.array(z.int()).max(MAX_LINKIFIER_IDS)).describe('Every linkifier id, once each, in the new order.') },
    response: noFields,
    errors: ['UNAUTHORIZED_PRINCIPAL', 'BAD_REQUEST'],
    handler: (ctx, { actor }, p) => reorderLinkifiers(ctx, actor, p),
  }),
};
