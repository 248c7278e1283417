/*
 * Timing helpers of the prefix-index benchmarks: run a function repeatedly and report the median,
 * so numbers do not depend on vitest bench's table (which has no median).
 */
import { seededRandom } from '@switchyard/core';

/** Median and minimum of a set of timings, ms. */
export interface Timing {
  /** Median. */
  readonly median: number;
  /** Minimum (least disturbed by other processes). */
  readonly min: number;
}

/** Median and minimum of `runs` timed calls of `fn` (after `warmup` untimed calls), in ms. */
export function timeMs(fn: () => unknown, runs: number, warmup = Math.ceil(runs / 5)): Timing {
  for (let i = 0; i < warmup; i++) fn();
  const times = new Float64Array(runs);
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times[i] = performance.now() - t0;
  }
  times.sort();
  return { median: times[Math.floor(runs / 2)] ?? Number.NaN, min: times[0] ?? Number.NaN };
}

/** Forces two full GCs (needs `--expose-gc`) and returns heap + external bytes (external includes array buffers). */
export function settledBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with NODE_OPTIONS=--expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** Deterministic random numbers for the benchmarks' inputs (core's mulberry32). */
export const prng = seededRandom;

/** A random 53-bit key. */
export function randomKey(rand: () => number): number {
  return Math.floor(rand() * 2 ** 21) * 2 ** 32 + Math.floor(rand() * 2 ** 32);
}
