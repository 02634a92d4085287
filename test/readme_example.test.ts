// The README's example of a bot test (the TypeScript block after `<!-- example: bot-test -->`)
// runs as written, with node:test, against parley's sources, and passes.
import t from 'tap';
import { exampleBlock, runExample } from './doc_examples.js';

t.setTimeout(120_000);

const example = exampleBlock('README.md', 'bot-test');

t.test('the README has the example', async (t) => {
  t.ok(example, 'a ```ts block after the marker');
  t.match(example, /from 'parley'/, 'it imports parley as a user would');
  t.match(example, /from 'parley\/testing'/, 'and its test kit');
});

t.test('the example passes', async (t) => {
  const { code, output } = await runExample(example!);
  t.equal(code, 0, output);
  t.match(output, /^# pass 1$/m);
  t.match(output, /^# fail 0$/m);
});
