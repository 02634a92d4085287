// GET /api/v1/openapi.json: parley's OpenAPI 3.1 document, generated from the route table. The
// table is passed in (it includes this route), so this module imports no other route module.
import { buildOpenApi } from './openapi_document.js';
import { RawResponse } from '../http/respond.js';
import { ZULIP_VERSION } from '../domain/realm.js';
import { route, type RouteDef } from './route.js';

/** The route of the document of `groups` (read on the first request, when the table is complete). */
export function openApiRoutesFor(groups: () => Readonly<Record<string, Readonly<Record<string, RouteDef<any, any>>>>>) {
  // The table never changes: the document is built once per table.
  let document: string | undefined;
  return {
    document: route({
      method: 'GET',
      path: '/openapi.json',
      access: 'public',
      summary: "This document: parley's OpenAPI 3.1 description, generated from its route table",
      params: {},
      rawResponse: 'application/json',
      handler: (): RawResponse => {
        document ??= JSON.stringify(buildOpenApi(groups(), ZULIP_VERSION));
        return new RawResponse(200, { 'Content-Type': 'application/json' }, document);
      },
    }),
  };
}
