// The search: narrow (Zulip's NarrowBuilder.by_search): the operand's words are ANDed, each
// matching a word of the topic or the Markdown source that starts with it, "quoted phrases" match
// those words in a row and, as Zulip's ILIKE, the phrase's text itself; and the match_content /
// match_subject fields of the messages found, with the matching words wrapped in
// <span class="highlight"> (Zulip's highlight_string).
import { badRequest } from '../errors.js';

/** A search condition for the store: the FTS5 query (null: nothing can match) and the phrases' texts. */
export interface SearchQuery {
  match: string | null;
  phrases: string[];
  /** The query's words, normalized; `prefix`: the word also matches longer words. */
  terms: { token: string; prefix: boolean }[];
}

// FTS5's unicode61 tokenizer: runs of letters, numbers, private-use characters and combining
// marks; case folded, diacritics removed (remove_diacritics 2).
const TOKEN = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;
const MARKS = /\p{M}/gu;
const ASCII = /^[\x00-\x7f]*$/;

function normalize(token: string): string {
  // ASCII has nothing to decompose: the common case skips normalize(), the costly part.
  return ASCII.test(token) ? token.toLowerCase() : token.normalize('NFD').replace(MARKS, '').toLowerCase();
}

function tokensOf(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => normalize(m[0])).filter((token) => token !== '');
}

/** The search operand as Zulip checks it (check_required_string). */
export function searchOperand(operand: unknown): string {
  if (typeof operand !== 'string') throw badRequest('operand is not a string');
  if (operand.trim() === '') throw badRequest('operand cannot be blank.');
  return operand;
}

/**
 * Words of a search, all its `search` terms together (a word is a run of letters and digits, as
 * the index splits text: `foo-bar` is two). FTS5's work grows with each word (a prefix word reads
 * the postings of every indexed word it starts; a long AND grows faster than linearly): 100 terms
 * of 500 one-letter words took 4-8 s on five messages. The worst searches of 20 words (one-letter
 * prefixes of different words; the commonest word 20 times in a quoted phrase) took 60-180 ms over
 * 100,000 messages where a one-letter search took 11-18 ms, and under 1 ms over five.
 */
export const MAX_SEARCH_WORDS = 20;
/** "Quoted phrases" of a search: each is also a substring test of every message the index finds. */
export const MAX_SEARCH_PHRASES = 5;

/**
 * Zulip's split of an operand: "quoted phrases" and whitespace-separated words. A word or a phrase
 * given twice is one condition.
 */
export function parseSearch(operand: string): SearchQuery {
  const parts = new Set<string>();
  const phrases = new Set<string>();
  const terms = new Map<string, SearchQuery['terms'][number]>();
  let words = 0;
  let quoted = 0;
  for (const [part] of operand.matchAll(/"[^"]+"|\S+/g)) {
    const phrase = part.length > 2 && part.startsWith('"') && part.endsWith('"');
    if (phrase && ++quoted > MAX_SEARCH_PHRASES) throw badRequest(`Too many quoted phrases in the search (limit: ${MAX_SEARCH_PHRASES})`);
    if (phrase) phrases.add(part.slice(1, -1));
    const tokens = tokensOf(phrase ? part.slice(1, -1) : part);
    words += tokens.length;
    if (words > MAX_SEARCH_WORDS) throw badRequest(`Too many words in the search (limit: ${MAX_SEARCH_WORDS})`);
    if (tokens.length === 0) continue;
    // Tokens hold only letters and numbers: quoting them is all the escaping FTS5 needs.
    parts.add(`"${tokens.join(' ')}"${phrase ? '' : '*'}`);
    tokens.forEach((token, i) => {
      const prefix = !phrase && i === tokens.length - 1;
      terms.set(`${prefix ? '*' : ''}${token}`, { token, prefix });
    });
  }
  // Like Zulip's tsquery of an operand without a word, a search without one matches nothing.
  return { match: parts.size > 0 ? [...parts].join(' ') : null, phrases: [...phrases], terms: [...terms.values()] };
}

const HIGHLIGHT_START = '<span class="highlight">';
const HIGHLIGHT_END = '</span>';
/**
 * Highlighted words per string. Each adds 31 bytes to the answer: a page of 1,000 messages of
 * 10,000 matching one-letter words was an answer of 120-180 MiB that took seconds to build (10 MiB
 * without the search). Past the bound the rest of the text is left as it is.
 */
export const MAX_HIGHLIGHTS = 100;

