// Zulip's OpenAPI document (feature level 420, Apache-2.0, kept in test/fixtures/) as a response
// validator: its OpenAPI 3.0 schemas turned into JSON Schema (nullable, $refs to components,
// oneOf read as anyOf) and compiled with ajv. Used by test/zulip_openapi.test.ts.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import YAML from 'yaml';

type Schema = Record<string, any>;

// ajv-formats is CommonJS: its module.exports is the plugin.
const addFormats = ajvFormats as unknown as (ajv: Ajv) => Ajv;

const DOCUMENT = new URL('./fixtures/zulip-openapi-fl420.yaml', import.meta.url);
const ROOT_ID = 'zulip-openapi';

/**
 * The one place parley answers differently from Zulip's document on purpose: parley also accepts
 * `service_extra_emoji` for Zulip's `zulip_extra_emoji` reaction type, and reports that name back
 * when the caller used it (docs/openapi.md, "Zulip's").
 */
export const REACTION_TYPE_DEVIATION = 'service_extra_emoji';

/**
 * OpenAPI 3.0 -> JSON Schema: `nullable: true` becomes "or null" (ajv's own `nullable` needs a
 * sibling `type`, which 29 of the document's nullable schemas lack); `$ref`s point into the
 * compiled root; `oneOf` becomes `anyOf`, because openapi-generator's rewrite left oneOfs whose
 * branches overlap (e.g. seven identical CodedError examples for one 400), which a JSON Schema
 * oneOf would reject whenever more than one branch matches.
 */
function convert(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(convert);
  if (schema === null || typeof schema !== 'object') return schema;
  const { nullable, example: _example, examples: _examples, ...rest } = schema as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    // The rewrite left one empty `anyOf: []` (edit_navigation_view_request), invalid JSON Schema.
    if (['anyOf', 'oneOf', 'allOf'].includes(key) && Array.isArray(value) && value.length === 0) continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', `${ROOT_ID}#/definitions/`);
    else if (key === 'oneOf') out.anyOf = convert(value);
    else if (key === 'properties' || key === 'definitions') {
      out[key] = Object.fromEntries(Object.entries(value as Schema).map(([name, sub]) => [name, convert(sub)]));
    } else out[key] = convert(value);
  }
  if (has(out, 'enum') && Array.isArray(out.enum) && out.enum.includes('zulip_extra_emoji')) out.enum = [...out.enum, REACTION_TYPE_DEVIATION];
  return nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

const has = (object: Schema, name: string): boolean => Object.hasOwn(object, name);

export interface ZulipOperation {
  method: string;
  /** Zulip's path, relative to /api/v1. */
  path: string;
  operationId: string;
  responses: Record<string, Schema>;
}

export interface ZulipOpenApi {
  version: string;
  /** The operation with this method and path (parameter names ignored), if Zulip documents it. */
  operation(method: string, path: string): ZulipOperation | undefined;
  operations(): ZulipOperation[];
  /** Problems of a response body, [] when it validates. */
  check(operation: ZulipOperation, status: number, body: unknown): string[];
  /** The response schema Zulip documents for a status (refs resolved one level), if any. */
  responseSchema(operation: ZulipOperation, status: number): Schema | undefined;
}

/** Error bodies with extra fields have a schema of their own in the document. */
const SCHEMA_BY_CODE: Record<string, string> = {
  REQUEST_VARIABLE_MISSING: 'MissingArgumentError',
  BAD_EVENT_QUEUE_ID: 'BadEventQueueIdError',
  RATE_LIMIT_HIT: 'RateLimitedError',
};

/** An error body: CodedErrorBase plus these fields, nothing else. */
const codedErrorWith = (fields: Record<string, Schema>): Schema => ({
  allOf: [{ $ref: '#/components/schemas/CodedErrorBase' }, { type: 'object', additionalProperties: false, properties: { result: {}, msg: {}, code: {}, ...fields } }],
});

/**
 * Error fields Zulip sends that its document does not describe (the data_fields of Zulip's
 * exception classes): BadNarrowOperatorError's `desc`, ValidationFailureError's `errors` (linkifier
 * validation), StreamDoesNotExistError's `stream` / StreamWithIDDoesNotExistError's `stream_id`.
 */
export const UNDOCUMENTED_ERROR_FIELDS: Record<string, Schema> = {
  BAD_NARROW: codedErrorWith({ desc: { type: 'string' } }),
  BAD_REQUEST: codedErrorWith({ errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } }),
  STREAM_DOES_NOT_EXIST: codedErrorWith({ stream: { type: 'string' }, stream_id: { type: 'integer' } }),
};

/**
 * What parley answers from later feature levels than the document's 420
 * (device_id, reverse_template and alternative_url_templates): removed before validation, listed
 * in docs/openapi.md ("Zulip's").
 */
export const NEWER_THAN_FL420 = {
  registerFields: ['devices'],
  linkifierFields: ['example_input', 'reverse_template', 'alternative_url_templates'],
  eventTypes: ['device'],
} as const;

function withoutNewer(operationId: string, body: Record<string, any>): Record<string, any> {
  const copy = structuredClone(body);
  const linkifiers = (list: unknown): void => {
    if (Array.isArray(list)) for (const item of list) for (const field of NEWER_THAN_FL420.linkifierFields) delete item[field];
  };
  if (operationId === 'register-queue') {
    for (const field of NEWER_THAN_FL420.registerFields) delete copy[field];
    linkifiers(copy.realm_linkifiers);
  }
  if (operationId === 'get-linkifiers') linkifiers(copy.linkifiers);
  if (operationId === 'get-events' && Array.isArray(copy.events)) {
    copy.events = copy.events.filter((event: { type: string }) => !(NEWER_THAN_FL420.eventTypes as readonly string[]).includes(event.type));
    for (const event of copy.events) if (event.type === 'realm_linkifiers') linkifiers(event.realm_linkifiers);
  }
  return copy;
}

