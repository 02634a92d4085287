// parley's OpenAPI 3.1 document, generated from the route table: paths, parameters (with the
// zod schemas as JSON Schema), the success and error envelopes, error codes and auth. There is no
// hand-written copy: a route that exists is documented.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import type { RouteDef } from '../routes/route.js';
import { API_PREFIX } from './handler.js';
import type { Param } from './params.js';

type Json = Record<string, unknown>;

/** find-my-way syntax -> OpenAPI: `:user_id(^\d+$)` -> `{user_id}`, `*` -> `{<the path param>}`. */
export function openApiPath(route: RouteDef): string {
  const wildcard = Object.entries(route.params).find(
    ([name, param]) => param.in === 'path' && !route.path.includes(`:${name}`),
  )?.[0];
  const path = route.path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}').replace('*', `{${wildcard ?? 'path'}}`);
  return (route.outsideApi ? '' : API_PREFIX) + path;
}

function jsonSchema(schema: z.ZodType): Json {
  const converted = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
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
  const params = Object.entries(route.params).sort(([a], [b]) => a.localeCompare(b));
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

  const codes = new Set<ErrorCode>(route.errors ?? []);
  if (params.length > 0) codes.add('BAD_REQUEST');
  if (params.some(([, p]) => p.required && p.in !== 'path')) codes.add('REQUEST_VARIABLE_MISSING');
  if (route.access !== 'public') codes.add('UNAUTHORIZED');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes].sort()) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }

  const responses: Json = {
    200: {
      description: 'Success',
      content: {
        'application/json': {
          schema: route.response ? { allOf: [successEnvelope, jsonSchema(route.response)] } : successEnvelope,
        },
      },
    },
  };
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) responses[status] = errorResponse(list);

  const op: Json = {
    operationId: `${group}.${name}`,
    summary: route.summary,
    tags: [group],
    security: route.access === 'public' ? [] : [{ basicAuth: [] }],
    parameters,
    responses,
  };
  if (route.access === 'human') op.description = 'Users only: bots get "This endpoint does not accept bot requests."';
  if (route.access === 'admin') op.description = 'Organization administrators and owners only.';
  if (Object.keys(formProperties).length > 0) {
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
        "parley's HTTP API: Zulip's REST API for the endpoints parley implements. Parameters may be sent in the query string or in a form-urlencoded or multipart body for every method; lists, objects, integers and booleans are JSON text.",
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'The account email and its API key.' },
      },
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}
