// Zulip's messages for a parameter its zod schema refused: one template per kind of problem
// (`x is not a list`, `drafts[0]["content"] cannot be blank`, `x is too long (limit: N characters)`),
// naming nested values as Zulip does.
import { z } from 'zod';

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
export function issueMessage(name: string, issue: z.core.$ZodIssue, root: unknown, schema?: z.ZodType): string {
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
