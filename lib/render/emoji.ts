// The Unicode emoji names and codes (Zulip's name_to_codepoint / codepoint_to_name / code_to_names):
// Zulip's names (zulip_emoji_names.ts, made by tools/zulip-emoji-names.mjs from Zulip's
// EMOJI_NAME_MAPS), then, for compatibility, the emoji-datasource package's short names that name
// no Zulip emoji (`thumbsup`, and the emoji Zulip's map lacks). Built once per process.
import { createRequire } from 'node:module';
import { zulipCodeToNames } from './zulip_emoji_names.js';

interface EmojiDatum {
  unified: string;
  short_name: string;
  short_names: string[];
  category: string;
}

export interface UnicodeEmojiTables {
  /** Every accepted name, Zulip's aliases and the package's names included -> code. */
  nameToCode: ReadonlyMap<string, string>;
  /** Code -> the emoji's canonical name (Zulip's, else the package's). */
  codeToName: ReadonlyMap<string, string>;
  /** Code -> its names, the canonical one first (Zulip's code_to_names): Zulip's names for Zulip's emoji. */
  codeToNames: ReadonlyMap<string, readonly string[]>;
}

/**
 * iamcal's `unified` without the U+FE0F variation selectors, lowercase: Zulip's codes drop them
 * (unqualify_emoji), so heart is `2764`, not `2764-fe0f`. It equals iamcal's `non_qualified`
 * wherever that exists.
 */
function zulipEmojiCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

let tables: UnicodeEmojiTables | undefined;

/**
 * The tables, built on first use and kept for the process: they come from packages, never from a
 * database, and building them took 2-4 ms of each new server's first message (a test of a bot
 * creates or restores a server per test: bench/testkit.bench.ts).
 */
export function unicodeEmojiTables(): UnicodeEmojiTables {
  tables ??= buildUnicodeEmojiTables();
  return tables;
}

function buildUnicodeEmojiTables(): UnicodeEmojiTables {
  const nameToCode = new Map<string, string>();
  const codeToName = new Map<string, string>();
  const codeToNames = new Map<string, readonly string[]>();
  for (const [code, names] of Object.entries(zulipCodeToNames)) {
    codeToName.set(code, names[0]!);
    codeToNames.set(code, names);
    for (const name of names) nameToCode.set(name, code);
  }
  const data = createRequire(import.meta.url)('emoji-datasource/emoji.json') as EmojiDatum[];
  for (const emoji of data) {
    // Skin-tone modifiers are not emoji one can pick on their own (Zulip has no names for them).
    if (emoji.category === 'Component') continue;
    const code = zulipEmojiCode(emoji.unified);
    const names = emoji.short_names.filter((name) => !nameToCode.has(name));
    for (const name of names) nameToCode.set(name, code);
    if (codeToName.has(code) || names.length === 0) continue;
    const canonical = names.includes(emoji.short_name) ? emoji.short_name : names[0]!;
    codeToName.set(code, canonical);
    codeToNames.set(code, [canonical, ...names.filter((name) => name !== canonical)]);
  }
  return { nameToCode, codeToName, codeToNames };
}