/** Whether a normalized word matches a term: equal to one, or starting with a prefix term. */
function wordMatcher(terms: SearchQuery['terms']): (word: string) => boolean {
  const exact = new Set(terms.filter((term) => !term.prefix).map((term) => term.token));
  const prefixes = new Set(terms.filter((term) => term.prefix).map((term) => term.token));
  const lengths = [...new Set([...prefixes].map((prefix) => prefix.length))];
  return (word) => exact.has(word) || lengths.some((length) => length <= word.length && prefixes.has(word.slice(0, length)));
}

const isAsciiWordChar = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);

/** Whether each position, asked in increasing order, is inside a tag: the last `<` or `>` before it is a `<`. */
function tagTracker(html: string): (at: number) => boolean {
  // Walking forward to the next bracket keeps a page's pass linear (looking back from each match was quadratic).
  let lastOpen = -1;
  let lastClose = -1;
  let nextOpen = html.indexOf('<');
  let nextClose = html.indexOf('>');
  return (at) => {
    for (; nextOpen !== -1 && nextOpen < at; nextOpen = html.indexOf('<', nextOpen + 1)) lastOpen = nextOpen;
    for (; nextClose !== -1 && nextClose < at; nextClose = html.indexOf('>', nextClose + 1)) lastClose = nextClose;
    return lastOpen > lastClose;
  };
}

/** [start, end) of each matching word of ASCII HTML, found with indexOf: the common case, fast. */
function asciiMatches(html: string, lower: string, terms: SearchQuery['terms']): [number, number][] {
  const found: [number, number][] = [];
  for (const term of terms) {
    const inTag = tagTracker(html);
    for (let at = lower.indexOf(term.token); at !== -1; at = lower.indexOf(term.token, at + 1)) {
      if (at > 0 && isAsciiWordChar(lower.charCodeAt(at - 1))) continue;
      let end = at + term.token.length;
      if (term.prefix) while (end < lower.length && isAsciiWordChar(lower.charCodeAt(end))) end += 1;
      else if (end < lower.length && isAsciiWordChar(lower.charCodeAt(end))) continue;
      const inReference = html[at - 1] === '&' || (html[at - 1] === '#' && html[at - 2] === '&');
      if (!inTag(at) && !inReference) found.push([at, end]);
    }
  }
  if (terms.length === 1) return found;
  // Several terms may match the same word: keep each word once, in order.
  found.sort((a, b) => a[0] - b[0]);
  return found.filter((match, i) => i === 0 || match[0] >= found[i - 1]![1]);
}

/** A function giving HTML with each matching word of its text (not of its tags or character references) highlighted. */
function highlighter(terms: SearchQuery['terms']): (html: string) => string {
  const matches = wordMatcher(terms);
  return (html) => {
    // A string that contains no term's text, folded, has no match: most strings need no pass.
    const folded = normalize(html);
    if (!terms.some((term) => folded.includes(term.token))) return html;
    if (ASCII.test(html)) {
      let result = '';
      let position = 0;
      for (const [start, end] of asciiMatches(html, folded, terms).slice(0, MAX_HIGHLIGHTS)) {
        result += `${html.slice(position, start)}${HIGHLIGHT_START}${html.slice(start, end)}${HIGHLIGHT_END}`;
        position = end;
      }
      return result + html.slice(position);
    }
    // Normalizing is the costly part: each distinct word of the text once.
    const known = new Map<string, boolean>();
    let highlighted = 0;
    return html.replace(/(<[^>]*>|&#?\w+;)|[\p{L}\p{N}\p{Co}\p{M}]+/gu, (text, markup: string | undefined) => {
      if (markup !== undefined || highlighted === MAX_HIGHLIGHTS) return text;
      let match = known.get(text);
      if (match === undefined) known.set(text, (match = matches(normalize(text))));
      if (!match) return text;
      highlighted += 1;
      return `${HIGHLIGHT_START}${text}${HIGHLIGHT_END}`;
    });
  };
}

/** Zulip's escape_html of a topic, as match_subject starts from. */
function escapeTopic(topic: string): string {
  return topic.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Zulip's get_search_fields, for each message of a page (the query's words prepared once). */
export function searchFields(query: SearchQuery): (row: { rendered_content: string; topic: string }) => { match_content: string; match_subject: string } {
  const highlight = highlighter(query.terms);
  return (row) => ({ match_content: highlight(row.rendered_content), match_subject: highlight(escapeTopic(row.topic)) });
}
