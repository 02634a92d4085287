// Zulip's WildValue (zerver/lib/validator.py): a parsed JSON payload read field by field, each read
// checked, with Zulip's messages naming the path (`payload['sender']['login'] is missing`,
// `payload['ref'] is not a string`). A bad payload is a 400 with that message (Zulip answers 500).
import { badRequest } from '../errors.js';
import { pythonStrRepr } from './python.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python's bool() of a JSON value. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return true;
}

const invalid = (message: string): never => {
  throw badRequest(message);
};

/** Django's URLValidator, as Zulip's check_url runs it: http(s)/ftp(s) URLs with a host. */
export function isUrl(text: string): boolean {
  if (text.length > 2048 || /\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return ['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

export class Wild {
  constructor(
    readonly name: string,
    readonly value: unknown,
  ) {}

  private dict(): Record<string, unknown> {
    if (!isDict(this.value)) invalid(`${this.name} is not a dict`);
    return this.value as Record<string, unknown>;
  }

  private list(): unknown[] {
    if (!Array.isArray(this.value)) invalid(`${this.name} is not a list`);
    return this.value as unknown[];
  }

  /** `payload[key]`: missing keys are an error. */
  at(key: string): Wild {
    const dict = this.dict();
    const name = `${this.name}[${pythonStrRepr(key)}]`;
    if (!Object.hasOwn(dict, key)) invalid(`${name} is missing`);
    return new Wild(name, dict[key]);
  }

  /** `payload.get(key, fallback)`: a missing key gives the fallback (None by default). */
  get(key: string, fallback: Json = null): Wild {
    const dict = this.dict();
    return new Wild(`${this.name}[${pythonStrRepr(key)}]`, Object.hasOwn(dict, key) ? dict[key] : fallback);
  }

  /** `key in payload`. */
  has(key: string): boolean {
    return Object.hasOwn(this.dict(), key);
  }

  /** `for item in payload`. */
  items(): Wild[] {
    return this.list().map((item, i) => new Wild(`${this.name}[${i}]`, item));
  }

  /** `payload.items()`. */
  entries(): [string, Wild][] {
    return Object.entries(this.dict()).map(([key, item]) => [key, new Wild(`${this.name}[${pythonStrRepr(key)}]`, item)]);
  }

  keys(): string[] {
    return Object.keys(this.dict());
  }

  /** `bool(payload)`. */
  get truthy(): boolean {
    return truthy(this.value);
  }

  get isNone(): boolean {
    return this.value === null || this.value === undefined;
  }

  /** check_string. */
  str(): string {
    if (typeof this.value !== 'string') invalid(`${this.name} is not a string`);
    return this.value as string;
  }

  /** check_int (Python's bool is an int too). */
  int(): number {
    if (typeof this.value === 'boolean') return this.value ? 1 : 0;
    if (typeof this.value !== 'number' || !Number.isInteger(this.value)) invalid(`${this.name} is not an integer`);
    return this.value as number;
  }

  /** check_union([check_int, check_float]). */
  number(): number {
    if (typeof this.value !== 'number') invalid(`${this.name} is not an allowed_type`);
    return this.value as number;
  }

  /** check_bool. */
  bool(): boolean {
    if (typeof this.value !== 'boolean') invalid(`${this.name} is not a boolean`);
    return this.value as boolean;
  }

  /** check_none_or(check_string). */
  strOrNone(): string | null {
    return this.isNone ? null : this.str();
  }

  /** check_url. */
  url(): string {
    const text = this.str();
    if (!isUrl(text)) invalid(`${this.name} is not a URL`);
    return text;
  }

  /** check_string_in(values). */
  oneOf<const T extends string>(values: readonly T[]): T {
    const text = this.str();
    if (!(values as readonly string[]).includes(text)) invalid(`Invalid ${this.name}`);
    return text as T;
  }

  /** check_dict with required keys, each checked as a string or by `check` (sub-names in double quotes). */
  requireKeys(keys: readonly string[]): void {
    const dict = this.dict();
    for (const key of keys) if (!Object.hasOwn(dict, key)) invalid(`${key} key is missing from ${this.name}`);
  }

  /** A key of a dict checked by check_dict: its name is `name["key"]`. */
  field(key: string): Wild {
    return new Wild(`${this.name}["${key}"]`, this.dict()[key]);
  }
}

/** The request body as a WildValue named `payload`. */
export function wildPayload(value: unknown): Wild {
  return new Wild('payload', value);
}
