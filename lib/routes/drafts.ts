// GET/POST /drafts, PATCH/DELETE /drafts/{draft_id}. Every draft endpoint first checks the user's
// enable_drafts_synchronization, before its parameters are decoded (Zulip's draft_endpoint).
import { z } from 'zod';
import { createDrafts, deleteDraft, editDraft, listDrafts, requireDraftsSync } from '../domain/drafts.js';
import { draftIdsSchema, draftListSchema, draftTypeSchema } from '../domain/draft_dicts.js';
import { RESOURCE_NOT_FOUND } from '../errors.js';
import { json, pathInt, requiredString } from '../http/params.js';
import { MAX_DRAFTS_PER_REQUEST, MAX_USERS_PER_REQUEST } from './limits.js';
import { noFields, route } from './route.js';

/** Zulip's DraftData: extra keys are refused; content is stripped and must not be blank. */
const draftData = z.strictObject({
  type: draftTypeSchema,
  to: z.array(z.int()).max(MAX_USERS_PER_REQUEST),
  topic: z.string(),
  content: requiredString(),
  timestamp: z.number().nullable().optional(),
});

export const draftRoutes = {
  list: route({
    method: 'GET',
    path: '/drafts',
    access: 'user',
    summary: "The calling user's drafts, oldest edit first",
    params: {},
    response: draftListSchema,
    errors: ['BAD_REQUEST'],
    before: requireDraftsSync,
    handler: (ctx, { actor }) => listDrafts(ctx, actor),
  }),
  create: route({
    method: 'POST',
    path: '/drafts',
    transactional: true,
    access: 'user',
    summary: 'Create drafts (all or none)',
    params: { drafts: json(z.array(draftData).max(MAX_DRAFTS_PER_REQUEST)).describe(`JSON list of draft objects, at most ${MAX_DRAFTS_PER_REQUEST}`) },
    response: draftIdsSchema,
    errors: ['BAD_REQUEST'],
    before: requireDraftsSync,
    handler: (ctx, { actor }, p) => createDrafts(ctx, actor, p),
  }),
  edit: route({
    method: 'PATCH',
    path: '/drafts/:draft_id',
    transactional: true,
    access: 'user',
    summary: 'Replace a draft',
    params: { draftId: pathInt(), draft: json(draftData).describe('JSON draft object; replaces the draft whole') },
    response: noFields,
    errors: ['BAD_REQUEST', RESOURCE_NOT_FOUND],
    before: requireDraftsSync,
    handler: (ctx, { actor }, p) => editDraft(ctx, actor, p),
  }),
  delete: route({
    method: 'DELETE',
    path: '/drafts/:draft_id',
    transactional: true,
    access: 'user',
    summary: "Delete a draft; a drafts event tells the user's other clients",
    params: { draftId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST', RESOURCE_NOT_FOUND],
    before: requireDraftsSync,
    handler: (ctx, { actor }, p) => deleteDraft(ctx, actor, p),
  }),
};
