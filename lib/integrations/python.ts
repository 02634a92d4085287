// Python's formatting where Zulip's integrations rely on it, so parley's messages match Zulip's to the
// character: str() and repr() of JSON values, str.strip()/rstrip(), fnmatch, json.dumps(indent=2) and
// datetime's isoformat for Zulip's <time:...> syntax.
import { badRequest } from '../errors.js';
import { stripPython } from '../text.js';

export { stripPython };

/** Python's `str.rstrip()`: trailing whitespace (str.isspace) only. */
export function rstripPython(value: string): string {
  return value.length === 0 ? value : stripPython(`.${value}`).slice(1);
}

/**
 * Python's repr() of a float, from the shortest round-tripping digits (both languages pick the
 * same digits): fixed notation for exponents -4..15, otherwise `1e-05` / `1.5e+16`. JSON's `1.0`
 * arrives here as the integer 1 (JavaScript keeps no difference), so it prints as `1`.
 */
function floatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return BigInt(value).toString();
  const [mantissa, exp] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exp);
  if (exponent >= -4 && exponent < 16) {
    const negative = mantissa.startsWith('-');
    const digits = mantissa.replace('-', '').replace('.', '');
    const point = exponent + 1;
    const fixed =
      point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? `${digits}${'0'.repeat(point - digits.length)}.0` : `${digits.slice(0, point)}.${digits.slice(point)}`;
    return (negative ? '-' : '') + fixed;
  }
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** Python's repr() of a str: single quotes unless the text has ' and no ". */
export function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + quote;
}

/** Python's repr() of bytes (`b'...'`), as notify_bot_owner shows a response's raw content. */
export function pythonBytesRepr(bytes: Uint8Array): string {
  const hasSingle = bytes.includes(0x27);
  const quote = hasSingle && !bytes.includes(0x22) ? '"' : "'";
  let out = `b${quote}`;
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (byte < 0x20 || byte >= 0x7f) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + quote;
}

/** Python's repr() of a JSON value (None, True, 1.5, 'text', [..], {..}). */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return floatRepr(value);
  if (typeof value === 'string') return pythonStrRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value as object).map(([key, item]) => `${pythonStrRepr(key)}: ${pythonRepr(item)}`).join(', ')}}`;
}

/** Python's str() of a JSON value: strings as they are, everything else as repr(). */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/**
 * Python's fnmatch.fnmatch on POSIX (case-sensitive): `*`, `?`, `[seq]`, `[!seq]`, as Zulip matches
 * only_events / exclude_events. Ported from fnmatch.translate: glob libraries treat `/` and
 * leading dots specially, which fnmatch does not.
 */
export function fnmatch(name: string, pattern: string): boolean {
  let source = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    i += 1;
    if (c === '*') {
      if (!source.endsWith('[\\s\\S]*')) source += '[\\s\\S]*';
    } else if (c === '?') source += '[\\s\\S]';
    else if (c === '[') {
      let j = i;
      if (j < pattern.length && pattern[j] === '!') j += 1;
      if (j < pattern.length && pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') j += 1;
      if (j >= pattern.length) source += '\\[';
      else {
        let body = pattern.slice(i, j).replace(/\\/g, '\\\\');
        i = j + 1;
        if (body === '') source += '(?!)';
        else if (body === '!') source += '[\\s\\S]';
        else {
          if (body.startsWith('!')) body = `^${body.slice(1)}`;
          else if (body.startsWith('^') || body.startsWith('[')) body = `\\${body}`;
          source += `[${body.replace(/\]/g, '\\]')}]`;
        }
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^(?:${source})$`).test(name);
  } catch {
    // A character class Python accepts but JavaScript does not (a reversed range): no match.
    return false;
  }
}

function jsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const char = text[i]!;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\b') out += '\\b';
    else if (char === '\f') out += '\\f';
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** Python's json.dumps(value, indent=2): ASCII only, `", "`-free item separators, `": "` after keys. */
export function pythonJsonDumps(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? floatRepr(value) : value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  if (typeof value === 'string') return jsonString(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + pythonJsonDumps(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as object);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${jsonString(key)}: ${pythonJsonDumps(item, inner)}`).join(',\n')}\n${indent}}`;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Zulip's datetime_to_global_time(datetime.fromisoformat(text)): `<time:2020-04-29T11:23:45+00:00>`,
 * to the second, keeping the text's UTC offset (`Z` is `+00:00`; none stays none).
 */
export function globalTimeFromIso(text: string): string {
  const match = ISO.exec(text);
  if (!match) throw badRequest(`Invalid isoformat string: ${pythonStrRepr(text)}`);
  const [, year, month, day, hour = '00', minute = '00', second = '00', , zone] = match;
  let offset = '';
  if (zone === 'Z') offset = '+00:00';
  else if (zone !== undefined) {
    const digits = zone.replace(':', '');
    offset = `${digits.slice(0, 3)}:${digits.slice(3, 5) || '00'}`;
  }
  return `<time:${year}-${month}-${day}T${hour}:${minute}:${second}${offset}>`;
}

/** The seconds of years 1-9999, the range of Python's datetime. */
const FIRST_SECOND = -62135596800;
const LAST_SECOND = 253402300799;

/** datetime.fromtimestamp(seconds, timezone.utc) to the second, as `YYYY-MM-DDTHH:MM:SS+00:00`. */
export function utcIsoSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < FIRST_SECOND || seconds >= LAST_SECOND + 1) {
    throw badRequest(`timestamp out of range for platform time_t: ${floatRepr(seconds)}`);
  }
  return `${new Date(Math.floor(seconds) * 1000).toISOString().slice(0, 19)}+00:00`;
}

/** Zulip's datetime_to_global_time(datetime.fromtimestamp(seconds, timezone.utc)). */
export function globalTimeFromTimestamp(seconds: number): string {
  return `<time:${utcIsoSeconds(seconds)}>`;
}
