/**
 * A seeded pseudo-random number generator. Every random choice in the simulator goes through one,
 * so a run is a pure function of its seed.
 * @public
 * @category Util
 */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform float in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Standard normal deviate (mean 0, standard deviation 1). */
  normal(): number;
  /** Exponential deviate with the given mean. */
  exponential(mean: number): number;
  /** Log-normal deviate with the given median and shape `sigma` (standard deviation of the log). */
  lognormal(median: number, sigma: number): number;
  /** An independent generator derived from this one's seed and `label` (does not advance this one). */
  fork(label: string | number): Rng;
}

/** 32-bit FNV-1a of a string, used to derive seeds from labels. */
export function hashString32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Finaliser of MurmurHash3: a good 32-bit integer mix. */
export function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Creates a seeded generator (sfc32: small, fast, and passes PractRand far beyond what a
 * simulation draws). Equal seeds give equal sequences on every platform.
 * @param seed - any integer; only its low 32 bits matter
 * @public
 * @category Util
 */
export function createRng(seed: number): Rng {
  const base = seed >>> 0;
  let a = mix32(base ^ 0x9e3779b9);
  let b = mix32(base + 0x6a09e667);
  let c = mix32(base ^ 0xbb67ae85);
  let d = 1;
  let spare: number | undefined;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm up so that nearby seeds diverge immediately.
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    next,
    int: (n) => Math.floor(next() * n),
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    normal() {
      if (spare !== undefined) {
        const s = spare;
        spare = undefined;
        return s;
      }
      // Box–Muller; 1 - u keeps the log argument in (0, 1].
      const u = 1 - next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    exponential: (mean) => -Math.log(1 - next()) * mean,
    lognormal: (median, sigma) => median * Math.exp(sigma * rng.normal()),
    fork: (label) => createRng(mix32(base ^ (typeof label === 'number' ? mix32(label + 0x2545f491) : hashString32(label)))),
  };
  return rng;
}
