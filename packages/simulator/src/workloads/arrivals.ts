import type { Rng } from '../util/prng.js';

/**
 * Arrival times (ms) of a Poisson process of `ratePerSec` over `[0, durationMs)`.
 * @public
 */
export function poissonArrivals(rng: Rng, ratePerSec: number, durationMs: number): number[] {
  const out: number[] = [];
  if (ratePerSec <= 0) return out;
  const mean = 1000 / ratePerSec;
  for (let t = rng.exponential(mean); t < durationMs; t += rng.exponential(mean)) out.push(t);
  return out;
}

/**
 * Arrival times of a non-homogeneous Poisson process with rate `rateAt(t)` (requests/s, at most
 * `maxRatePerSec`), by thinning.
 * @public
 */
export function thinnedArrivals(rng: Rng, maxRatePerSec: number, durationMs: number, rateAt: (tMs: number) => number): number[] {
  return poissonArrivals(rng, maxRatePerSec, durationMs).filter((t) => rng.next() * maxRatePerSec < rateAt(t));
}

/** Clamps `v` into `[lo, hi]`. @internal */
export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
