import type { Rng } from '../util/prng.js';

/**
 * Arrival times (ms) of a Poisson process of `ratePerSec` over `[0, durationMs)`.
 * @public
 * @category Workloads
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
 * @category Workloads
 */
export function thinnedArrivals(rng: Rng, maxRatePerSec: number, durationMs: number, rateAt: (tMs: number) => number): number[] {
  return poissonArrivals(rng, maxRatePerSec, durationMs).filter((t) => rng.next() * maxRatePerSec < rateAt(t));
}

/** Clamps `v` into `[lo, hi]`. @internal */
export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** A gamma(shape, 1) deviate (Marsaglia–Tsang; shapes below 1 by the `U^(1/k)` boost). */
function gamma(rng: Rng, shape: number): number {
  if (shape < 1) return gamma(rng, shape + 1) * Math.pow(1 - rng.next(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = rng.normal();
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    if (Math.log(1 - rng.next()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/**
 * Bursty arrivals: a renewal process of `ratePerSec` whose inter-arrival times are gamma
 * distributed with coefficient of variation `cv` (1 = Poisson; real traces are burstier, e.g. the
 * Azure code trace's inter-arrival CV is ≈13).
 * @public
 * @category Workloads
 */
export function burstyArrivals(rng: Rng, ratePerSec: number, durationMs: number, cv: number): number[] {
  if (cv === 1) return poissonArrivals(rng, ratePerSec, durationMs);
  const out: number[] = [];
  if (ratePerSec <= 0) return out;
  const shape = 1 / (cv * cv);
  const scale = 1000 / ratePerSec / shape;
  for (let t = gamma(rng, shape) * scale; t < durationMs; t += gamma(rng, shape) * scale) out.push(t);
  return out;
}
