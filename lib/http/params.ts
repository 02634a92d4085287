// Parameter decoding: Zulip's form encodings (JSON arrays and objects inside form values, JSON
// booleans and integers) turned into typed values by zod schemas, with Zulip's fixed messages
// (`Missing 'x' argument`, `x is not a list`, `drafts[0]["content"] cannot be blank`, ...).
// The in-process API runs the same schemas on already-typed values.
import { z } from 'zod';
import { ApiError, badRequest, missing } from '../errors.js';
import { stripWhiteSpace } from '../text.js';

/** How a parameter's raw text becomes a value before its schema runs. */
export type Wire = 'string' | 'json' | 'json-or-string';

export interface Param<S extends z.ZodType = z.ZodType, R extends boolean = boolean> {
  readonly schema: S;
  readonly wire: Wire;
  readonly in: 'form' | 'path';
  readonly required: R;
  readonly description: string;
  /** Older names accepted for the same parameter (e.g. push_account_id for device_id). */
  readonly aliases: readonly string[];
  optional(): Param<S, false>;
  describe(description: string): Param<S, R>;
  alias(...names: string[]): Param<S, R>;
}

export type ParamShape = Record<string, Param>;

function makeParam<S extends z.ZodType, R extends boolean>(
  schema: S,
  wire: Wire,
  where: 'form' | 'path',
  required: R,
  description = '',
  aliases: readonly string[] = [],
): Param<S, R> {
  return {
    schema,
    wire,
    in: where,
    required,
    description,
    aliases,
    optional: () => makeParam(schema, wire, where, false, description, aliases),
    describe: (text) => makeParam(schema, wire, where, required, text, aliases),
    alias: (...names) => makeParam(schema, wire, where, required, description, [...aliases, ...names]),
  };
}

/** A plain string form parameter, taken as sent. */
export function str(): Param<z.ZodString, true>;
export function str<S extends z.ZodType>(schema: S): Param<S, true>;
export function str(schema?: z.ZodType): Param<z.ZodType, true> {
  return makeParam(schema ?? z.string(), 'string', 'form', true);
}

/** A parameter whose form value is JSON text (lists, objects, integers, booleans). */
export function json<S extends z.ZodType>(schema: S): Param<S, true> {
  return makeParam(schema, 'json', 'form', true);
}

/** JSON when the text parses as JSON, else the text itself (e.g. a message's `to`). */
export function jsonOrString<S extends z.ZodType>(schema: S): Param<S, true> {
  return makeParam(schema, 'json-or-string', 'form', true);
}

export const int = () => json(z.int());
export const bool = () => json(z.boolean());

/** An integer path segment (`/drafts/{draft_id}`). */
export function pathInt(): Param<z.ZodInt, true> {
  return makeParam(z.int().nonnegative(), 'json', 'path', true);
}

/** A path segment that is an id when it is a non-negative integer, else a string (`/users/{email}`). */
export function pathIntOrStr(): Param<z.ZodUnion<[z.ZodInt, z.ZodString]>, true> {
  return makeParam(z.union([z.int().nonnegative(), z.string()]), 'json-or-string', 'path', true);
}

/** A string path segment; with a `*` route it may contain slashes. */
export function pathStr(): Param<z.ZodString, true> {
  return makeParam(z.string(), 'string', 'path', true);
}

export type ParamValues<P extends ParamShape> = {
  [K in keyof P]: P[K] extends Param<infer S, infer R> ? (R extends true ? z.output<S> : z.output<S> | undefined) : never;
};

type RequiredKeys<P extends ParamShape> = { [K in keyof P]: P[K] extends Param<z.ZodType, true> ? K : never }[keyof P];
type OptionalKeys<P extends ParamShape> = Exclude<keyof P, RequiredKeys<P>>;

/** What the in-process API takes: the parameters' input types. */
export type ParamInputs<P extends ParamShape> = {
  [K in RequiredKeys<P>]: P[K] extends Param<infer S> ? z.input<S> : never;
} & {
  [K in OptionalKeys<P>]?: P[K] extends Param<infer S> ? z.input<S> | undefined : never;
};

