/*
 * Contract of the fast/slow picker twins: a picker that implements the array form `pickFrom`
 * (which the profile runner prefers) must choose exactly what its `pick(scored)` chooses, for any
 * pool, any scores and any random draws. Both paths get the same seeded random source, so a
 * picker that draws a different number of times, or in another order, fails too. Every built-in
 * picker that implements both is checked with several `maxNumOfEndpoints`, so a new twin is
 * covered without touching this file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../clock/seeded-random.js';
import { createDefaultRegistry } from '../registry/default-registry.js';
import type { PluginDefinition } from '../registry/types.js';
import type { Picker, ScoredEndpoint } from '../scheduling/plugins.js';
import { cycleContext, endpoints, instantiate, schedulingRequest } from '../testing/index.js';

/** Built-in picker definitions whose instances implement both `pick` and `pickFrom`. */
function twinPickers(): PluginDefinition[] {
  return createDefaultRegistry()
    .definitions()
    .filter((def) => {
      if (!def.parameters.safeParse({ maxNumOfEndpoints: 2 }).success) return false; // not a picker's parameters
      let plugin: Partial<Picker>;
      try {
        plugin = instantiate(def, { maxNumOfEndpoints: 2 });
      } catch {
        return false;
      }
      return typeof plugin.pick === 'function' && typeof plugin.pickFrom === 'function';
    });
}

/** Scores as profiles produce them: weighted sums, often tied (0, equal loads), sometimes negative. */
const score = fc.oneof(fc.constantFrom(0, 1, 0.5), fc.double({ min: -2, max: 10, noNaN: true }), fc.integer({ min: 0, max: 3 }));

describe('pickFrom agrees with pick', () => {
  const defs = twinPickers();

  it('finds the built-in twins', () => {
    // max-score, random and weighted-random implement both today; fewer means the discovery broke.
    expect(defs.map((d) => d.type).sort()).toEqual(expect.arrayContaining(['max-score-picker', 'random-picker', 'weighted-random-picker']));
  });

  it.each(defs.map((d) => [d.type, d] as const))('%s', (_type, def) => {
    const step = fc.record({ scores: fc.array(score, { minLength: 0, maxLength: 12 }), seed: fc.integer() });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.array(step, { minLength: 1, maxLength: 6 }), (k, steps) => {
        // Two instances fed the same cycles, one per path, so a picker with state (a cursor)
        // must also advance it the same way on both.
        const slowPicker = instantiate(def, { maxNumOfEndpoints: k }) as Picker;
        const fastPicker = instantiate(def, { maxNumOfEndpoints: k }) as Picker;
        const request = schedulingRequest();
        for (const { scores, seed } of steps) {
          const eps = endpoints(scores.length);
          const scored: ScoredEndpoint[] = eps.map((endpoint, i) => ({ endpoint, score: scores[i] as number }));
          const slow = slowPicker.pick(cycleContext({ random: seededRandom(seed) }), request, scored);
          const fast = fastPicker.pickFrom?.(cycleContext({ random: seededRandom(seed) }), request, eps, Float64Array.from(scores));
          expect(fast?.map((e) => e.id)).toEqual(slow.map((e) => e.id));
        }
      }),
      { numRuns: 200 },
    );
  });
});
