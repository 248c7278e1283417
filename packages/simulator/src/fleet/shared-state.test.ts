import { describe, expect, it } from 'vitest';
import { builtinPolicy, runVirtualFleet, sharedPrefixWorkload, type PolicyRun, type VirtualFleetOptions } from '@switchyard/simulator';

// The same small fleet as replicas.test.ts: a few groups already compete for cache.
const fleet: VirtualFleetOptions = { pods: 4, profile: '8b-h100', overrides: { numGpuBlocks: 4096 }, seed: 7 };
const workload = sharedPrefixWorkload({ numGroups: 24, numPromptsPerGroup: 4, systemPromptLen: 2000, questionLen: 300, outputLen: 64, rate: 8, durationMs: 30_000, seed: 3 });
const hit = (r: PolicyRun): number => r.records.reduce((a, x) => a + x.cachedTokens, 0) / r.records.reduce((a, x) => a + x.promptTokens, 0);

describe('gateway replicas with shared state (sharedStateSyncMs)', () => {
  it('four replicas sharing routing history keep one replica’s reuse; unshared they lose it', async () => {
    const one = await runVirtualFleet(workload, builtinPolicy('default'), fleet);
    const alone = await runVirtualFleet(workload, builtinPolicy('default'), { ...fleet, gateways: 4 });
    const shared = await runVirtualFleet(workload, builtinPolicy('default'), { ...fleet, gateways: 4, sharedStateSyncMs: 200 });
    expect(hit(alone)).toBeLessThan(hit(one) - 0.1);
    expect(hit(shared)).toBeGreaterThan(hit(one) * 0.95);
    for (const r of [one, alone, shared]) expect(r.records.every((x) => x.status === 'ok')).toBe(true);
  }, 120_000);
});
