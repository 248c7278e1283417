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
import { createDefaultRegistry } from '../registry/default-registry.js';
import { runPickerTwins, twinPickerDefinitions } from '../testing/index.js';

/** Scores as profiles produce them: weighted sums, often tied (0, equal loads), sometimes negative. */
const score = fc.oneof(fc.constantFrom(0, 1, 0.5), fc.double({ min: -2, max: 10, noNaN: true }), fc.integer({ min: 0, max: 3 }));

describe('pickFrom agrees with pick', () => {
  const defs = twinPickerDefinitions(createDefaultRegistry());

  it('finds the built-in twins', () => {
    // max-score, random and weighted-random implement both today; fewer means the discovery broke.
    expect(defs.map((d) => d.type).sort()).toEqual(expect.arrayContaining(['max-score-picker', 'random-picker', 'weighted-random-picker']));
  });

  it.each(defs.map((d) => [d.type, d] as const))('%s', (_type, def) => {
    const step = fc.record({ scores: fc.array(score, { minLength: 0, maxLength: 12 }), seed: fc.integer() });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.array(step, { minLength: 1, maxLength: 6 }), (k, steps) => {
        const { slow, fast } = runPickerTwins(def, { maxNumOfEndpoints: k }, steps);
        expect(fast).toEqual(slow);
      }),
      { numRuns: 200 },
    );
  });
});
