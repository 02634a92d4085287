// RFC 6570 URL templates (level 4) for linkifiers, through @hyperjump/uri-template: checking a
// template, listing its variables, and expanding it with a match's named groups.
import UriTemplate from '@hyperjump/uri-template';

export type ParsedTemplate = UriTemplate.Template;

/** The parsed template, or null when the text is not a valid RFC 6570 template. */
export function parseTemplate(text: string): ParsedTemplate | null {
  try {
    return UriTemplate.parse(text);
  } catch {
    return null;
  }
}

/** The variable names a template uses (Python uri_template's variable_names). */
export function templateVariables(template: ParsedTemplate): Set<string> {
  const names = new Set<string>();
  for (const node of template) {
    if (node.type !== 'literal') for (const variable of node.variables) names.add(variable.name);
  }
  return names;
}

const SURROGATE = /[\uD800-\uDFFF]/;
const ASTRAL = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Expands with string values; undefined values are left out (a group that did not take part in
 * the match), as Python's uri_template does with None.
 */
export function expandTemplate(template: ParsedTemplate, values: Readonly<Record<string, string | undefined>>): string {
  const defined: Record<string, string> = {};
  let astral = false;
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    defined[name] = value;
    if (SURROGATE.test(value)) astral = true;
  }
  if (!astral) return UriTemplate.expand(template, defined);
  return expandAstral(template, defined);
}

// The library percent-encodes UTF-16 code units one at a time, so a character outside the BMP
// (an emoji) would come out as two U+FFFD. Such characters go through as a marker made of
// unreserved characters (which every operator copies unchanged) and are encoded afterwards.
function expandAstral(template: ParsedTemplate, values: Record<string, string>): string {
  const texts = [...Object.values(values), UriTemplate.stringify(template)];
  let fence = '_u_';
  while (texts.some((text) => text.includes(fence))) fence += '_';
  const marked: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    marked[name] = value.replace(ASTRAL, (char) => `${fence}${char.codePointAt(0)!.toString(16).toUpperCase()}${fence}`);
  }
  const markerRe = new RegExp(`${fence}([0-9A-F]+)${fence}`, 'g');
  return UriTemplate.expand(template, marked).replace(markerRe, (_, hex: string) => percentEncode(String.fromCodePoint(parseInt(hex, 16))));
}

function percentEncode(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((byte) => '%' + byte.toString(16).toUpperCase().padStart(2, '0')).join('');
}
