// The test kit's clock (lib/testing/clock.ts): time moves only by advance(), and timers fire in
// order, each with the clock at its due time, as advance() passes them.
import t from 'tap';
import { createTestClock, DEFAULT_START_MS, markClock, rewindClock } from '../lib/testing/clock.js';

t.test('the clock starts at 2025-01-01T00:00:00Z, or at the given time, and stands still', async (t) => {
  const clock = createTestClock();
  t.equal(clock.now(), Date.parse('2025-01-01T00:00:00Z'));
  t.equal(DEFAULT_START_MS, clock.now());
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(clock.now(), DEFAULT_START_MS, 'real time passing does not move it');
  t.equal(createTestClock(1_000).now(), 1_000);
  t.throws(() => createTestClock(Number.NaN), new RangeError('The start of a test clock must be a finite time, not NaN'));
});

t.test('advance moves the time by exactly the given milliseconds', async (t) => {
  const clock = createTestClock(0);
  await clock.advance(1_500);
  t.equal(clock.now(), 1_500);
  await clock.advance(0);
  t.equal(clock.now(), 1_500);
  await t.rejects(clock.advance(-1), new RangeError('advance() takes a finite, non-negative number of ms, not -1'));
  await t.rejects(clock.advance(Number.POSITIVE_INFINITY), new RangeError('advance() takes a finite, non-negative number of ms, not Infinity'));
  t.equal(clock.now(), 1_500, 'a refused advance moves nothing');
});

t.test('a timer fires when advance passes its due time, with now() at that time, and only once', async (t) => {
  const clock = createTestClock(0);
  const fired: number[] = [];
  clock.timers.after(1_000, () => fired.push(clock.now()));
  await clock.advance(999);
  t.same(fired, [], 'not before its time');
  await clock.advance(1);
  t.same(fired, [1_000], 'at its time');
  await clock.advance(10_000);
  t.same(fired, [1_000], 'once');
  t.equal(clock.pending(), 0);
});

t.test('timers fire in order of due time, then of creation, within one advance', async (t) => {
  const clock = createTestClock(0);
  const fired: string[] = [];
  clock.timers.after(300, () => fired.push('c'));
  clock.timers.after(100, () => fired.push('a'));
  clock.timers.after(200, () => fired.push('b1'));
  clock.timers.after(200, () => fired.push('b2'));
  await clock.advance(1_000);
  t.same(fired, ['a', 'b1', 'b2', 'c']);
  t.equal(clock.now(), 1_000, 'then the clock is at the end of the advance');
});

t.test('an after(0) timer fires on the next advance, advance(0) included', async (t) => {
  const clock = createTestClock(0);
  let fired = false;
  clock.timers.after(0, () => (fired = true));
  t.notOk(fired, 'never synchronously');
  await clock.advance(0);
  t.ok(fired);
});

t.test('every() fires at each interval until cancelled, also from its own callback', async (t) => {
  const clock = createTestClock(0);
  const times: number[] = [];
  const handle = clock.timers.every(250, () => {
    times.push(clock.now());
    if (times.length === 3) handle.cancel();
  });
  await clock.advance(1_000);
  t.same(times, [250, 500, 750]);
  t.equal(clock.pending(), 0);
  t.throws(() => clock.timers.every(0, () => {}), new RangeError('every() needs an interval of at least 1 ms, not 0'));
  t.throws(() => clock.timers.after(Number.NaN, () => {}), new RangeError("A timer's delay must be a finite number of ms, not NaN"));
});

t.test('a cancelled timer never fires; cancelling after it fired is harmless', async (t) => {
  const clock = createTestClock(0);
  let fired = 0;
  const first = clock.timers.after(10, () => fired++);
  const second = clock.timers.after(20, () => fired++);
  first.cancel();
  await clock.advance(100);
  t.equal(fired, 1);
  second.cancel();
  t.equal(clock.pending(), 0);
});

t.test('timers a timer schedules fire in the same advance when they fall within it', async (t) => {
  const clock = createTestClock(0);
  const fired: number[] = [];
  clock.timers.after(100, () => {
    fired.push(clock.now());
    clock.timers.after(100, () => fired.push(clock.now()));
    clock.timers.after(1_000, () => fired.push(clock.now()));
  });
  await clock.advance(500);
  t.same(fired, [100, 200]);
  t.equal(clock.nextDue(), 1_100);
});

t.test("a timer's promise continuations run before the next timer fires (a chain of awaited sleeps)", async (t) => {
  const clock = createTestClock(0);
  const sleep = (ms: number) => new Promise<void>((resolve) => clock.timers.after(ms, resolve));
  const steps: number[] = [];
  const chain = (async () => {
    for (let i = 0; i < 3; i++) {
      await sleep(1_000);
      steps.push(clock.now());
    }
  })();
  await clock.advance(3_000);
  t.same(steps, [1_000, 2_000, 3_000], 'each sleep was scheduled and fired within the one advance');
  await chain;
});

t.test('a throwing timer does not stop the others; advance rejects with its error after moving the time', async (t) => {
  const clock = createTestClock(0);
  const fired: number[] = [];
  clock.timers.after(10, () => {
    throw new Error('boom');
  });
  clock.timers.after(20, () => fired.push(20));
  await t.rejects(clock.advance(100), new Error('boom'));
  t.same(fired, [20]);
  t.equal(clock.now(), 100);
  clock.timers.after(10, () => {
    throw new Error('one');
  });
  clock.timers.after(10, () => {
    throw new Error('two');
  });
  const both = await clock.advance(10).catch((error: unknown) => error);
  t.type(both, AggregateError);
  t.same((both as AggregateError).errors.map((e: Error) => e.message), ['one', 'two']);
});

t.test('advances called together run one after the other', async (t) => {
  const clock = createTestClock(0);
  const fired: number[] = [];
  clock.timers.after(150, () => fired.push(clock.now()));
  const first = clock.advance(100);
  const second = clock.advance(100);
  await Promise.all([first, second]);
  t.same(fired, [150]);
  t.equal(clock.now(), 200);
});

t.test('pending() counts waiting timers and nextDue() names the next due time', async (t) => {
  const clock = createTestClock(0);
  t.equal(clock.pending(), 0);
  t.equal(clock.nextDue(), undefined);
  clock.timers.after(500, () => {});
  clock.timers.every(200, () => {});
  t.equal(clock.pending(), 2);
  t.equal(clock.nextDue(), 200);
  await clock.advance(450);
  t.equal(clock.nextDue(), 500);
  t.equal(clock.pending(), 2);
});

t.test('rewinding to a mark restores its time and its timers, and drops timers created since', async (t) => {
  const clock = createTestClock(0);
  const fired: string[] = [];
  clock.timers.every(100, () => fired.push(`every@${clock.now()}`));
  clock.timers.after(1_000, () => fired.push(`before@${clock.now()}`));
  await clock.advance(50);
  const mark = markClock(clock);
  clock.timers.after(10, () => fired.push('created after the mark'));
  await clock.advance(300);
  t.same(fired, ['created after the mark', 'every@100', 'every@200', 'every@300']);
  rewindClock(clock, mark);
  fired.length = 0;
  t.equal(clock.now(), 50);
  t.equal(clock.pending(), 2);
  await clock.advance(1_000);
  t.same(fired.slice(0, 2), ['every@100', 'every@200'], 'the interval timer is due where it was at the mark');
  t.ok(fired.includes('before@1000'));
  t.notOk(fired.includes('created after the mark'));
  t.throws(() => markClock({ ...clock }), new TypeError('not a clock made by createTestClock()'));
});
