import type { UsageLimitPolicy } from './types.js';

/**
 * Registry type of the static usage limit policy. @public
 * @category Policies
 */
export const STATIC_USAGE_LIMIT = 'static-usage-limit-policy';
/**
 * Registry type of the priority holdback policy. @public
 * @category Policies
 */
export const PRIORITY_HOLDBACK = 'priority-holdback-policy';

/**
 * `static-usage-limit-policy` (llm-d's default): one ceiling for every band. With the default
 * threshold 1.0 bands dispatch until the pool is saturated, which is plain work conservation.
 * @param threshold - the ceiling (default 1.0)
 * @public
 * @category Policies
 */
export function createStaticUsageLimit(threshold = 1, name: string = STATIC_USAGE_LIMIT): UsageLimitPolicy {
  if (!(threshold >= 0)) throw new RangeError(`static-usage-limit-policy: threshold must be >= 0, got ${threshold}`);
  return {
    type: STATIC_USAGE_LIMIT,
    name,
    kind: 'usage-limit-policy',
    computeLimits: (_saturation, priorities) => priorities.map(() => threshold),
  };
}

/**
 * Options of {@link createPriorityHoldback}, with llm-d's names.
 * @public
 * @category Policies
 */
export type PriorityHoldbackOptions =
  | {
      /** `rank` (default): equal steps by rank; `value`: proportional to the priority values. */
      readonly domain?: 'rank' | 'value';
      /** Ceiling of the lowest active priority, in [0, 1). */
      readonly minCeiling: number;
      /** Ceiling of the highest active priority, in (0, 1], above `minCeiling` (default 1). */
      readonly maxCeiling?: number;
      /** Instance name. */
      readonly name?: string;
    }
  | {
      /** `explicit`: ceilings given per priority. */
      readonly domain: 'explicit';
      /** Ceiling per priority, non-increasing as priority decreases. */
      readonly ceilings: Readonly<Record<number, number>>;
      /** Instance name. */
      readonly name?: string;
    };

/**
 * `priority-holdback-policy`: lower bands get lower ceilings, so as the pool fills up the
 * sheddable bands stop first and the remaining headroom is held back for higher priorities.
 * Ceilings are spread linearly from `maxCeiling` (highest band) to `minCeiling` (lowest) by rank
 * or by priority value over the bands that exist (declared, or created on demand and not yet
 * collected), as in llm-d; a lone band gets `maxCeiling`.
 * In the `explicit` domain a priority without its own entry uses the entry of the closest lower
 * configured priority (or the lowest ceiling when there is none).
 * @public
 * @category Policies
 */
export function createPriorityHoldback(options: PriorityHoldbackOptions): UsageLimitPolicy {
  const base = { type: PRIORITY_HOLDBACK, name: options.name ?? PRIORITY_HOLDBACK, kind: 'usage-limit-policy' as const };
  if (options.domain === 'explicit') {
    const table = Object.entries(options.ceilings)
      .map(([p, c]) => [Number(p), c] as const)
      .sort((a, b) => b[0] - a[0]);
    const lowest = Math.min(...table.map(([, c]) => c));
    const lookup = (p: number): number => table.find(([q]) => q <= p)?.[1] ?? lowest;
    return { ...base, computeLimits: (_s, priorities) => priorities.map(lookup) };
  }
  const min = options.minCeiling;
  const max = options.maxCeiling ?? 1;
  if (!(min >= 0 && min < 1) || !(max > 0 && max <= 1) || !(min < max)) {
    throw new RangeError(`priority-holdback-policy: need 0 <= minCeiling < maxCeiling <= 1, got ${min} and ${max}`);
  }
  const byValue = options.domain === 'value';
  return {
    ...base,
    computeLimits(_saturation, priorities) {
      const n = priorities.length;
      if (n <= 1) return priorities.map(() => max);
      if (byValue) {
        const hi = priorities[0] as number;
        const lo = priorities[n - 1] as number;
        if (hi === lo) return priorities.map(() => max);
        return priorities.map((p) => min + ((p - lo) / (hi - lo)) * (max - min));
      }
      return priorities.map((_p, i) => max - (i * (max - min)) / (n - 1));
    },
  };
}
