// The examples of docs/testing.md run as written, with node:test: the node:test one directly, the
// vitest one with a stand-in for the vitest functions it uses (vitest is not a dependency). The
// Python example is not run here: see the page.
import t from 'tap';
import { exampleBlock, runExample } from './doc_examples.js';

t.setTimeout(120_000);

// describe/it/hooks are node:test's; expect() has the two matchers the example uses.
const VITEST_STAND_IN = `
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
export { beforeEach, describe, it, before as beforeAll, after as afterAll };
export function expect(actual: unknown) {
  return {
    toBe: (expected: unknown) => assert.strictEqual(actual, expected),
    toMatchObject: (expected: Record<string, unknown>) =>
      assert.deepStrictEqual(Object.fromEntries(Object.keys(expected).map((key) => [key, (actual as Record<string, unknown>)[key]])), expected),
  };
}
`;

t.test('the node:test example passes', async (t) => {
  const example = exampleBlock('docs/testing.md', 'node-test');
  t.ok(example);
  const { code, output } = await runExample(example!);
  t.equal(code, 0, output);
  t.match(output, /^# pass 3$/m);
  t.match(output, /^# fail 0$/m);
});

t.test('the vitest example passes', async (t) => {
  const example = exampleBlock('docs/testing.md', 'vitest');
  t.ok(example);
  t.match(example, /from 'vitest'/);
  const { code, output } = await runExample(example!.replace("from 'vitest'", "from './vitest.ts'"), { 'vitest.ts': VITEST_STAND_IN });
  t.equal(code, 0, output);
  t.match(output, /^# pass 2$/m);
  t.match(output, /^# fail 0$/m);
});

t.test('the page has the Python example, which starts parley serve', async (t) => {
  const example = exampleBlock('docs/testing.md', 'pytest', 'python');
  t.ok(example);
  t.match(example, /"serve", "--db", db, "--port", "0"/);
  t.match(example, /parley listening on \(\\S\+\)/);
});
