// boundedMemo (lib/memo.ts): remembers values of a pure function, never more than its limit.
import t from 'tap';
import { boundedMemo } from '../lib/memo.js';

t.test('values are computed once per key, and the memo empties itself when full', async (t) => {
  const computed: number[] = [];
  const double = boundedMemo(3, (n: number) => (computed.push(n), n * 2));
  t.same([double(1), double(2), double(1), double(3), double(2)], [2, 4, 2, 6, 4]);
  t.same(computed, [1, 2, 3], 'each key computed once while it fits');
  t.equal(double(4), 8, 'a fourth key empties the memo');
  t.equal(double(1), 2);
  t.same(computed, [1, 2, 3, 4, 1], 'so earlier keys are computed again');
});

t.test('a computation that throws remembers nothing', async (t) => {
  let calls = 0;
  const parse = boundedMemo(10, (text: string) => {
    calls += 1;
    if (text === 'bad') throw new Error('bad input');
    return text.length;
  });
  t.throws(() => parse('bad'), /bad input/);
  t.throws(() => parse('bad'), /bad input/);
  t.equal(calls, 2, 'the error is raised again, not cached');
  t.equal(parse('good'), 4);
});
