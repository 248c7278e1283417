import { describe, expect, it } from 'vitest';
import { comparePolicies, getProfile, type PolicySummary } from '@switchyard/simulator';

// The acceptance relations of the shared-prefix comparison, on a reduced variant of the preset
// that keeps its shape (Qwen3-32B pods, 6,000-token system prompts, 5 questions of 1,200 tokens,
// 1,000 output tokens, ≈70% of estimated capacity) with 6 pods and 150 s of arrivals instead of
// 8 pods and 180 s. The relations hold on seeds 1-6 of this variant; the test runs the two that
// broke them before: seed 4 with a precise index blind between a pick and the engine's
// BlockStored (no speculative indexing), seed 1 with a cache-greedy policy breaking ties on live load.
const POLICIES = ['round-robin', 'default', 'precise'] as const;

async function compare(seed: number): Promise<{ by: Map<string, PolicySummary>; params: Readonly<Record<string, unknown>> }> {
  const { report } = await comparePolicies({ workload: 'shared-prefix', pods: 6, durationMs: 150_000, seed, policies: [...POLICIES] });
  return { by: new Map(report.policies.map((p) => [p.policy, p])), params: report.workload.params };
}

describe('shared-prefix comparison (reduced preset)', () => {
  it.each([1, 4])('seed %i: default ≥ 2× round-robin hit rate and ≥ 35% lower TTFT p90, precise ≥ approximate, none above the capacity-aware bound', async (seed) => {
    const { by, params } = await compare(seed);
    // The regime the comparison is about: the groups' system prompts together are far more than
    // one pod's KV cache, so a cache-blind policy thrashes and the caches evict.
    const profile = getProfile('32b-h100');
    expect(Number(params.numGroups) * Number(params.systemPromptLen)).toBeGreaterThan(2 * profile.numGpuBlocks * profile.blockSize);
    const rr = by.get('round-robin')!;
    const approx = by.get('default')!;
    const precise = by.get('precise')!;
    for (const p of by.values()) expect(p.completed).toBe(p.requests);
    expect(approx.prefixHitRate).toBeGreaterThanOrEqual(2 * rr.prefixHitRate);
    expect(approx.ttft.p90).toBeLessThanOrEqual(0.65 * rr.ttft.p90);
    expect(precise.prefixHitRate).toBeGreaterThanOrEqual(approx.prefixHitRate);
    for (const p of by.values()) expect(p.measured.hitVsCapacity ?? 0).toBeLessThanOrEqual(1);
  }, 120_000);
});
