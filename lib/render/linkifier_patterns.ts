// A linkifier compiled for rendering: the RE2 pattern inside Zulip's boundary wrapper, the parsed
// URL template, the one search step message text and topics share, and the RE2.Set prefilter
// that finds in one pass which linkifiers can match a text at all.
import RE2 from 're2';
import { expandTemplate, parseTemplate } from './uri_template.js';

export interface CompiledLinkifier {
  id: number;
  pattern: string;
  urlTemplate: string;
  /** The wrapped pattern (global); null when it does not compile, so it never matches. */
  regex: RE2 | null;
  /** The URL for a match's named groups; null when the template does not parse. */
  url: (groups: Readonly<Record<string, string | undefined>>) => string | null;
}

export interface LinkifierMatch {
  /** Start of the whole match, the leading delimiter included (Zulip's topic_links index). */
  index: number;
  /** The linkified text: [start, end). */
  start: number;
  end: number;
  text: string;
  /** Length of the trailing delimiter, which the next search may start with. */
  afterLength: number;
  groups: Record<string, string | undefined>;
}

const BEFORE = 'linkifier_before_match';
const ACTUAL = 'linkifier_actual_match';
const AFTER = 'linkifier_after_match';

/**
 * Zulip's prepare_linkifier_pattern in RE2 syntax: a match starts at the start of the text or
 * after white space, NEL, a Unicode separator or one of '"(,:< and ends at the end of the text
 * or before a character that is neither a letter nor a digit.
 */
function wrapPattern(pattern: string): string {
  return `(?P<${BEFORE}>^|\\s|\\x{85}|\\pZ|['"(,:<])(?P<${ACTUAL}>${pattern})(?P<${AFTER}>$|[^\\pL\\pN])`;
}

/** Compiles the user's pattern alone (validation); throws RE2's SyntaxError. */
export function compilePattern(pattern: string): RE2 {
  return new RE2(pattern, 'u');
}

export function compileLinkifier(row: { id: number; pattern: string; url_template: string }): CompiledLinkifier {
  let regex: RE2 | null = null;
  try {
    regex = new RE2(wrapPattern(row.pattern), 'gu');
  } catch {
    // A pattern stored before a validation change, or one using the wrapper's group names:
    // Zulip compiles such a pattern to one that never matches, so rendering never fails.
  }
  const template = parseTemplate(row.url_template);
  return {
    id: row.id,
    pattern: row.pattern,
    urlTemplate: row.url_template,
    regex,
    url: (groups) => (template === null ? null : expandTemplate(template, groups)),
  };
}

/** The first match at or after `from`, or null. */
export function searchLinkifier(linkifier: CompiledLinkifier, text: string, from: number): LinkifierMatch | null {
  const regex = linkifier.regex;
  if (regex === null || from > text.length) return null;
  regex.lastIndex = from;
  const m = regex.exec(text);
  if (m === null) return null;
  const groups = (m.groups ?? {}) as Record<string, string | undefined>;
  const start = m.index + (groups[BEFORE] ?? '').length;
  const actual = groups[ACTUAL] ?? '';
  return {
    index: m.index,
    start,
    end: start + actual.length,
    text: actual,
    afterLength: (groups[AFTER] ?? '').length,
    groups,
  };
}

type RE2Set = InstanceType<typeof RE2.Set>;

interface Prefilter {
  set: RE2Set;
  /** Set member -> index in the linkifier list. */
  indexes: number[];
}

const prefilters = new WeakMap<readonly CompiledLinkifier[], Prefilter | null>();
/** Below this many linkifiers, searching each one directly costs less than the set. */
const PREFILTER_MIN = 4;

/**
 * The indexes, in order, of the linkifiers that may match in `text` (a superset: the wrapped
 * pattern can only match where the user's pattern does). The set of the raw patterns is built
 * once per list (currentLinkifiers keeps one list per version); the wrapped patterns' Unicode
 * classes would make it ~200x slower to build.
 */
export function linkifiersThatMayMatch(linkifiers: readonly CompiledLinkifier[], text: string): number[] {
  const usable = (): number[] => linkifiers.flatMap((l, i) => (l.regex === null ? [] : [i]));
  if (linkifiers.length < PREFILTER_MIN) return usable();
  let prefilter = prefilters.get(linkifiers);
  if (prefilter === undefined) {
    prefilter = buildPrefilter(linkifiers);
    prefilters.set(linkifiers, prefilter);
  }
  if (prefilter === null) return usable();
  try {
    return prefilter.set.match(text).map((member) => prefilter.indexes[member]!);
  } catch {
    // RE2.Set throws (never answers wrongly) when its DFA runs out of memory: search them all.
    prefilters.set(linkifiers, null);
    return usable();
  }
}

function buildPrefilter(linkifiers: readonly CompiledLinkifier[]): Prefilter | null {
  const indexes: number[] = [];
  const patterns: string[] = [];
  linkifiers.forEach((l, i) => {
    if (l.regex === null) return;
    indexes.push(i);
    patterns.push(l.pattern);
  });
  try {
    return { set: new RE2.Set(patterns, 'u'), indexes };
  } catch {
    return null;
  }
}

// markdown-it's validateLink rule, for topic links, which are not rendered by markdown-it:
// a linkifier must not produce a script URL.
const BAD_PROTOCOL = /^(vbscript|javascript|file|data):/;

export function isSafeUrl(url: string): boolean {
  return !BAD_PROTOCOL.test(url.trim().toLowerCase());
}
