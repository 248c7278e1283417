import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { comparePolicies } from '@switchyard/simulator';

const trace = (name: string): string => fileURLToPath(new URL(`../../traces/${name}`, import.meta.url));

// The "done when" command on the repository's traces, shortened to their first 90 s: it runs,
// measures capacity, reports the three bounds and judges every policy on the same offered set.
describe('compare on public traces at a target load with 4 gateway replicas', () => {
  it.each(['mooncake_synthetic_trace.jsonl', 'azure2023_code.csv'])('%s', async (file) => {
    const { report } = await comparePolicies({
      workload: `trace:${trace(file)}`,
      policies: ['round-robin', 'least-queue', 'default', 'precise'],
      targetLoad: 0.7,
      gateways: 4,
      durationMs: 90_000,
      readFile: (p) => readFileSync(p, 'utf8'),
    });
    expect(report.fleet.gateways).toBe(4);
    expect(report.workload.params.targetLoad).toBe(0.7);
    expect(Number(report.workload.params.estimatedCapacity)).toBeGreaterThan(0);
    const b = report.bounds!;
    expect(b.capacityHitRate).toBeLessThanOrEqual(b.unlimitedHitRate);
    expect(b.ttftLower.p50).toBeGreaterThan(0);
    if (file.endsWith('.csv')) expect(b.unlimitedHitRate).toBe(0);
    else expect(b.unlimitedHitRate).toBeGreaterThan(0);
    for (const p of report.policies) {
      expect(p.measured.requests).toBe(report.window.requests);
      const o = p.measured.outcomes;
      expect(o.ok + o.shed + o.ttl + o.engine + o.timeout).toBe(p.measured.requests);
      expect(p.measured.hitVsCapacity ?? 0).toBeLessThanOrEqual(1);
    }
  }, 240_000);
});
