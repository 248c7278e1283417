/*
 * The picker twin contract (`pickFrom` agrees with `pick`, see core's picker-twins test) for the
 * pickers the simulator's packs add to core's: two instances fed the same cycles, one per path,
 * so a picker with a cursor (round-robin) must also advance it the same way on both.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry, seededRandom, type Picker, type ScoredEndpoint } from '@switchyard/core';
import { cycleContext, endpoints, instantiate, schedulingRequest } from '@switchyard/core/testing';
import { createSimulatorRegistry } from './builtin.js';

describe('pickFrom agrees with pick (simulator pickers)', async () => {
  const core = new Set(createDefaultRegistry().definitions().map((d) => d.type));
  const defs = (await createSimulatorRegistry()).definitions().filter((def) => {
    if (core.has(def.type) || !def.parameters.safeParse({ maxNumOfEndpoints: 2 }).success) return false;
    try {
      const plugin: Partial<Picker> = instantiate(def, { maxNumOfEndpoints: 2 });
      return typeof plugin.pick === 'function' && typeof plugin.pickFrom === 'function';
    } catch {
      return false;
    }
  });

  it('finds the round-robin twin', () => {
    expect(defs.map((d) => d.type)).toContain('round-robin-picker');
  });

  it.each(defs.map((d) => [d.type, d] as const))('%s', (_type, def) => {
    const step = fc.record({ scores: fc.array(fc.double({ min: -1, max: 5, noNaN: true }), { maxLength: 10 }), seed: fc.integer() });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const slowPicker = instantiate(def, {}) as Picker;
        const fastPicker = instantiate(def, {}) as Picker;
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
