// parley's own OpenAPI 3.1 document (GET /api/v1/openapi.json) as a validator of real answers:
// the status must be one the operation lists, and the body must match its schema (JSON Schema
// 2020-12, ajv). Used by the conformance tests through test/conformance.ts.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { buildOpenApi } from '../lib/routes/openapi_document.js';
import { ZULIP_VERSION } from '../lib/index.js';
import { routeGroups } from '../lib/routes/index.js';
import { matchPath } from './zulip_openapi.js';

type Json = Record<string, any>;

// ajv-formats is CommonJS: its module.exports is the plugin.
const addFormats = ajvFormats as unknown as (ajv: Ajv2020) => Ajv2020;

export interface ParleyOperation {
  method: string;
  /** The document's path, /api/v1 included. */
  path: string;
  operation: Json;
}

export interface ParleyOpenApi {
  document: Json;
  /** The operation for a concrete path (`/api/v1/drafts/7`): literal segments beat parameters. */
  match(method: string, path: string): ParleyOperation | undefined;
  /** Problems of an answer, [] when the operation lists its status and the body matches. */
  check(operation: ParleyOperation, status: number, body: unknown): string[];
}

let loaded: ParleyOpenApi | undefined;

export function parleyOpenApi(): ParleyOpenApi {
  loaded ??= load();
  return loaded;
}

function load(): ParleyOpenApi {
  const document = buildOpenApi(routeGroups, ZULIP_VERSION);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const operations: ParleyOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) operations.push({ method: method.toUpperCase(), path, operation });
  }
  const compiled = new Map<unknown, ValidateFunction>();
  const validate = (schema: Json, body: unknown): string[] => {
    let validator = compiled.get(schema);
    if (!validator) {
      validator = ajv.compile(schema);
      compiled.set(schema, validator);
    }
    if (validator(body)) return [];
    return (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };
  return {
    document,
    match(method, path) {
      return matchPath(operations, method, path);
    },
    check({ operation }, status, body) {
      const response = operation.responses[String(status)];
      if (!response) return [`status ${status} is not listed (listed: ${Object.keys(operation.responses).join(', ')})`];
      const schema = response.content?.['application/json']?.schema;
      return schema ? validate(schema, body) : [];
    },
  };
}
