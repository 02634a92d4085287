#!/usr/bin/env node
// Writes lib/render/zulip_emoji_names.json, Zulip's Unicode emoji names (canonical name first,
// then the aliases, per emoji code), from Zulip's EMOJI_NAME_MAPS.
//
// Usage: node tools/zulip-emoji-names.mjs <file>
//   <file> is Zulip's tools/setup/emoji/emoji_names.py (https://github.com/zulip/zulip,
//   Apache-2.0), or Zulip Terminal's zulipterminal/unicode_emojis.py, which is that map
//   converted entry for entry (canonical name -> code and aliases).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [input, source] = process.argv.slice(2);
if (!input) {
  console.error('usage: node tools/zulip-emoji-names.mjs <emoji_names.py or unicode_emojis.py> [source description]');
  process.exit(2);
}

const QUOTED = /['"]([^'"]*)['"]/g;
const list = (text) => [...text.matchAll(QUOTED)].map((match) => match[1]);
// Zulip:          '1f44d': {'canonical_name': '+1', 'aliases': ['thumbs_up', 'like']},
const ZULIP = /^\s*['"]([0-9a-f-]+)['"]\s*:\s*\{\s*['"]canonical_name['"]\s*:\s*['"]([^'"]+)['"]\s*,\s*['"]aliases['"]\s*:\s*\[([^\]]*)\]/;
// Zulip Terminal: "+1": {'code': '1f44d', 'aliases': ['thumbs_up', 'like']},
const TERMINAL = /^\s*['"]([^'"]+)['"]\s*:\s*\{\s*['"]code['"]\s*:\s*['"]([0-9a-f-]+)['"]\s*,\s*['"]aliases['"]\s*:\s*\[([^\]]*)\]/;

const codeToNames = {};
for (const line of readFileSync(input, 'utf8').split('\n')) {
  if (/^\s*#/.test(line)) continue;
  let match = ZULIP.exec(line);
  if (match) {
    codeToNames[match[1]] = [match[2], ...list(match[3])];
    continue;
  }
  match = TERMINAL.exec(line);
  if (match) codeToNames[match[2]] = [match[1], ...list(match[3])];
}

const count = Object.keys(codeToNames).length;
if (count < 1000) {
  console.error(`only ${count} emoji found in ${input}: not Zulip's EMOJI_NAME_MAPS?`);
  process.exit(1);
}
const sorted = Object.fromEntries(Object.entries(codeToNames).sort(([a], [b]) => (a < b ? -1 : 1)));
const out = fileURLToPath(new URL('../lib/render/zulip_emoji_names.json', import.meta.url));
const data = {
  source: source ?? "Zulip's tools/setup/emoji/emoji_names.py (EMOJI_NAME_MAPS), https://github.com/zulip/zulip",
  license: 'Apache-2.0',
  generated_by: 'tools/zulip-emoji-names.mjs',
  code_to_names: sorted,
};
writeFileSync(out, `${JSON.stringify(data, null, 0).replace(/\],"/g, '],\n"')}\n`);
console.log(`${count} emoji written to ${out}`);
