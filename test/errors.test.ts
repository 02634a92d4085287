// The error-code table of docs/errors.md and ERROR_CODES in lib/errors.ts list the same codes with
// the same HTTP statuses.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ERROR_CODES } from '../lib/errors.js';

const page = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

/** The rows `| \`CODE\` | status | when |` of docs/errors.md. */
function documentedCodes(): [string, number][] {
  return [...page.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]);
}

t.test('the docs/errors.md table and ERROR_CODES list exactly the same codes with the same HTTP statuses', async (t) => {
  const rows = documentedCodes();
  t.ok(rows.length > 0, 'docs/errors.md has an error table');
  const names = rows.map(([code]) => code);
  t.same(names.filter((code, i) => names.indexOf(code) !== i), [], 'no code is listed twice');
  t.same(Object.fromEntries([...rows].sort()), Object.fromEntries(Object.entries(ERROR_CODES).sort()));
});

t.test('every status in ERROR_CODES is an HTTP error status', async (t) => {
  for (const [code, status] of Object.entries(ERROR_CODES)) t.ok(status >= 400 && status <= 599, `${code}: ${status}`);
});