/** `drafts` + [0, "content"] -> `drafts[0]["content"]`, as Zulip names nested values. */
function varName(name: string, path: readonly PropertyKey[]): string {
  return name + path.map((part) => `[${JSON.stringify(typeof part === 'symbol' ? String(part) : part)}]`).join('');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'a boolean',
  array: 'a list',
  tuple: 'a list',
  object: 'a dict',
  record: 'a dict',
  map: 'a dict',
  null: 'null',
};

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The sub-schema that validates the value at `path` (through arrays, objects, records, wrappers). */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  // zod 4 keeps a schema's structure in `_zod.def`; only the kinds parameters use are followed.
  type Def = { type: string; innerType?: Node; in?: Node; element?: Node; shape?: Record<PropertyKey, Node>; valueType?: Node; items?: Node[]; rest?: Node | null };
  type Node = { _zod: { def: Def } } | undefined;
  const unwrap = (node: Node): Node => {
    while (node) {
      const def: Def = node._zod.def;
      if (WRAPPERS.has(def.type)) node = def.innerType;
      else if (def.type === 'pipe') node = def.in;
      else break;
    }
    return node;
  };
  let node = unwrap(schema as unknown as Node);
  for (const part of path) {
    if (!node) return undefined;
    const def: Def = node._zod.def;
    if (def.type === 'array') node = def.element;
    else if (def.type === 'object') node = def.shape?.[part];
    else if (def.type === 'record') node = def.valueType;
    else if (def.type === 'tuple') node = def.items?.[part as number] ?? def.rest ?? undefined;
    else return undefined;
    node = unwrap(node);
  }
  return node as unknown as z.ZodType | undefined;
}

/** z.int() and its kin report `expected: 'number'` for a non-number: tell them from floats by format. */
function expectsInteger(schema: z.ZodType | undefined): boolean {
  const format = (schema?._zod.def as { format?: unknown } | undefined)?.format;
  return typeof format === 'string' && /int/.test(format);
}