export const normalize = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

let loaded: ZulipOpenApi | undefined;

export function zulipOpenApi(): ZulipOpenApi {
  loaded ??= load();
  return loaded;
}

function load(): ZulipOpenApi {
  const document = YAML.parse(readFileSync(DOCUMENT, 'utf8')) as Schema;
  const definitions = convert(document.components.schemas) as Schema;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: ROOT_ID, definitions });

  const byPath = new Map<string, ZulipOperation>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'patch', 'delete', 'put'].includes(method)) continue;
      byPath.set(`${method.toUpperCase()} ${normalize(path)}`, { method: method.toUpperCase(), path, operationId: op.operationId, responses: op.responses ?? {} });
    }
  }

  const compiled = new Map<unknown, ValidateFunction>();
  const validator = (schema: Schema): ValidateFunction => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(convert(schema) as Schema);
      compiled.set(schema, validate);
    }
    return validate;
  };
  const named = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

  const responseSchema = (operation: ZulipOperation, status: number): Schema | undefined => {
    let response = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
    if (response?.$ref) response = document.components.responses[String(response.$ref).split('/').pop()!];
    return response?.content?.['application/json']?.schema;
  };
  const common = byPath.get('POST /rest-error-handling')!;

  // Each event validates against the variants of its type (and op): readable problems, not the
  // failures of all 86 variants.
  const schemas = document.components.schemas as Record<string, Schema>;
  const resolve = (s: Schema): Schema => (s.$ref ? resolve(schemas[String(s.$ref).split('/').pop()!]!) : s);
  const values = (s: Schema | undefined): unknown[] =>
    s === undefined ? [] : [...(resolve(s).enum ?? []), ...(resolve(s).allOf ?? []).flatMap(values)];
  const propertiesOf = (s: Schema): Schema => Object.assign({}, resolve(s).properties, ...(resolve(s).allOf ?? []).map(propertiesOf));
  const variants = (schemas.get_events_200_response_allOf_events_inner!.oneOf as Schema[]).map((variant) => {
    const properties = propertiesOf(variant);
    return { schema: variant, types: values(properties.type), ops: values(properties.op) };
  });
  const eventProblems = (event: Record<string, unknown>, index: number): string[] => {
    const candidates = variants.filter((v) => v.types.includes(event.type) && (v.ops.length === 0 || v.ops.includes(event.op)));
    if (candidates.length === 0) return [`/events/${index} (${String(event.type)} ${String(event.op ?? '')}): no such event type in Zulip's document`];
    const found = candidates.map((v) => problems(v.schema, event));
    if (found.some((list) => list.length === 0)) return [];
    return found.sort((a, b) => a.length - b.length)[0]!.map((problem) => `/events/${index} (${String(event.type)} ${String(event.op ?? '')})${problem}`);
  };

  const problems = (schema: Schema, body: unknown): string[] => {
    const validate = validator(schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };

  return {
    version: document.info.version,
    operation: (method, path) => byPath.get(`${method} ${normalize(path)}`),
    operations: () => [...byPath.values()],
    responseSchema,
    check(operation, status, answer) {
      const body = withoutNewer(operation.operationId, answer as Record<string, any>);
      const own = responseSchema(operation, status);
      if (operation.operationId === 'get-events' && status === 200) {
        const { events, ...envelope } = body as { events: Record<string, unknown>[] };
        return [...problems(own!, { ...envelope, events: [] }), ...events.flatMap(eventProblems)];
      }
      if (status < 400) return own ? problems(own, body) : [`Zulip documents no ${status} answer`];
      // An error validates against the operation's own answer for the status, the errors common
      // to every endpoint (/rest-error-handling), or the schema of its code.
      const code = (body as { code?: string }).code ?? '';
      const candidates = [own, responseSchema(common, status), named(SCHEMA_BY_CODE[code] ?? 'CodedError'), UNDOCUMENTED_ERROR_FIELDS[code]].filter(
        (s): s is Schema => !!s,
      );
      const found = candidates.map((schema) => problems(schema, body));
      return found.some((list) => list.length === 0) ? [] : found.flat();
    },
  };
}

/**
 * The operation of a list for a concrete path (`/users/12/status`): literal segments beat
 * parameters; a path's last parameter may hold slashes (Zulip's <path:filename>, parley's `*`
 * routes) when nothing else matches.
 */
export function matchPath<T extends { method: string; path: string }>(operations: readonly T[], method: string, path: string): T | undefined {
  const bare = path.split('?')[0]!.replace(/^\/\/+/, '/');
  const matching = (lastTakesSlashes: boolean) =>
    operations
      .filter((op) => {
        let pattern = op.path.replace(/\{[^}]+\}/g, '[^/]+');
        if (lastTakesSlashes) pattern = pattern.replace(/\[\^\/\]\+$/, '.+');
        return op.method === method && new RegExp(`^${pattern}$`).test(bare);
      })
      .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))[0];
  return matching(false) ?? matching(true);
}

/** Zulip's operation for a concrete path. */
export function matchOperation(api: ZulipOpenApi, method: string, path: string): ZulipOperation | undefined {
  return matchPath(api.operations(), method, path);
}

