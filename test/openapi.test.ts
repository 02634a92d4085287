// parley's OpenAPI 3.1 document, generated from the route table (lib/routes/openapi_document.ts) and served
// at GET /api/v1/openapi.json: it validates as OpenAPI 3.1, has every route and nothing else, and
// each operation's parameters, body, auth and error codes are the route's. That real answers
// match it is checked by the conformance tests (test/conformance.ts).
import t from 'tap';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CODES, ZULIP_VERSION, type ErrorCode } from '../lib/index.js';
import { buildOpenApi, openApiPath } from '../lib/routes/openapi_document.js';
import { allRoutes, routeGroups } from '../lib/routes/index.js';
import type { RouteDef } from '../lib/routes/route.js';
import { ACCOUNT_GROUPS, CORE_GROUPS, FEATURE_GROUPS } from './conformance.js';
import { startServer } from './helpers.js';

type Json = Record<string, any>;
const document = buildOpenApi(routeGroups, ZULIP_VERSION) as Json;
const operationOf = (route: RouteDef): Json | undefined => document.paths[openApiPath(route)]?.[route.method.toLowerCase()];
const label = (route: RouteDef): string => `${route.method} ${openApiPath(route)}`;

/** The codes an operation lists under a status. */
/** The schemas of an answer: one, or the branches of a 200 that is a success or an error (an unsupported webhook event). */
function schemasAt(operation: Json, status: number): Json[] {
  const schema = operation.responses[String(status)]?.content?.['application/json']?.schema;
  return schema === undefined ? [] : (schema.oneOf ?? [schema]);
}

function codesAt(operation: Json, status: number): string[] {
  return schemasAt(operation, status).flatMap((schema) => schema.properties?.code?.enum ?? []);
}

t.test('GET /api/v1/openapi.json serves the document without credentials', async (t) => {
  const s = await startServer({ file: false });
  t.teardown(() => s.close());
  const response = await fetch(`${s.url}/api/v1/openapi.json`);
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /^application\/json/);
  t.same(await response.json(), document);
});

t.test('it validates as OpenAPI 3.1', async (t) => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  t.same(result.errors ?? [], [], 'no schema errors');
  t.ok(result.valid);
  t.equal(validator.version, '3.1');
});

t.test('every route is in it (method and path), and nothing else', async (t) => {
  t.same(allRoutes.filter((route) => !operationOf(route)).map(label), [], 'routes missing from the document');
  const count = Object.values(document.paths as Json).reduce((n, item) => n + Object.keys(item).length, 0);
  t.equal(count, allRoutes.length, 'one operation per route');
  const ids = Object.values(document.paths as Json).flatMap((item) => Object.values(item).map((op: any) => op.operationId));
  t.equal(new Set(ids).size, ids.length, 'operationIds are unique');
});

t.test('parameters: path ones in the path, the others in the query (GET, DELETE) or the body', async (t) => {
  for (const route of allRoutes) {
    const operation = operationOf(route)!;
    const parameters = new Map<string, Json>((operation.parameters as Json[]).map((p) => [p.name, p]));
    const body = operation.requestBody?.content?.['application/x-www-form-urlencoded']?.schema ?? operation.requestBody?.content?.['multipart/form-data']?.schema;
    for (const { wire: name, param } of route.fields) {
      if (param.in === 'path') {
        t.match(parameters.get(name), { in: 'path', required: true }, `${label(route)}: path parameter ${name}`);
      } else if (route.method === 'GET' || route.method === 'DELETE') {
        t.match(parameters.get(name), { in: 'query', required: param.required }, `${label(route)}: query parameter ${name}`);
      } else {
        t.ok(body?.properties?.[name], `${label(route)}: body field ${name}`);
        t.equal((body?.required ?? []).includes(name), param.required, `${label(route)}: ${name} required or not`);
      }
      if (param.aliases.length > 0) {
        const schema = parameters.get(name)?.schema ?? parameters.get(name)?.content?.['application/json']?.schema ?? body?.properties?.[name];
        t.same(schema?.['x-aliases'], param.aliases, `${label(route)}: the older names of ${name}`);
      }
    }
    t.equal(parameters.size + Object.keys(body?.properties ?? {}).length, Object.keys(route.params).length, `${label(route)}: no other parameter`);
    if (route.uploads) t.ok(operation.requestBody?.content?.['multipart/form-data'], `${label(route)}: a multipart body for the files`);
  }
});