/** One of Zulip's templates for the first problem zod found. */
function issueMessage(name: string, issue: z.core.$ZodIssue, root: unknown, schema?: z.ZodType): string {
  const path = issue.path as PropertyKey[];
  const where = varName(name, path);
  switch (issue.code) {
    case 'invalid_type': {
      if (path.length > 0 && valueAt(root, path) === undefined) {
        return `${varName(name, path)} field is missing: Field required`;
      }
      if (issue.expected === 'number' && typeof valueAt(root, path) === 'number') return `${where} is not an integer`;
      if (issue.expected === 'number') return `${where} is not ${expectsInteger(schema && schemaAt(schema, path)) ? 'an integer' : 'a float'}`;
      const word = TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`;
      return `${where} is not ${word}`;
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) <= 1) return `${where} cannot be blank`;
      if (issue.origin === 'string') return `${where} is too short (minimum: ${issue.minimum} characters)`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${where} needs at least ${issue.minimum} items`;
      return `${where} is too small`;
    case 'too_big':
      if (issue.origin === 'string') return `${where} is too long (limit: ${issue.maximum} characters)`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${where} is too long (limit: ${issue.maximum} items)`;
      return `${where} is too large`;
    case 'unrecognized_keys':
      return `Argument "${issue.keys[0]}" at ${where} is unexpected`;
    case 'invalid_format':
      return `${where} has invalid format`;
    case 'custom':
      return issue.message.replaceAll('{var}', where);
    case 'invalid_value':
      // An enum or literal field left out of a JSON object is missing, as pydantic says, not invalid.
      if (path.length > 0 && valueAt(root, path) === undefined) return `${where} field is missing: Field required`;
      return `Invalid ${where}`;
    default:
      // A schema's own message in one of these templates (e.g. valueErrorMessage on a union).
      return issue.message.includes('{var}') ? issue.message.replaceAll('{var}', where) : `Invalid ${where}`;
  }
}

/** Runs a parameter's schema; throws Zulip's message for the first issue. */
function validateParam<S extends z.ZodType>(name: string, param: Param<S>, value: unknown): z.output<S> {
  const result = param.schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(issueMessage(name, result.error.issues[0]!, value, param.schema));
}

/** How deeply JSON parameters may nest: deeper values would overflow the stack when stored. */
export const MAX_JSON_DEPTH = 100;

/** The deepest nesting of arrays and objects in JSON text (strings skipped); stops past `limit`. */
function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}

/** Raw text of a form or path parameter -> the value its schema expects. */
function decodeWire(name: string, param: Param, raw: string): unknown {
  if (param.wire === 'string') return raw;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    if (param.wire === 'json-or-string') return raw;
    throw badRequest(`${name} is not valid JSON`);
  }
  if (typeof value === 'object' && value !== null && jsonDepth(raw, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw badRequest(`${name} is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`);
  }
  return value;
}

export interface DecodedParams {
  values: Record<string, unknown>;
  /** Request keys the endpoint did not read, sorted: Zulip's ignored_parameters_unsupported. */
  ignored: string[];
}

/**
 * Decodes every declared parameter in alphabetical order (Zulip's order: the first failing
 * parameter wins) from the request's raw values; path values come from the route.
 */
export function decodeParams(
  shape: ParamShape,
  raw: ReadonlyMap<string, string>,
  pathValues: Readonly<Record<string, string | undefined>>,
): DecodedParams {
  const values: Record<string, unknown> = {};
  const read = new Set<string>();
  for (const name of Object.keys(shape).sort()) {
    const param = shape[name]!;
    let text: string | undefined;
    if (param.in === 'path') {
      // A `*` route segment (paths with slashes, like navigation view fragments) has no name.
      text = pathValues[name] ?? pathValues['*'];
    } else {
      const present = [name, ...param.aliases].filter((key) => raw.has(key));
      if (present.length > 1) {
        throw new ApiError('REQUEST_CONFUSING_VAR', `Can't decide between '${present[0]}' and '${present[1]}' arguments`);
      }
      const key = present[0];
      if (key !== undefined) {
        read.add(key);
        text = raw.get(key);
      }
    }
    if (text === undefined) {
      if (param.required) throw missing(name);
      continue;
    }
    values[name] = validateParam(name, param, decodeWire(name, param, text));
  }
  const ignored = [...raw.keys()].filter((key) => !read.has(key)).sort();
  return { values, ignored };
}

/** The in-process API's path: typed values, the same schemas, the same errors. */
export function validateParams(shape: ParamShape, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(shape).sort()) {
    const param = shape[name]!;
    const value = input[name];
    if (value === undefined) {
      if (param.required) throw missing(name);
      continue;
    }
    values[name] = validateParam(name, param, value);
  }
  return values;
}

/** pydantic's wording for a validator that raised ValueError (Zulip's AfterValidator checks): `Invalid x: Value error, <error>`. */
export const valueErrorMessage = (error: string): string => `Invalid {var}: Value error, ${error}`;

/** An unsigned 32-bit integer (Zulip's check_uint32 message past the range). */
export function uint32() {
  return z.int().check((payload) => {
    if (payload.value < 0 || payload.value > 2 ** 32 - 1) {
      payload.issues.push({ code: 'custom', message: valueErrorMessage('Not a valid unsigned 32-bit integer'), input: payload.value });
    }
  });
}

/** A string limited in Unicode code points (zod counts UTF-16 units): Zulip's max_length. */
export function maxCodePoints(limit: number) {
  return z.string().check((ctx) => {
    if ([...ctx.value].length > limit) {
      ctx.issues.push({ code: 'too_big', origin: 'string', maximum: limit, inclusive: true, input: ctx.value });
    }
  });
}

/** A string stripped of surrounding whitespace as pydantic strips it, then at most `limit` code points. */
export function strippedMax(limit: number) {
  return z.string().overwrite(stripWhiteSpace).pipe(maxCodePoints(limit));
}

/** A stripped string that must not be blank (Zulip's RequiredStringConstraint). */
export function requiredString() {
  return z.string().overwrite(stripWhiteSpace).min(1);
}
