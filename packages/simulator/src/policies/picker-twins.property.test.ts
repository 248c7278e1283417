/*
 * The picker twin contract (`pickFrom` agrees with `pick`, see core's picker-twins test) for the
 * pickers the simulator's packs add to core's: two instances fed the same cycles, one per path,
 * so a picker with a cursor (round-robin) must also advance it the same way on both.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '@switchyard/core';
import { runPickerTwins, twinPickerDefinitions } from '@switchyard/core/testing';
import { createSimulatorRegistry } from './builtin.js';

describe('pickFrom agrees with pick (simulator pickers)', async () => {
  const core = new Set(createDefaultRegistry().definitions().map((d) => d.type));
  const defs = twinPickerDefinitions(await createSimulatorRegistry(), (def) => core.has(def.type));

  it('finds the round-robin twin', () => {
    expect(defs.map((d) => d.type)).toContain('round-robin-picker');
  });

  it.each(defs.map((d) => [d.type, d] as const))('%s', (_type, def) => {
    const step = fc.record({ scores: fc.array(fc.double({ min: -1, max: 5, noNaN: true }), { maxLength: 10 }), seed: fc.integer() });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const { slow, fast } = runPickerTwins(def, {}, steps);
        expect(fast).toEqual(slow);
      }),
      { numRuns: 200 },
    );
  });
});
