import type { UsageLimitPolicy } from './types.js';

/**
 * Registry type of the soft reflective ceiling policy. @public
 * @category Policies
 */
export const SOFT_REFLECTIVE_CEILING = 'soft-reflective-ceiling-policy';

/**
 * `soft-reflective-ceiling-policy` (llm-d's, alpha): the highest band always has ceiling 1.0.
 * Band `i > 0` of `N` stays fully open while saturation `s` is below its reflective ceiling
 * `1 − i·s/(N−1)`; past it, the band closes at `s ≥ 1` and otherwise (only reachable for
 * `s ≥ 0.5`) opens on one computation out of `max(1, round(s/(1−s)))`, a duty-cycled trickle
 * that keeps low priorities from starving completely while the pool is busy. The tick counter
 * advances once per computation while `0.5 ≤ s < 1`, as llm-d's does.
 * @public
 * @category Policies
 */
export function createSoftReflectiveCeiling(name: string = SOFT_REFLECTIVE_CEILING): UsageLimitPolicy {
  let tick = 0;
  return {
    type: SOFT_REFLECTIVE_CEILING,
    name,
    kind: 'usage-limit-policy',
    saturationDependent: true,
    computeLimits(s, priorities) {
      const n = priorities.length;
      const trickling = s >= 0.5 && s < 1;
      // The band that trickles opens on the first computation of each period.
      const open = trickling && tick % Math.max(1, Math.round(s / (1 - s))) === 0;
      if (trickling) tick++;
      return priorities.map((_p, i) => {
        if (i === 0) return 1;
        const reflective = 1 - (i * s) / (n - 1);
        if (s < reflective) return 1;
        if (s >= 1) return 0;
        return open ? 1 : 0;
      });
    },
  };
}
