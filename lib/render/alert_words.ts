// Alert-word matching with Zulip's rules: which users' words occur
// in a message's Markdown source, case-insensitively, with Zulip's word-boundary characters.
import RE2 from 're2';

/** Characters allowed just before a match (Zulip's allowed_before_punctuation). */
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
/**
 * Characters allowed just after a match (Zulip's allowed_after_punctuation). Zulip's set also
 * holds the two-character string `",`, which never equals one character, so `"` is not a boundary.
 */
const AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

// A fence opens a code block up to the matching fence, or to the end of the message when unclosed.
const FENCE = /^ {0,3}(`{3,}|~{3,})[^\n]*(?:\n[\s\S]*?(?:\n {0,3}\1[`~]*[ \t]*(?=\n|(?![\s\S]))|(?![\s\S]))|(?![\s\S]))/gm;

/**
 * The text Zulip's matcher sees: its Markdown preprocessors run first, so line endings are
 * normalized, tabs expanded to spaces (tab stops of 4), and fenced code blocks are stashed away.
 */
export function alertWordSource(content: string): string {
  const normalized = content
    .replace(/[\u0002\u0003]/g, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map(expandTabs)
    .join('\n');
  return normalized.replace(FENCE, '\u0002\u0003').toLowerCase();
}

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let column = 0;
  for (const char of line) {
    if (char === '\t') {
      const spaces = 4 - (column % 4);
      out += ' '.repeat(spaces);
      column += spaces;
    } else {
      out += char;
      column += 1;
    }
  }
  return out;
}

/** Whether a match of a `length`-unit word at `start` of `text` passes Zulip's boundary checks. */
function validAt(text: string, start: number, length: number): boolean {
  // Zulip accepts any match whose preceding character sits at code-point index 0 or below: a
  // match at the start, and (a quirk of its code) a match after exactly one character.
  const validStart = start === 0 || BEFORE.has(text[start - 1]!) || (start <= 2 && [...text.slice(0, start)].length <= 1);
  if (!validStart) return false;
  const end = start + length;
  return end >= text.length || AFTER.has(text[end]!);
}

/** Whether `word` (already lower-cased) occurs in `text` (from alertWordSource) at a valid boundary. */
export function containsAlertWord(text: string, word: string): boolean {
  if (word.length === 0) return false;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (validAt(text, at, word.length)) return true;
  }
  return false;
}

/**
 * The users (among `recipients`, when given) whose alert words occur in the content. `words` are
 * [user_id, word] pairs as stored; each word is lower-cased here as Zulip's automaton does.
 */
export function usersWithAlertWords(
  content: string,
  words: Iterable<readonly [number, string]>,
  recipients?: ReadonlySet<number>,
): Set<number> {
  return new AlertWordMatcher(words).usersIn(content, recipients);
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/**
 * The organization's alert words compiled once (Zulip builds one Aho-Corasick automaton per
 * realm): an RE2.Set finds in one linear pass which words occur anywhere in a message, and only
 * those get the boundary checks.
 */
export class AlertWordMatcher {
  readonly #words: string[];
  readonly #owners: number[][];
  readonly #set: InstanceType<typeof RE2.Set> | undefined;

  constructor(pairs: Iterable<readonly [number, string]>) {
    const owners = new Map<string, number[]>();
    for (const [userId, word] of pairs) {
      const lower = word.toLowerCase();
      if (lower.length === 0) continue;
      const list = owners.get(lower);
      if (list) list.push(userId);
      else owners.set(lower, [userId]);
    }
    this.#words = [...owners.keys()];
    this.#owners = [...owners.values()];
    let set: InstanceType<typeof RE2.Set> | undefined;
    try {
      set = this.#words.length > 0 ? new RE2.Set(this.#words.map((w) => w.replace(REGEX_SPECIAL, '\\$&')), 'u') : undefined;
    } catch {
      // Too many words for RE2's DFA budget: check each word instead (same answers, slower).
      set = undefined;
    }
    this.#set = set;
  }

  get size(): number {
    return this.#words.length;
  }

  /** The users (among `recipients`, when given) whose alert words occur in the content. */
  usersIn(content: string, recipients?: ReadonlySet<number>): Set<number> {
    const found = new Set<number>();
    if (this.#words.length === 0) return found;
    const text = alertWordSource(content);
    const candidates = this.#set ? this.#set.match(text) : this.#words.map((_, index) => index);
    for (const index of candidates) {
      const owners = this.#owners[index]!;
      if (recipients && !owners.some((id) => recipients.has(id) && !found.has(id))) continue;
      if (!containsAlertWord(text, this.#words[index]!)) continue;
      for (const id of owners) if (!recipients || recipients.has(id)) found.add(id);
    }
    return found;
  }
}
