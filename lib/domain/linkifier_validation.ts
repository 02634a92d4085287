// The checks a linkifier passes before it is stored, in the order of Zulip's RealmFilter.full_clean:
// field checks, then clean() (pattern, example text and auto-conversion field, URL template
// variables), then the unique pattern. Failures are Zulip's ValidationFailureError.
import { badRequest } from '../errors.js';
import { compilePattern } from '../render/linkifier_patterns.js';
import { parseTemplate, templateVariables } from '../render/uri_template.js';

/** A linkifier's fields as stored: stripped, optional texts null when empty. */
export interface LinkifierValues {
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: string[];
}

const BLANK = 'This field cannot be blank.';
const INVALID_TEMPLATE = 'Invalid URL template.';
/** Django's unique_together message for RealmFilter (realm, pattern); Zulip sends it under "__all__". */
const DUPLICATE_PATTERN = 'Realm filter with this Realm and Pattern already exists.';
/**
 * Zulip raises MissingDependentParameterError here, a plain JsonableError (no `errors` field);
 * its wording is not in the reference, so this is parley's.
 */
const EXAMPLE_REQUIRED = 'Example text is required when auto-conversion field is set.';

/** Zulip's normalize_optional_text: stripped, and empty means absent. */
export function optionalText(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/** Throws the first failure (msg) with every failure by field (`errors`), as Zulip does. */
export function checkLinkifier(values: LinkifierValues, patternTaken: (pattern: string) => boolean): void {
  const errors = new Map<string, string[]>();
  const add = (field: string, message: string): void => {
    errors.set(field, [...(errors.get(field) ?? []), message]);
  };
  if (values.pattern === '') add('pattern', BLANK);
  if (values.urlTemplate === '') add('url_template', BLANK);
  else if (parseTemplate(values.urlTemplate) === null) add('url_template', INVALID_TEMPLATE);
  if (values.alternativeUrlTemplates.some((template) => template === '' || parseTemplate(template) === null)) {
    add('alternative_url_templates', INVALID_TEMPLATE);
  }
  const problem = cleanLinkifier(values);
  if (problem !== null) add('__all__', problem);
  // Django checks uniqueness only for fields without an error of their own.
  if (!errors.has('pattern') && patternTaken(values.pattern)) add('__all__', DUPLICATE_PATTERN);
  if (errors.size > 0) {
    const [first] = [...errors.values()][0]!;
    throw badRequest(first!, { errors: Object.fromEntries(errors) });
  }
}

/** RealmFilter.clean(): the first problem, or null. */
function cleanLinkifier(values: LinkifierValues): string | null {
  let regex: ReturnType<typeof compilePattern>;
  try {
    regex = compilePattern(values.pattern);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    return message === '' ? 'Unknown regular expression error' : `Bad regular expression: ${message}`;
  }
  const groups = groupNames(values.pattern);
  const { exampleInput, reverseTemplate } = values;
  if (reverseTemplate !== null && exampleInput === null) throw badRequest(EXAMPLE_REQUIRED);
  if (exampleInput !== null) {
    regex.lastIndex = 0;
    const match = regex.exec(exampleInput);
    if (match === null) return 'Example input does not match the linkifier pattern.';
    if (reverseTemplate !== null) {
      const reversed = expandReverseTemplate(reverseTemplate, (match.groups ?? {}) as Record<string, string | undefined>, groups);
      if (reversed.error !== undefined) return reversed.error;
      if (reversed.text !== exampleInput) return 'Example text does not match auto-conversion field.';
    }
  }
  const template = parseTemplate(values.urlTemplate);
  // An invalid template is reported once, by the field check.
  if (template === null) return null;
  const variables = templateVariables(template);
  const notInPattern = [...variables].filter((name) => !groups.has(name)).sort();
  if (notInPattern.length > 0) return `Group ${pythonRepr(notInPattern[0]!)} in URL template is not present in linkifier pattern.`;
  const notInTemplate = [...groups].filter((name) => !variables.has(name)).sort();
  if (notInTemplate.length > 0) return `Group ${pythonRepr(notInTemplate[0]!)} in linkifier pattern is not present in URL template.`;
  return null;
}

/** The pattern's named groups (RE2's groupindex), read from a match of the always-matching `(?:P)|`. */
function groupNames(pattern: string): Set<string> {
  // `\E` closes a `\Q` quote the pattern may leave open at its end.
  for (const wrapped of [`(?:${pattern})|`, `(?:${pattern}\\E)|`]) {
    try {
      return new Set(Object.keys(compilePattern(wrapped).exec('')?.groups ?? {}));
    } catch {
      continue;
    }
  }
  return new Set();
}

/** Zulip's expand_reverse_template: `{name}` is the group's text, `{{` and `}}` are braces. */
function expandReverseTemplate(
  template: string,
  groups: Readonly<Record<string, string | undefined>>,
  names: ReadonlySet<string>,
): { text: string; error?: undefined } | { text?: undefined; error: string } {
  let text = '';
  let index = 0;
  while (index < template.length) {
    if (template.startsWith('{{', index)) {
      text += '{';
      index += 2;
    } else if (template.startsWith('}}', index)) {
      text += '}';
      index += 2;
    } else if (template[index] === '{') {
      const end = template.indexOf('}', index + 1);
      if (end === -1) return { error: "Invalid auto-conversion field: missing '}' character." };
      const name = template.slice(index + 1, end);
      if (name === '') return { error: 'Invalid auto-conversion field: empty field name.' };
      if (!names.has(name)) return { error: `Group ${pythonRepr(name)} in auto-conversion field is not present in linkifier pattern.` };
      text += groups[name] ?? '';
      index = end + 1;
    } else {
      text += template[index];
      index += 1;
    }
  }
  return { text };
}

/** Python's repr() of a string, which Zulip's `%(name)r` messages use. */
function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '\\' || char === quote) out += '\\' + char;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0');
    else out += char;
  }
  return quote + out + quote;
}
