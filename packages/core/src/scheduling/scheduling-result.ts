import type { ProfileResult, SchedulingResult } from './plugins.js';

/**
 * Builds a {@link SchedulingResult} (for profile handlers' `processResults`). Prefer it to an
 * object literal: a result lives as long as its request, and V8 may pretenure a long-lived
 * literal's allocation site, after which everything the result references survives every
 * young-generation GC until the next full GC. A class instance has no allocation site.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export function schedulingResult(profileResults: ReadonlyMap<string, ProfileResult | null>, primaryProfileName: string): SchedulingResult {
  return new CycleResult(profileResults, primaryProfileName);
}

class CycleResult implements SchedulingResult {
  constructor(
    readonly profileResults: ReadonlyMap<string, ProfileResult | null>,
    readonly primaryProfileName: string,
  ) {}
}
