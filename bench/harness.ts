// The benchmark harness: time a function, compare it with a baseline measured in the same run,
// and print the figures as a table of values and ratios (only ratios to a ceiling
// measured in the same run mean anything).

export interface Figure {
  group: string;
  name: string;
  /** The measured value. */
  value: number;
  unit: string;
  /** What it is compared with, measured in the same run. */
  baseline?: { name: string; value: number };
  /** The target, in words (e.g. ">= 60% of baseline", "< 5 ms"). */
  target?: string;
}

export const figures: Figure[] = [];

export function record(figure: Figure): void {
  figures.push(figure);
  const ratio = figure.baseline ? ` (${((figure.value / figure.baseline.value) * 100).toFixed(1)}% of ${figure.baseline.name}: ${fmt(figure.baseline.value)} ${figure.unit})` : '';
  console.log(`  ${figure.group} / ${figure.name}: ${fmt(figure.value)} ${figure.unit}${ratio}${figure.target ? ` [target ${figure.target}]` : ''}`);
}

/** Stated bounds the run went over: bench/run.ts repeats them after the table and exits 1. */
export const exceededBounds: string[] = [];

export function boundExceeded(message: string): void {
  exceededBounds.push(message);
  console.log(`  BOUND EXCEEDED: ${message}`);
}

export function fmt(value: number): string {
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  if (value >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median milliseconds per call of fn over `rounds` rounds of `iterations` calls, after a warm-up. */
export function msPerCall(fn: () => unknown, iterations = 1000, rounds = 5): number {
  for (let i = 0; i < Math.min(iterations, 200); i++) fn();
  const results: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    results.push(Number(process.hrtime.bigint() - start) / 1e6 / iterations);
  }
  return median(results);
}

export async function msPerCallAsync(fn: () => Promise<unknown>, iterations = 100, rounds = 5): Promise<number> {
  for (let i = 0; i < Math.min(iterations, 20); i++) await fn();
  const results: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await fn();
    results.push(Number(process.hrtime.bigint() - start) / 1e6 / iterations);
  }
  return median(results);
}

/** Median ms of one run of fn (each run gets a fresh setup). */
export function msOnce<T>(setup: () => T, fn: (state: T) => unknown, rounds = 5): number {
  const results: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const state = setup();
    const start = process.hrtime.bigint();
    fn(state);
    results.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(results);
}

export const perSecond = (msPerOp: number): number => 1000 / msPerOp;

/**
 * Median ms per call of each function, measured in alternating rounds so that a change in the
 * machine's load (other processes) hits both sides alike; by the wall clock, or by this process's
 * CPU time (`cpu`: steadier on a shared machine for in-process work).
 */
export function interleaved(a: () => unknown, b: () => unknown, iterations: number, rounds: number, clock: 'wall' | 'cpu' = 'wall'): [number, number] {
  for (let i = 0; i < Math.max(1, iterations / 5); i++) {
    a();
    b();
  }
  // CPU time: what the calls cost this process, not how long other processes kept it waiting.
  const now = clock === 'wall' ? () => Number(process.hrtime.bigint()) / 1e6 : () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const times: [number[], number[]] = [[], []];
  for (let r = 0; r < rounds; r++) {
    [a, b].forEach((fn, side) => {
      const start = now();
      for (let i = 0; i < iterations; i++) fn();
      times[side]!.push((now() - start) / iterations);
    });
  }
  return [median(times[0]), median(times[1])];
}
