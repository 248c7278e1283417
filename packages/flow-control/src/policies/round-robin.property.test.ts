import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRoundRobinFairness } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { harness, request, track } from '../test-support/flow-harness.js';

describe('round-robin fairness (property)', () => {
  it('gives backlogged flows of a band equal dispatch counts, within one', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Flow of each arrival (shuffled interleaving of per-flow backlogs).
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 2, maxLength: 80 }),
        fc.integer({ min: 1, max: 3 }),
        async (arrivals, slots) => {
          const { fc: ctl } = harness(slots, { config: { defaultPriorityBand: { fairnessPolicyRef: 'rr' } }, plugins: new Map([['rr', createRoundRobinFairness('rr')]]) });
          // Saturate the pool first so every arrival queues.
          const blockers = Array.from({ length: slots }, () => track(ctl, request()));
          await settle();
          const remaining = new Map<string, number>();
          for (const f of arrivals) {
            remaining.set(`f${f}`, (remaining.get(`f${f}`) ?? 0) + 1);
            track(ctl, request({ fairnessId: `f${f}` }));
          }
          const served = new Map<string, number>([...remaining.keys()].map((k) => [k, 0]));
          const unfair: string[] = [];
          ctl.on('dispatched', (r) => {
            const id = r.request.fairnessId;
            served.set(id, (served.get(id) ?? 0) + 1);
            remaining.set(id, (remaining.get(id) ?? 0) - 1);
            // Flows still backlogged after this dispatch, plus this one, were backlogged throughout.
            const backlogged = [...remaining].filter(([f, n]) => n > 0 || f === id).map(([f]) => served.get(f) ?? 0);
            if (Math.max(...backlogged) - Math.min(...backlogged) > 1) unfair.push(JSON.stringify([...served]));
            (r as unknown as { release(o: unknown): void }).release({ kind: 'success' });
          });
          for (const b of blockers) b.grant?.release({ kind: 'success' });
          for (let i = 0; i < arrivals.length + 5 && ctl.stats().queuedRequests > 0; i++) await settle();
          expect(ctl.stats().queuedRequests).toBe(0);
          expect(unfair).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
