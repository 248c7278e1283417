import type { Percentiles } from './types.js';

/**
 * Percentiles of `values` (nearest-rank on the sorted sample; zeros for an empty sample).
 * @public
 * @category Report
 */
export function percentiles(values: readonly number[]): Percentiles {
  if (values.length === 0) return { count: 0, mean: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  const s = Float64Array.from(values).sort();
  const at = (q: number): number => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  let sum = 0;
  for (const v of s) sum += v;
  return { count: s.length, mean: sum / s.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: s[s.length - 1] ?? 0 };
}

/**
 * Empirical CDF of `values` reduced to at most `points` `[value, fraction]` pairs (evenly spaced in
 * rank, always including the extremes).
 * @public
 * @category Report
 */
export function cdfPoints(values: readonly number[], points = 100): [number, number][] {
  if (values.length === 0) return [];
  const s = Float64Array.from(values).sort();
  const out: [number, number][] = [];
  const n = s.length;
  const step = Math.max(1, Math.floor(n / points));
  for (let i = 0; i < n; i += step) out.push([s[i] ?? 0, (i + 1) / n]);
  if (out[out.length - 1]?.[1] !== 1) out.push([s[n - 1] ?? 0, 1]);
  return out;
}

/**
 * Jain's fairness index `(Σx)² / (n·Σx²)`: 1 when all `x` are equal, 1/n when one takes all.
 * Returns 1 for an empty or all-zero input.
 * @public
 * @category Report
 */
export function jainIndex(xs: readonly number[]): number {
  let sum = 0;
  let sq = 0;
  for (const x of xs) {
    sum += x;
    sq += x * x;
  }
  return xs.length === 0 || sq === 0 ? 1 : (sum * sum) / (xs.length * sq);
}

/**
 * Averages `[t, v]` points into `buckets` equal time buckets over `[0, durationMs]` (empty
 * buckets repeat the previous value), to keep load series small.
 * @public
 * @category Report
 */
export function downsample(points: readonly (readonly [number, number])[], durationMs: number, buckets = 120): [number, number][] {
  if (points.length === 0 || durationMs <= 0) return [];
  const width = durationMs / buckets;
  const sums = new Float64Array(buckets);
  const counts = new Float64Array(buckets);
  for (const [t, v] of points) {
    const b = Math.min(buckets - 1, Math.max(0, Math.floor(t / width)));
    sums[b] = (sums[b] ?? 0) + v;
    counts[b] = (counts[b] ?? 0) + 1;
  }
  const out: [number, number][] = [];
  let last = 0;
  for (let b = 0; b < buckets; b++) {
    const c = counts[b] ?? 0;
    if (c > 0) last = (sums[b] ?? 0) / c;
    out.push([Math.round((b + 0.5) * width), Math.round(last * 100) / 100]);
  }
  return out;
}
