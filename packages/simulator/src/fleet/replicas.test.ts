import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@switchyard/core';
import {
  builtinPolicy,
  createSimulatorRegistry,
  pickerPolicy,
  runCli,
  runVirtualFleet,
  sharedPrefixWorkload,
  type PolicyFactory,
  type PolicyRun,
  type VirtualFleetOptions,
} from '@switchyard/simulator';

// Small engines (4096 blocks = 64K tokens) so a few groups already compete for cache.
const fleet: VirtualFleetOptions = { pods: 4, profile: '8b-h100', overrides: { numGpuBlocks: 4096 }, seed: 7 };
const workload = sharedPrefixWorkload({ numGroups: 24, numPromptsPerGroup: 4, systemPromptLen: 2000, questionLen: 300, outputLen: 64, rate: 8, durationMs: 30_000, seed: 3 });
const hit = (r: PolicyRun): number => r.records.reduce((a, x) => a + x.cachedTokens, 0) / r.records.reduce((a, x) => a + x.promptTokens, 0);

describe('gateway replicas', () => {
  it('builds one policy per replica and spreads arrivals over them at random', async () => {
    const seen: number[] = [];
    const counting: PolicyFactory = async (ctx) => {
      seen.push(ctx.replica);
      expect(ctx.replicas).toBe(3);
      return builtinPolicy('least-queue')(ctx);
    };
    const run = await runVirtualFleet(workload, counting, { ...fleet, gateways: 3 });
    expect(seen).toEqual([0, 1, 2]);
    const per = [0, 1, 2].map((g) => run.records.filter((r) => r.gateway === g).length);
    for (const n of per) expect(n).toBeGreaterThan(workload.items.length / 3 - 40);
    expect(per.reduce((a, n) => a + n, 0)).toBe(workload.items.length);
  });

  it('each replica has its own routing history: approximate loses reuse, precise keeps it', async () => {
    const one = await runVirtualFleet(workload, builtinPolicy('default'), fleet);
    const approx = await runVirtualFleet(workload, builtinPolicy('default'), { ...fleet, gateways: 4 });
    const precise = await runVirtualFleet(workload, builtinPolicy('precise'), { ...fleet, gateways: 4 });
    expect(hit(approx)).toBeLessThan(hit(one) - 0.1);
    expect(hit(precise)).toBeGreaterThan(hit(approx) + 0.1);
    for (const r of [one, approx, precise]) expect(r.records.every((x) => x.status === 'ok')).toBe(true);
  });

  it('loses KV events: a precise index without speculation goes blind as the loss grows', async () => {
    const eventsOnly: PolicyFactory = async (ctx) => {
      const config = loadConfig({
        apiVersion: 'llm-d.ai/v1',
        kind: 'EndpointPickerConfig',
        plugins: [{ type: 'precise-prefix-cache-producer', parameters: { subscribe: false, modelName: ctx.modelName } }, { type: 'prefix-cache-scorer' }, { type: 'queue-scorer' }],
      }, { registry: await createSimulatorRegistry(), pool: ctx.pool, clock: ctx.clock });
      return pickerPolicy('events-only', 'precise without speculation', ctx, config);
    };
    const all = await runVirtualFleet(workload, eventsOnly, fleet);
    const none = await runVirtualFleet(workload, eventsOnly, { ...fleet, signals: { kvEventLoss: 0.999 } });
    expect(hit(all)).toBeGreaterThan(hit(none) + 0.1);
  });

  it('restarts a pod behind its stable endpoint: its requests fail, its cache is gone, gateways are not told', async () => {
    const run = await runVirtualFleet(workload, builtinPolicy('default'), { ...fleet, membership: [{ atMs: 15_000, action: 'restart', pod: 2 }] });
    expect(run.records).toHaveLength(workload.items.length);
    const failed = run.records.filter((r) => r.status !== 'ok');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.endpoint === 'pod-2' && (r.reason === 'pod-restarted' || r.reason === 'endpoint-gone'))).toBe(true);
    // The endpoint keeps serving after the restart, starting cold.
    const after = run.records.filter((r) => r.endpoint === 'pod-2' && (r.dispatchMs ?? 0) > 15_010 && r.status === 'ok');
    expect(after.length).toBeGreaterThan(0);
    expect(after[0]?.cachedTokens).toBe(0);
  });
});

describe('switchyard-sim compare with replicas and bounds', () => {
  it('reports the bounds, the like-for-like table and the replica note', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-replicas-'));
    try {
      const out: string[] = [];
      const code = await runCli(
        ['compare', '--workload', 'multi-turn', '--pods', '2', '--rate', '0.5', '--duration', '10', '--gateways', '2', '--seeds', '2', '--policies', 'round-robin,default,precise', '--out', join(dir, 'report.html')],
        { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true } },
      );
      expect(code).toBe(0);
      const text = out.join('');
      expect(text).toMatch(/bounds: unlimited-cache hit [\d.]+%, capacity-aware \(Belady, \d+ blocks\) hit [\d.]+%, TTFT lower bound/);
      expect(text).toMatch(/note: With 2 gateway replicas/);
      const json = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as { bounds: { unlimitedHitRate: number }; acrossSeeds: { seeds: number[] }; fleet: { gateways: number } };
      expect(json.bounds.unlimitedHitRate).toBeGreaterThan(0);
      expect(json.acrossSeeds.seeds).toEqual([1, 2]);
      expect(json.fleet.gateways).toBe(2);
      const html = await readFile(join(dir, 'report.html'), 'utf8');
      expect(html.indexOf('Bounds: what no policy can beat')).toBeLessThan(html.indexOf('All completed requests'));
      expect(await runCli(['compare', '--workload', 'multi-turn', '--policies', 'oracle'], { stdout: { write: () => true }, stderr: { write: () => true } })).toBe(1);
      expect(await runCli(['compare', '--workload', 'multi-turn', '--policies', 'default', '--kv-loss', '2'], { stdout: { write: () => true }, stderr: { write: () => true } })).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
