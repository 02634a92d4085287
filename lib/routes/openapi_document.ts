// parley's OpenAPI 3.1 document, generated from the route table: paths, parameters (with the
// zod schemas as JSON Schema), the success and error envelopes, error codes and auth. There is no
// hand-written copy: a route that exists is documented.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type ErrorVariant } from '../errors.js';
import { API_PREFIX } from '../http/handler.js';
import type { Param } from '../http/params.js';
import type { RouteDef } from './route.js';
import type { WayIn } from './ways_in.js';

type Json = Record<string, unknown>;

/** find-my-way syntax -> OpenAPI: `:user_id(^\d+$)` -> `{user_id}`, `*` -> `{<the path param>}`. */
export function openApiPath(route: RouteDef): string {
  const wildcard = route.fields.find(({ wire, param }) => param.in === 'path' && !route.path.includes(`:${wire}`))?.wire;
  const path = route.path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}').replace('*', `{${wildcard ?? 'path'}}`);
  return (route.outsideApi ? '' : API_PREFIX) + path;
}

/** Parameters are described as they are sent (io: input), answers as they are produced (output). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete converted.$schema;
  return converted;
}

function describedSchema(param: Param): Json {
  const schema = jsonSchema(param.schema);
  if (param.description) schema.description = param.description;
  if (param.aliases.length > 0) schema['x-aliases'] = param.aliases;
  return schema;
}

const successEnvelope = {
  type: 'object',
  required: ['result', 'msg'],
  properties: {
    result: { const: 'success' },
    msg: { const: '' },
    ignored_parameters_unsupported: {
      type: 'array',
      items: { type: 'string' },
      description: 'Parameters the request carried that this endpoint does not support (sorted).',
    },
  },
};

/** The envelope and the route's fields as one object schema (an allOf would let neither close it). */
function successSchema(response: z.ZodType | undefined): Json {
  if (!response) return successEnvelope;
  const data = jsonSchema(response, 'output');
  if (data.type !== 'object' || data.properties === undefined) return { allOf: [successEnvelope, data] };
  const merged: Json = {
    ...data,
    properties: { ...successEnvelope.properties, ...(data.properties as Json) },
    required: [...successEnvelope.required, ...((data.required as string[] | undefined) ?? [])],
  };
  return merged;
}

/** Errors every operation of a kind can answer with, whatever its own rules. */
function commonErrors(route: RouteDef, hasBody: boolean): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (Object.keys(route.params).length > 0) codes.push('BAD_REQUEST');
  if (Object.values(route.params).some((p) => p.required && p.in !== 'path')) codes.push('REQUEST_VARIABLE_MISSING');
  if (route.access !== 'public') codes.push('UNAUTHORIZED');
  if (route.access === 'human') codes.push('BAD_REQUEST');
  if (route.access === 'admin') codes.push('UNAUTHORIZED_PRINCIPAL');
  // options.rateLimit: every answer of the API while it is on (docs/http.md "Limits").
  if (!route.outsideApi) codes.push('RATE_LIMIT_HIT');
  if (hasBody) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'REQUEST_TIMEOUT');
  return codes;
}

const errorKey = (error: ErrorCode | ErrorVariant): string =>
  typeof error === 'string' ? `${ERROR_CODES[error]} ${error}` : `${error.status} ${error.code}`;

/**
 * The security scheme of each way in an API client uses (components.securitySchemes); the web
 * client's session and the embedding application's hook are not for API clients.
 */
const SECURITY_SCHEMES: Readonly<Partial<Record<WayIn, string>>> = { basic: 'basicAuth', webhookKey: 'apiKeyQuery' };

const securityOf = (waysIn: readonly WayIn[]): Json[] => waysIn.flatMap((way) => (SECURITY_SCHEMES[way] === undefined ? [] : [{ [SECURITY_SCHEMES[way]]: [] }]));

const jsonSchemaOf = (response: Json): Json => ((response.content as Json)['application/json'] as Json).schema as Json;

function errorResponse(codes: readonly ErrorCode[]): Json {
  return {
    description: codes.join(', '),
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['result', 'msg', 'code'],
          properties: {
            result: { const: 'error' },
            msg: { type: 'string' },
            code: { type: 'string', enum: [...codes] },
          },
          additionalProperties: true,
        },
      },
    },
  };
}