t.test('auth: security matches access; restricted access is described', async (t) => {
  for (const route of allRoutes) {
    const operation = operationOf(route)!;
    const schemes: Partial<Record<string, string>> = { basic: 'basicAuth', webhookKey: 'apiKeyQuery' };
    const expected = route.access === 'public' ? [] : (route.waysIn ?? ['basic']).flatMap((way) => (schemes[way] ? [{ [schemes[way]]: [] }] : []));
    t.same(operation.security, expected, `${label(route)}: ${route.access}`);
    if (route.access === 'human') t.match(operation.description, /bots get/);
    if (route.access === 'admin') t.match(operation.description, /administrators/);
  }
  t.same(document.components.securitySchemes.basicAuth, { type: 'http', scheme: 'basic', description: 'The account email and its API key.' });
  t.match(document.components.securitySchemes.apiKeyQuery, { type: 'apiKey', in: 'query', name: 'api_key' });
  t.same(operationOf(routeGroups.integrations.receive as unknown as RouteDef)!.security, [{ apiKeyQuery: [] }, { basicAuth: [] }], 'the webhook URL: api_key, or HTTP Basic');
});

t.test('error codes: each route\'s, under their HTTP status, and those every route of its kind can answer', async (t) => {
  for (const route of allRoutes) {
    const operation = operationOf(route)!;
    const expected: [number, string][] = [];
    for (const error of route.errors ?? []) expected.push(typeof error === 'string' ? [ERROR_CODES[error], error] : [error.status, error.code]);
    if (route.access !== 'public') expected.push([401, 'UNAUTHORIZED']);
    if (route.access === 'admin') expected.push([400, 'UNAUTHORIZED_PRINCIPAL']);
    if (route.access === 'human' || Object.keys(route.params).length > 0) expected.push([400, 'BAD_REQUEST']);
    if (Object.values(route.params).some((p) => p.required && p.in !== 'path')) expected.push([400, 'REQUEST_VARIABLE_MISSING']);
    if (!route.outsideApi) expected.push([429, 'RATE_LIMIT_HIT']);
    if (operation.requestBody) expected.push([413, 'PAYLOAD_TOO_LARGE'], [415, 'UNSUPPORTED_MEDIA_TYPE'], [408, 'REQUEST_TIMEOUT']);
    for (const [status, code] of expected) t.ok(codesAt(operation, status).includes(code), `${label(route)}: ${status} ${code}`);
    for (const [status, response] of Object.entries(operation.responses as Json)) {
      if (status === '200') continue;
      for (const code of codesAt(operation, Number(status))) {
        t.ok(code in ERROR_CODES, `${label(route)}: ${code} is a code of lib/errors.ts`);
        const usual = ERROR_CODES[code as ErrorCode] === Number(status);
        t.ok(usual || expected.some(([s, c]) => s === Number(status) && c === code), `${label(route)}: ${status} ${code} is declared`);
      }
      t.match(response.content['application/json'].schema, { required: ['result', 'msg', 'code'] });
    }
  }
});

t.test('404 with BAD_REQUEST (Zulip\'s ResourceNotFoundError) is documented where a route declares it', async (t) => {
  const draftDelete = operationOf(routeGroups.drafts.delete as unknown as RouteDef)!;
  t.same(codesAt(draftDelete, 404), ['BAD_REQUEST']);
  t.same(codesAt(draftDelete, 400), ['BAD_REQUEST']);
});

t.test('success: the envelope and the route\'s fields in one schema; raw answers by media type', async (t) => {
  for (const route of allRoutes) {
    const success = operationOf(route)!.responses['200'];
    if (route.rawResponse) {
      t.same(Object.keys(success.content), [route.rawResponse], `${label(route)}: ${route.rawResponse}`);
      continue;
    }
    const schema = schemasAt(operationOf(route)!, 200)[0]!;
    t.match(schema, { type: 'object', properties: { result: { const: 'success' }, msg: { const: '' } } }, `${label(route)}: the envelope`);
    t.ok(schema.required.includes('result') && schema.required.includes('msg'), `${label(route)}: result and msg required`);
    if (route.response) {
      const fields = Object.keys((route.response as unknown as { shape?: object }).shape ?? {});
      for (const field of fields) t.ok(schema.properties[field], `${label(route)}: field ${field}`);
    }
  }
});

t.test('the conformance tests cover every route group', async (t) => {
  t.same([...CORE_GROUPS, ...FEATURE_GROUPS, ...ACCOUNT_GROUPS].sort(), Object.keys(routeGroups).sort());
});

t.test("no route's answer has a field named result or msg: the success envelope writes those (lib/http/respond.ts)", async (t) => {
  let checked = 0;
  for (const route of allRoutes) {
    const shape = (route.response as { shape?: Record<string, unknown> } | undefined)?.shape;
    if (shape === undefined) continue;
    checked += 1;
    t.notOk('result' in shape || 'msg' in shape, label(route));
  }
  t.ok(checked > 30, `the answers of ${checked} routes have a declared shape`);
});
