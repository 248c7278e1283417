import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BUILTIN_POLICIES, builtinPolicy, runVirtualFleet, sharedPrefixWorkload, type PolicyRun, type VirtualFleetOptions } from '@switchyard/simulator';

// Speed work on the simulator and the prefix index must not change what a run computes. These
// digests were taken from main before the speed work (fixed seeds); every optimisation has to
// reproduce them bit for bit. A deliberate modelling change updates them, and says so in its commit.

// Small engines (4,096 blocks) so groups compete for cache: evictions, BlockRemoved events and
// preemptions all happen, and the precise index's speculation, confirmation and expiry all run.
const fleet: VirtualFleetOptions = { pods: 4, profile: '8b-h100', overrides: { numGpuBlocks: 4096 }, seed: 11 };
const workload = sharedPrefixWorkload({ numGroups: 40, numPromptsPerGroup: 4, systemPromptLen: 3000, questionLen: 300, outputLen: 64, rate: 12, durationMs: 30_000, seed: 5 });

/** Everything deterministic a run produces (wall time excluded). */
function digest(run: PolicyRun): string {
  const body = JSON.stringify({ records: run.records, samples: run.samples, durationMs: run.durationMs, engine: run.engine });
  return createHash('sha256').update(body).digest('hex').slice(0, 16);
}

const GOLDEN: Record<string, string> = {
  'round-robin/1': '7bbe20b41cf76c9a',
  'random/1': '8c455d763267d28e',
  'least-queue/1': '5a2dea47e1b7595d',
  'default/1': '7f0bfb3df7176a56',
  'precise/1': '7f0bfb3df7176a56',
  'cache-greedy/1': '7f0bfb3df7176a56',
  'switchyard/1': '4a2424bfd754a9cc',
  'round-robin/3': '4905f3e03f0fd79a',
  'random/3': '9af19ebdee2728d2',
  'least-queue/3': 'f03ec87cb970a4b3',
  'default/3': 'e6b82bcfa9989333',
  'precise/3': '4e9ae0c5219f5fdf',
  'cache-greedy/3': '4e9ae0c5219f5fdf',
  'switchyard/3': 'fa72b059245f4e59',
  'precise/restart-loss': '3e30f68f8bc7fa05',
};

/** Checks a run against its golden digest (`GOLDEN_PRINT=1` prints the digests, to update them). */
function expectGolden(key: string, run: PolicyRun): void {
  const d = digest(run);
  if (process.env.GOLDEN_PRINT !== undefined) console.log(`  '${key}': '${d}',`);
  expect(d).toBe(GOLDEN[key]);
}

describe('fixed-seed runs are unchanged by speed work (golden digests from main)', () => {
  for (const gateways of [1, 3]) {
    it.each(BUILTIN_POLICIES)(`%s, ${gateways} gateway(s)`, async (policy) => {
      const run = await runVirtualFleet(workload, builtinPolicy(policy), { ...fleet, gateways });
      expect(run.records.every((r) => r.status === 'ok')).toBe(true);
      expectGolden(`${policy}/${gateways}`, run);
    });
  }

  it('precise with a pod restart and KV-event loss, 3 gateways', async () => {
    const run = await runVirtualFleet(workload, builtinPolicy('precise'), {
      ...fleet,
      gateways: 3,
      signals: { kvEventLoss: 0.1 },
      membership: [{ atMs: 8_000, action: 'restart', pod: 1 }],
    });
    expect(run.records.filter((r) => r.status === 'ok').length).toBeGreaterThan(workload.items.length * 0.9);
    expectGolden('precise/restart-loss', run);
  });
});
