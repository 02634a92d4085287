// Counts the leaf test points of tap's TAP output (assertions, not the subtests that group them)
// and prints "N passed, N failed".
import { readFileSync } from 'node:fs';

const lines = readFileSync(process.argv[2], 'utf8').split('\n');
let passed = 0;
let failed = 0;
let previousIndent = -1;
let inYaml = false;
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
    if (!isSubtestSummary) {
      if (point[1] === 'ok') passed += 1;
      else failed += 1;
    }
  }
  previousIndent = indent;
}
console.log(`${passed} passed, ${failed} failed`);
