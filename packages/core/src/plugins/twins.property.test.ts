/*
 * Contract of the fast/slow scorer twins: a scorer that implements the allocation-free
 * `scoreInto` (which the scheduler prefers) must give exactly the scores of its map-returning
 * `score`, for any pool. Every built-in scorer that can be created with its default parameters
 * and implements both is checked, so a new twin is covered without touching this file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../registry/default-registry.js';
import type { Scorer } from '../scheduling/plugins.js';
import { cycleContext, endpoints, instantiate, schedulingRequest } from '../testing/index.js';

function twinScorers(): Scorer[] {
  const found: Scorer[] = [];
  for (const def of createDefaultRegistry().definitions()) {
    if (!def.parameters.safeParse({}).success) continue; // needs parameters: has its own tests
    let plugin: Partial<Scorer>;
    try {
      plugin = instantiate(def, {});
    } catch {
      continue; // needs other plugins (deciders, producers): covered where it is configured
    }
    if (typeof plugin.score === 'function' && typeof plugin.scoreInto === 'function') found.push(plugin as Scorer);
  }
  return found;
}

const member = fc.option(
  fc.record({
    waitingQueueSize: fc.nat(200),
    runningRequestsSize: fc.nat(200),
    kvCacheUsagePercent: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  { nil: undefined },
);

describe('scoreInto agrees with score', () => {
  const scorers = twinScorers();

  it('finds the built-in twins', () => {
    // Eleven built-ins implement both today; fewer means the discovery above broke, not that they agree.
    expect(scorers.length).toBeGreaterThanOrEqual(11);
  });

  it.each(scorers.map((s) => [s.type, s] as const))('%s', (_type, scorer) => {
    fc.assert(
      fc.property(fc.array(member, { minLength: 1, maxLength: 12 }), (members) => {
        const eps = endpoints(members.length, (i) => members[i]);
        const request = schedulingRequest();
        const slow = scorer.score(cycleContext(), request, eps);
        const fast = new Float64Array(eps.length);
        scorer.scoreInto?.(cycleContext(), request, eps, fast);
        expect(Array.from(fast)).toEqual(eps.map((e) => slow.get(e.id) ?? 0));
      }),
      { numRuns: 100 },
    );
  });
});
