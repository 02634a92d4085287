// GET /api/v1/openapi.json: parley's OpenAPI 3.1 document, generated from the route table.
import { buildOpenApi } from '../http/openapi.js';
import { RawResponse } from '../http/respond.js';
import { ZULIP_VERSION } from '../domain/realm.js';
import { routeGroups } from './index.js';
import { route } from './route.js';

let document: string | undefined;

export const openApiRoutes = {
  document: route({
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    summary: "This document: parley's OpenAPI 3.1 description, generated from its route table",
    params: {},
    rawResponse: 'application/json',
    handler: (): RawResponse => {
      document ??= JSON.stringify(buildOpenApi(routeGroups, ZULIP_VERSION));
      return new RawResponse(200, { 'Content-Type': 'application/json' }, document);
    },
  }),
};
