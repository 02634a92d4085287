// Prints "N passed, N failed" for a tap run's TAP output (the file named as the argument).
// tap's own summary line `# { total: N, pass: N, fail: N, ... }` gives the real counts when the run
// reached its end. Without it (tap itself died), the leaf test points are counted: assertions,
// not the subtests that group them, and a subtest that fails without a failing point inside (a
// test file that crashed before its first assertion) counts as one failure.
import { readFileSync } from 'node:fs';

const lines = readFileSync(process.argv[2], 'utf8').split('\n');

const summary = lines
  .map((line) => /^# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/.exec(line))
  .filter(Boolean)
  .at(-1);
if (summary) {
  const [, total, pass, fail] = summary.map(Number);
  // total - pass: failures, and anything tap counted neither as passed nor failed, never hidden.
  console.log(`${pass} passed, ${Math.max(fail || 0, total - pass)} failed`);
} else {
  let passed = 0;
  let failed = 0;
  let previousIndent = -1;
  let inYaml = false;
  // Failures counted inside the subtest that is open at each indentation.
  const failuresAt = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    // A point's YAML diagnostics (--- ... ...) say nothing about nesting.
    if (inYaml) {
      if (line.trim() === '...') inYaml = false;
      continue;
    }
    if (line.trim() === '---') {
      inYaml = true;
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const point = /^\s*(not ok|ok)\b/.exec(line);
    if (point) {
      // A point right after deeper-indented lines closes a subtest: its children were counted.
      const isSubtestSummary = previousIndent > indent;
      const inside = failuresAt.splice(indent + 1).reduce((sum, n) => sum + (n ?? 0), 0);
      if (!isSubtestSummary) {
        if (point[1] === 'ok') passed += 1;
        else failed += 1;
      } else if (point[1] === 'not ok' && inside === 0) {
        failed += 1;
      }
      if (point[1] === 'not ok' && (!isSubtestSummary || inside === 0)) failuresAt[indent] = (failuresAt[indent] ?? 0) + 1;
      failuresAt[indent] = (failuresAt[indent] ?? 0) + inside;
    }
    previousIndent = indent;
  }
  console.log(`${passed} passed, ${failed} failed`);
}
