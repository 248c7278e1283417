import { describe, expect, it } from 'vitest';
import { builtinPolicy, measureCapacity, percentiles, runVirtualFleet, scaleArrivals, sharedPrefixWorkload, ttftOrInfinity, type VirtualFleetOptions } from '@switchyard/simulator';

const fleet: VirtualFleetOptions = { pods: 2, profile: '8b-h100', seed: 3 };
// 4K-token prompts with little reuse: capacity is set by prefill and decode.
const workload = sharedPrefixWorkload({ numGroups: 200, numPromptsPerGroup: 2, systemPromptLen: 1024, questionLen: 3072, outputLen: 128, rate: 2, durationMs: 1_200_000, seed: 5 });
const p90 = async (scale: number): Promise<number> => {
  const w = scaleArrivals(workload, scale);
  const run = await runVirtualFleet({ ...w, items: w.items.filter((it) => it.arrivalMs < 60_000) }, builtinPolicy('round-robin'), fleet);
  return percentiles(run.records.filter((r) => r.arrivalMs >= 20_000).map(ttftOrInfinity)).p90;
};

describe('measureCapacity', () => {
  it('finds the highest arrival scale whose TTFT p90 meets the SLO', async () => {
    const slo = 1000;
    const cap = await measureCapacity(workload, { fleet, policy: builtinPolicy('round-robin'), sloTtftMs: slo });
    expect(cap.scale).toBeGreaterThan(1);
    expect(cap.requestsPerSec).toBeCloseTo((workload.items.length / (workload.items.at(-1)!.arrivalMs / 1000)) * cap.scale, 6);
    expect(await p90(cap.scale)).toBeLessThanOrEqual(slo);
    // Within the bisection's resolution: twice the found scale misses the SLO.
    expect(await p90(cap.scale * 2)).toBeGreaterThan(slo);
  }, 120_000);
});
