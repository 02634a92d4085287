// Parameters: their declarations (`str()`, `json(schema)`, `pathInt()`...), their wire names, and
// their decoding: Zulip's form encodings (JSON arrays and objects inside form values, JSON booleans
// and integers) turned into typed values by zod schemas, with Zulip's fixed messages (`Missing 'x'
// argument`, lib/http/param_messages.ts). The in-process API runs the same schemas on typed values.
import { z } from 'zod';
import { ApiError, badRequest, missing } from '../errors.js';
import { stripWhiteSpace } from '../text.js';
import { issueMessage } from './param_messages.js';

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

/** A parameter's name on the wire: its camelCase name in snake_case (`draftId` -> `draft_id`). */
export const wireName = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A declared parameter with its two names. */
export interface ParamField {
  /** As routes, domain functions and the in-process API name it: `draftId`. */
  readonly name: string;
  /** As HTTP requests, errors and the OpenAPI document name it: `draft_id`. */
  readonly wire: string;
  readonly param: Param;
}

/** The parameters in Zulip's order, alphabetical by wire name (the first failing one wins). */
export function paramFields(shape: ParamShape): readonly ParamField[] {
  return Object.entries(shape)
    .map(([name, param]) => ({ name, wire: wireName(name), param }))
    .sort((a, b) => (a.wire < b.wire ? -1 : a.wire > b.wire ? 1 : 0));
}

/** Where a call's parameter values come from: a request's text (HTTP) or typed values (in-process). */
export interface ParamSource {
  /** The field's value, undefined when absent; throws the error of a value that cannot be decoded. */
  value(field: ParamField): unknown;
}

/** An HTTP request's raw text values (query and body fields, path segments), decoded as each is read. */
export function formParams(raw: ReadonlyMap<string, string>, pathValues: Readonly<Record<string, string | undefined>>): ParamSource {
  return {
    value({ wire, param }) {
      let text: string | undefined;
      if (param.in === 'path') {
        // A `*` route segment (paths with slashes, like navigation view fragments) has no name.
        text = pathValues[wire] ?? pathValues['*'];
      } else {
        const present = param.aliases.length === 0 ? (raw.has(wire) ? [wire] : []) : [wire, ...param.aliases].filter((key) => raw.has(key));
        if (present.length > 1) {
          throw new ApiError('REQUEST_CONFUSING_VAR', `Can't decide between '${present[0]}' and '${present[1]}' arguments`);
        }
        if (present[0] !== undefined) text = raw.get(present[0]);
      }
      return text === undefined ? undefined : decodeWire(wire, param, text);
    },
  };
}

/** Request keys the endpoint does not read, sorted: Zulip's ignored_parameters_unsupported. */
export function ignoredParams(fields: readonly ParamField[], raw: ReadonlyMap<string, string>): string[] {
  const ignored: string[] = [];
  for (const key of raw.keys()) {
    if (!fields.some(({ wire, param }) => param.in === 'form' && (wire === key || param.aliases.includes(key)))) ignored.push(key);
  }
  return ignored.sort();
}

/** Parameter values by camelCase name, as the in-process API takes them. */
export type ParamValueMap = Readonly<Partial<Record<string, unknown>>>;

/** The in-process API's values: already typed, by camelCase name. */
export function typedParams(input: ParamValueMap): ParamSource {
  return { value: ({ name }) => input[name] };
}

/** Validates every declared parameter, in Zulip's order, with Zulip's messages; the same for every source. */
export function validateParams<P extends ParamShape>(fields: readonly ParamField[], source: ParamSource): ParamValues<P> {
  const values: ParamValues<ParamShape> = {};
  for (const field of fields) {
    const value = source.value(field);
    if (value === undefined) {
      if (field.param.required) throw missing(field.wire);
      continue;
    }
    values[field.name] = validateParam(field.wire, field.param, value);
  }
  return values as ParamValues<P>;
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