function operation(group: string, name: string, route: RouteDef): Json {
  const params = route.fields.map(({ wire, param }) => [wire, param] as const).sort(([a], [b]) => a.localeCompare(b));
  const parameters: Json[] = [];
  const formProperties: Record<string, Json> = {};
  const formRequired: string[] = [];
  const encoding: Record<string, Json> = {};
  const inQuery = route.method === 'GET' || route.method === 'DELETE';
  for (const [name, param] of params) {
    const schema = describedSchema(param);
    if (param.in === 'path') {
      parameters.push({ name, in: 'path', required: true, schema });
    } else if (inQuery) {
      const entry: Json = { name, in: 'query', required: param.required };
      if (param.wire === 'string') entry.schema = schema;
      else entry.content = { 'application/json': { schema } };
      parameters.push(entry);
    } else {
      formProperties[name] = schema;
      if (param.required) formRequired.push(name);
      if (param.wire !== 'string') encoding[name] = { contentType: 'application/json' };
    }
  }

  const hasBody = Object.keys(formProperties).length > 0 || route.uploads !== undefined;
  const byStatus = new Map<number, Set<ErrorCode>>();
  const errors = [...commonErrors(route, hasBody), ...(route.errors ?? [])].sort((a, b) => errorKey(a).localeCompare(errorKey(b)));
  for (const error of errors) {
    const { code, status } = typeof error === 'string' ? { code: error, status: ERROR_CODES[error] } : error;
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  }

  const success: Json = route.rawResponse
    ? { description: 'Success', content: { [route.rawResponse]: {} } }
    : { description: 'Success', content: { 'application/json': { schema: successSchema(route.response) } } };
  const responses: Json = { 200: success };
  for (const [status, set] of [...byStatus].sort(([a], [b]) => a - b)) {
    const error = errorResponse([...set].sort());
    // An error answered with 200 (an unsupported webhook event): the 200 answer is either.
    responses[status] = status === 200 ? { description: `Success, or ${error.description}`, content: { 'application/json': { schema: { oneOf: [jsonSchemaOf(success), jsonSchemaOf(error)] } } } } : error;
  }

  const op: Json = {
    operationId: `${group}.${name}`,
    summary: route.summary,
    tags: [group],
    security: route.access === 'public' ? [] : securityOf(route.waysIn ?? ['basic']),
    parameters,
    responses,
  };
  if (route.access === 'human') op.description = 'Users only: bots get "This endpoint does not accept bot requests."';
  if (route.access === 'admin') op.description = 'Organization administrators and owners only.';
  if (route.uploads !== undefined) {
    const file = { type: 'string', contentMediaType: 'application/octet-stream' };
    const schema: Json = { type: 'object', properties: formProperties, additionalProperties: file, description: route.uploads };
    op.requestBody = { required: true, content: { 'multipart/form-data': { schema, encoding } } };
  } else if (hasBody) {
    const schema: Json = { type: 'object', properties: formProperties };
    if (formRequired.length > 0) schema.required = formRequired;
    op.requestBody = {
      required: formRequired.length > 0,
      content: {
        'application/x-www-form-urlencoded': { schema, encoding },
        'multipart/form-data': { schema, encoding },
      },
    };
  }
  return op;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function buildOpenApi(groups: Readonly<Record<string, Readonly<Record<string, RouteDef<any, any>>>>>, version: string): Json {
  const paths: Record<string, Json> = {};
  for (const [group, routes] of Object.entries(groups)) {
    for (const [name, route] of Object.entries(routes)) {
      const path = openApiPath(route);
      paths[path] ??= {};
      paths[path]![route.method.toLowerCase()] = operation(group, name, route);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'parley',
      version,
      description:
        "parley's HTTP API: Zulip's REST API for the endpoints parley implements. Parameters may be sent in the query string or in a form-urlencoded or multipart body for every method; lists, objects, integers and booleans are JSON text. Every answer is JSON: {result: 'success', msg: '', ...} or {result: 'error', msg, code, ...}. A path that is no endpoint answers 404 NOT_FOUND; an endpoint's path with another method, 405 METHOD_NOT_ALLOWED with an Allow header; a bug, 500 INTERNAL_SERVER_ERROR; a database whose write lock another process held past the busy timeout, 503 DATABASE_BUSY with a Retry-After header (retry the request).",
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'The account email and its API key.' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: "An account's API key alone, in the URL (incoming webhooks, as Zulip's webhook_view takes it)." },
      },
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}
