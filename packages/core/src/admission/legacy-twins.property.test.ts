/*
 * Contract of the admission twins for core's legacy controller: `admitNow` (which the picker
 * asks first) must decide exactly as `admit` does, for any pool state and priority: a grant where
 * `admit` resolves, the same error where it rejects. The legacy controller always decides at
 * once, so it must never decline (return undefined).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/manual-clock.js';
import { isSwitchyardError } from '../errors/switchyard-error.js';
import { poolOf, schedulingRequest } from '../testing/index.js';
import { createLegacyAdmissionController } from './legacy.js';

const member = fc.option(
  fc.record({
    waitingQueueSize: fc.nat(300),
    runningRequestsSize: fc.nat(300),
    kvCacheUsagePercent: fc.double({ min: 0, max: 1, noNaN: true }),
    updatedAt: fc.integer({ min: 0, max: 2000 }),
  }),
  { nil: undefined },
);

/** A decision as a comparable value: granted, or the error's code and message. */
const outcome = (run: () => unknown): string => {
  try {
    return run() === undefined ? 'declined' : 'granted';
  } catch (err) {
    return isSwitchyardError(err) ? `${err.code}: ${err.message}` : String(err);
  }
};

describe('admitNow agrees with admit (legacy controller)', () => {
  it('decides at once exactly as admit settles, for any pool and priority', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(member, { maxLength: 8 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: 3000 }), async (members, priority, now) => {
        const clock = new ManualClock(now);
        const pool = poolOf(members.length, (i) => members[i]);
        const admission = createLegacyAdmissionController({ pool, clock });
        const request = schedulingRequest({ priority });
        const fast = outcome(() => admission.admitNow?.(request));
        const slow = await admission.admit(request).then(
          () => 'granted',
          (err: unknown) => (isSwitchyardError(err) ? `${err.code}: ${err.message}` : String(err)),
        );
        expect(fast).toBe(slow);
        seen.add(fast.startsWith('REJECTED_SHEDDABLE') ? 'rejected' : fast);
      }),
      { numRuns: 300 },
    );
    // Both branches must have been exercised for the agreement to mean anything.
    expect([...seen].sort()).toEqual(['granted', 'rejected']);
  });
});
