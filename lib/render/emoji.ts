// The Unicode emoji names and codes (Zulip's name_to_codepoint / codepoint_to_name), built once,
// on first use, from the emoji-datasource package (iamcal's data, which Zulip's names derive from).
import { createRequire } from 'node:module';

interface EmojiDatum {
  unified: string;
  short_name: string;
  short_names: string[];
  category: string;
}

interface UnicodeEmojiTables {
  /** Every short name, aliases included -> code. */
  nameToCode: ReadonlyMap<string, string>;
  /** Code -> the emoji's first (canonical) short name. */
  codeToName: ReadonlyMap<string, string>;
  /** Code -> every short name, the canonical one first (Zulip's code_to_names). */
  codeToNames: ReadonlyMap<string, readonly string[]>;
}

let tables: UnicodeEmojiTables | undefined;

/**
 * iamcal's `unified` without the U+FE0F variation selectors, lowercase: Zulip's codes drop them
 * (unqualify_emoji), so heart is `2764`, not `2764-fe0f`. It equals iamcal's `non_qualified`
 * wherever that exists.
 */
export function zulipEmojiCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

function build(): UnicodeEmojiTables {
  const data = createRequire(import.meta.url)('emoji-datasource/emoji.json') as EmojiDatum[];
  const nameToCode = new Map<string, string>();
  const codeToName = new Map<string, string>();
  const codeToNames = new Map<string, string[]>();
  for (const emoji of data) {
    // Skin-tone modifiers are not emoji one can pick on their own (Zulip has no names for them).
    if (emoji.category === 'Component') continue;
    const code = zulipEmojiCode(emoji.unified);
    codeToName.set(code, emoji.short_name);
    codeToNames.set(code, [emoji.short_name, ...emoji.short_names.filter((name) => name !== emoji.short_name)]);
    for (const name of emoji.short_names) nameToCode.set(name, code);
  }
  return { nameToCode, codeToName, codeToNames };
}

function unicodeTables(): UnicodeEmojiTables {
  tables ??= build();
  return tables;
}

/** The code of a Unicode emoji name (aliases included), e.g. `car` -> `1f697`. */
export function unicodeEmojiCode(name: string): string | undefined {
  return unicodeTables().nameToCode.get(name);
}

/** The canonical name of a Unicode emoji code, or undefined when the code is not an emoji. */
export function unicodeEmojiName(code: string): string | undefined {
  return unicodeTables().codeToName.get(code);
}

export function isUnicodeEmojiName(name: string): boolean {
  return unicodeTables().nameToCode.has(name);
}

/** Every Unicode emoji code with its names, the canonical name first. */
export function unicodeEmojiNamesByCode(): ReadonlyMap<string, readonly string[]> {
  return unicodeTables().codeToNames;
}
