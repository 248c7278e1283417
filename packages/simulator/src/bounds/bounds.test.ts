import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WORKLOAD_PRESETS, beladyHits, comparePolicies, unlimitedCacheHits, type RequestBlocks } from '@switchyard/simulator';

// Every preset, reduced (3 pods, 25 s of arrivals), every routing policy, two seeds and one
// multi-gateway run: no policy may reuse more than either hit bound or beat a request's TTFT bound.
const POLICIES = ['round-robin', 'least-queue', 'default', 'precise', 'cache-greedy'];

describe('sound references', () => {
  for (const preset of WORKLOAD_PRESETS) {
    it.each([
      { seed: 1, gateways: 1 },
      { seed: 2, gateways: 3 },
    ])(`${preset}: no policy exceeds the hit bounds or beats the TTFT bound (seed $seed, $gateways gateways)`, async ({ seed, gateways }) => {
      const { runs, bounds, workload, report } = await comparePolicies({ workload: preset, policies: POLICIES, pods: 3, gateways, seed, durationMs: 25_000, ...(preset === 'agentic' ? { scale: 0.02 } : {}) });
      const index = new Map(workload.items.map((it, i) => [it.id, i]));
      let unlimited = 0;
      let capacity = 0;
      for (let i = 0; i < workload.items.length; i++) {
        unlimited += bounds.unlimitedHitTokens[i] ?? 0;
        capacity += bounds.capacityHitTokens[i] ?? 0;
        expect(bounds.capacityHitTokens[i]).toBeLessThanOrEqual(bounds.unlimitedHitTokens[i] ?? 0);
      }
      for (const run of runs) {
        let cached = 0;
        for (const r of run.records) {
          const i = index.get(r.id) as number;
          if (r.status !== 'ok') continue;
          cached += r.cachedTokens;
          expect(r.firstTokenMs! - r.arrivalMs, `${run.policy} ${r.id}`).toBeGreaterThanOrEqual((bounds.ttftLowerMs[i] ?? 0) - 1e-9);
        }
        expect(cached, run.policy).toBeLessThanOrEqual(capacity);
        expect(cached, run.policy).toBeLessThanOrEqual(unlimited);
      }
      for (const p of report.policies) {
        expect(p.measured.hitVsCapacity ?? 0, p.policy).toBeLessThanOrEqual(1);
        expect(p.measured.hitVsUnlimited ?? 0, p.policy).toBeLessThanOrEqual(1);
        expect(p.measured.ttftOverBound?.p50 ?? 1, p.policy).toBeGreaterThanOrEqual(1);
      }
    }, 240_000);
  }
});

describe('hit bounds', () => {
  // Requests as chains of blocks drawn from a small tree, so prefixes are shared.
  const streams = fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 60 }).map((spec) =>
    spec.map(([root, len, branch]): RequestBlocks => {
      const hashes = Array.from({ length: len }, (_, b) => root * 1_000_000 + (b >= 6 ? branch * 1000 : 0) + b + 1);
      return { hashes, queryable: Math.max(0, len - 1) };
    }),
  );

  it('Belady never beats the unlimited cache, and with room for everything equals it', () => {
    fc.assert(fc.property(streams, fc.integer({ min: 1, max: 40 }), (s, cap) => {
      const u = unlimitedCacheHits(s);
      const b = beladyHits(s, cap);
      const sum = (a: Int32Array): number => a.reduce((x, y) => x + y, 0);
      expect(sum(b)).toBeLessThanOrEqual(sum(u));
      expect(sum(beladyHits(s, 1_000_000))).toBe(sum(u));
      // More capacity never loses hits (Belady is a stack algorithm).
      expect(sum(beladyHits(s, cap + 5))).toBeGreaterThanOrEqual(sum(b));
    }));
  });

  it('counts a leading run only', () => {
    const s: RequestBlocks[] = [
      { hashes: [1, 2, 3], queryable: 2 },
      { hashes: [1, 2, 3, 4], queryable: 3 },
      { hashes: [9, 2, 3], queryable: 2 },
    ];
    expect([...unlimitedCacheHits(s)]).toEqual([0, 3, 0]);
    expect([...beladyHits(s, 2)]).toEqual([0, 2, 0]);
  });
});
