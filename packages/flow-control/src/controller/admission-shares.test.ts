import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSwitchyardError } from '@switchyard/core';
import { settle } from '@switchyard/core/testing';
import { harness, request, track, type Tracked } from '../test-support/flow-harness.js';

const rejected = (t: Tracked): boolean => isSwitchyardError(t.error) && t.error.code === 'REJECTED_SATURATED';

describe('per-flow admission shares within a band', () => {
  it("refuses the flooding tenant, not the light one, when their band's queue is full", async () => {
    // The red team's shape: a full band of 48, a flooder and a light tenant of the same band.
    const { fc: ctl } = harness(0, { config: { priorityBands: [{ priority: 0, maxRequests: 48 }] } });
    const displaced: string[] = [];
    ctl.on('displaced', (r) => displaced.push(r.request.fairnessId));
    const flood: Tracked[] = [];
    const light: Tracked[] = [];
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 16; i++) flood.push(track(ctl, request({ fairnessId: 'flooder' })));
      light.push(track(ctl, request({ fairnessId: 'light' })));
    }
    await settle();
    expect(light.filter(rejected)).toHaveLength(0);
    expect(flood.filter(rejected)).toHaveLength(flood.length + light.length - 48);
    // The first two light requests found room; the ten after them each displaced a flooder.
    expect(displaced).toHaveLength(10);
    expect(displaced.every((id) => id === 'flooder')).toBe(true);
    expect(ctl.stats().queuedRequests).toBe(48);
    // A light tenant that keeps sending gets half the band, not more: its share is equal, not first.
    for (let i = 0; i < 48; i++) light.push(track(ctl, request({ fairnessId: 'light' })));
    await settle();
    expect(light.filter((t) => t.error === undefined)).toHaveLength(24);
    // The displaced requests were answered with the contract's queue-full error.
    const e = flood.find((t) => rejected(t))?.error;
    expect(isSwitchyardError(e) && e.status).toBe(429);
    await ctl.close();
  });

  it('keeps llm-d behaviour (the newcomer is refused) with switchyard.admissionShares: false', async () => {
    const { fc: ctl } = harness(0, { config: { priorityBands: [{ priority: 0, maxRequests: 4 }], switchyard: { admissionShares: false } } });
    const flood = Array.from({ length: 4 }, () => track(ctl, request({ fairnessId: 'flooder' })));
    const light = track(ctl, request({ fairnessId: 'light' }));
    await settle();
    expect(rejected(light)).toBe(true);
    expect(flood.some(rejected)).toBe(false);
    await ctl.close();
  });

  it('never lets a flow within its share be refused while another is over it, and answers every request once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 120 }), fc.integer({ min: 2, max: 20 }), async (arrivals, capacity) => {
        const { fc: ctl } = harness(0, { config: { priorityBands: [{ priority: 0, maxRequests: capacity }] } });
        const tracked: Tracked[] = [];
        const queued = new Map<string, number>();
        let violations = 0;
        ctl.on('rejected', (r) => {
          // At a refusal the newcomer's flow must be at or over its share, or nobody was over theirs.
          const flows = [...queued.entries()].filter(([, n]) => n > 0);
          const active = flows.length + ((queued.get(r.fairnessId) ?? 0) > 0 ? 0 : 1);
          const share = (capacity + 1) / active;
          const mine = (queued.get(r.fairnessId) ?? 0) + 1;
          const someoneOver = flows.some(([id, n]) => id !== r.fairnessId && n > share && n > mine);
          if (mine <= share && someoneOver) violations++;
        });
        ctl.on('enqueued', (r) => queued.set(r.request.fairnessId, (queued.get(r.request.fairnessId) ?? 0) + 1));
        ctl.on('displaced', (r) => queued.set(r.request.fairnessId, (queued.get(r.request.fairnessId) ?? 0) - 1));
        for (const flow of arrivals) tracked.push(track(ctl, request({ fairnessId: `t${flow}` })));
        await settle();
        expect(violations).toBe(0);
        expect(ctl.stats().queuedRequests).toBe(Math.min(capacity, arrivals.length));
        await ctl.close();
        await Promise.all(tracked.map((t) => t.done));
        expect(tracked.every((t) => t.error !== undefined || t.grant !== undefined)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
