/**
 * A deterministic `() => number` in [0, 1) (mulberry32): pass it as `random` to the picker, the
 * schedulers or a simulation so that a run (or a failing test) repeats exactly. Not for anything
 * that needs unpredictability.
 * @example
 * ```ts
 * const picker = new EndpointPicker({ pool, random: seededRandom(42) });
 * ```
 * @public
 * @category Clock and randomness
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
