// The README's error-code table and ERROR_CODES in lib/errors.ts list the same codes with the
// same HTTP statuses.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ERROR_CODES } from '../lib/errors.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The rows `| \`CODE\` | status | when |` of the "Error codes" section. */
function readmeCodes(): [string, number][] {
  const start = readme.indexOf('\n## Error codes\n');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]);
}

t.test('the README error table and ERROR_CODES list exactly the same codes with the same HTTP statuses', async (t) => {
  const rows = readmeCodes();
  t.ok(rows.length > 0, 'the README has an error table');
  const names = rows.map(([code]) => code);
  t.same(names.filter((code, i) => names.indexOf(code) !== i), [], 'no code is listed twice');
  t.same(Object.fromEntries([...rows].sort()), Object.fromEntries(Object.entries(ERROR_CODES).sort()));
});

t.test('every status in ERROR_CODES is an HTTP error status', async (t) => {
  for (const [code, status] of Object.entries(ERROR_CODES)) t.ok(status >= 400 && status <= 599, `${code}: ${status}`);
});
