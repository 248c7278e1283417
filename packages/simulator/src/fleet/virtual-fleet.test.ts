import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@switchyard/core';
import {
  buildReport,
  builtinPolicy,
  configPolicy,
  createSimulatorRegistry,
  pickerPolicy,
  multiTurnWorkload,
  runCli,
  runVirtualFleet,
  sharedPrefixWorkload,
  type PolicyFactory,
  type PolicyRun,
  type VirtualFleetOptions,
  type Workload,
} from '@switchyard/simulator';

// Small engines (4096 blocks = 64K tokens) so a few groups already compete for cache.
const fleet: VirtualFleetOptions = { pods: 4, profile: '8b-h100', overrides: { numGpuBlocks: 4096 }, seed: 7 };
const workload = (seed = 3): Workload =>
  sharedPrefixWorkload({ numGroups: 24, numPromptsPerGroup: 4, systemPromptLen: 2000, questionLen: 300, outputLen: 64, rate: 8, durationMs: 30_000, seed });
const hit = (r: PolicyRun): number => r.engine.prefixHits / r.engine.prefixQueries;
const reportJson = (runs: PolicyRun[]): string =>
  JSON.stringify(buildReport({ workload: { name: 'w', description: 'd', params: {}, requests: runs[0]?.records.length ?? 0 }, fleet: { pods: 4, profile: '8b-h100', scrapeIntervalMs: 50, kvEventDelayMs: 10 }, seed: 7, runs }));

describe('runVirtualFleet', () => {
  it('is deterministic: the same seed gives byte-identical results', async () => {
    const a = await runVirtualFleet(workload(), builtinPolicy('precise'), fleet);
    const b = await runVirtualFleet(workload(), builtinPolicy('precise'), fleet);
    expect(reportJson([a])).toBe(reportJson([b]));
    expect(JSON.stringify(a.records)).toBe(JSON.stringify(b.records));
    const c = await runVirtualFleet(workload(), builtinPolicy('precise'), { ...fleet, seed: 8 });
    expect(JSON.stringify(c.records)).not.toBe(JSON.stringify(a.records));
  });

  it('runs the real picker: prefix-aware policies beat round-robin on cache hits', async () => {
    const w = workload();
    const runs = new Map<string, PolicyRun>();
    for (const p of ['round-robin', 'random', 'least-queue', 'default', 'precise', 'cache-greedy']) runs.set(p, await runVirtualFleet(w, builtinPolicy(p), fleet));
    for (const r of runs.values()) {
      expect(r.records).toHaveLength(w.items.length);
      expect(r.records.every((x) => x.status === 'ok')).toBe(true);
    }
    const rr = hit(runs.get('round-robin')!);
    for (const p of ['default', 'precise', 'cache-greedy']) expect(hit(runs.get(p)!)).toBeGreaterThan(1.5 * rr);
    // Round-robin spreads requests evenly.
    const perPod = Object.values(buildReport({ workload: { name: 'w', description: '', params: {}, requests: 0 }, fleet: { pods: 4, profile: 'x', scrapeIntervalMs: 50, kvEventDelayMs: 10 }, seed: 7, runs: [runs.get('round-robin')!] }).policies[0]!.endpointRequests);
    expect(Math.max(...perPod) - Math.min(...perPod)).toBeLessThanOrEqual(1);
  });

  it('models KV-event delay: a precise index is blind until events arrive, unless it speculates', async () => {
    const w = workload();
    // llm-d's precise producer as configured by default: no speculative indexing.
    const eventsOnly: PolicyFactory = async (ctx) => {
      const config = loadConfig({
        apiVersion: 'llm-d.ai/v1',
        kind: 'EndpointPickerConfig',
        plugins: [
          { type: 'precise-prefix-cache-producer', parameters: { subscribe: false, modelName: ctx.modelName } },
          { type: 'prefix-cache-scorer' },
          { type: 'queue-scorer' },
          { type: 'kv-cache-utilization-scorer' },
        ],
      }, { registry: await createSimulatorRegistry(), pool: ctx.pool, clock: ctx.clock });
      return pickerPolicy('events-only', 'precise without speculation', ctx, config);
    };
    const timely = await runVirtualFleet(w, eventsOnly, fleet);
    const late = await runVirtualFleet(w, eventsOnly, { ...fleet, kvEventDelayMs: 2000 });
    const deaf = await runVirtualFleet(w, eventsOnly, { ...fleet, kvEventDelayMs: 1e9 });
    expect(hit(timely)).toBeGreaterThan(hit(late) + 0.02);
    expect(hit(timely)).toBeGreaterThan(hit(deaf) + 0.15);
    // The built-in precise policy records each pick until the engine confirms it, so late events
    // cost it nothing against the approximate index, which learns at pick time.
    const approx = await runVirtualFleet(w, builtinPolicy('default'), { ...fleet, kvEventDelayMs: 2000 });
    const speculating = await runVirtualFleet(w, builtinPolicy('precise'), { ...fleet, kvEventDelayMs: 2000 });
    expect(hit(speculating)).toBeGreaterThanOrEqual(hit(approx));
    expect(hit(speculating)).toBeGreaterThan(hit(late) + 0.02);
  });

  it('gives the same results whether metrics go through the Prometheus text path or straight from state', async () => {
    const w = workload();
    const direct = await runVirtualFleet(w, builtinPolicy('default'), fleet);
    const scraped = await runVirtualFleet(w, builtinPolicy('default'), { ...fleet, metricsVia: 'prometheus' });
    expect(JSON.stringify(scraped.records)).toBe(JSON.stringify(direct.records));
  });

  it('handles endpoints joining, failing and leaving mid-run', async () => {
    const w = workload();
    const run = await runVirtualFleet(w, builtinPolicy('least-queue'), {
      ...fleet,
      membership: [
        { atMs: 8000, action: 'fail', pod: 1 },
        { atMs: 12_000, action: 'join', pod: 4 },
        { atMs: 16_000, action: 'leave', pod: 0 },
      ],
    });
    expect(run.records).toHaveLength(w.items.length);
    const failed = run.records.filter((r) => r.status !== 'ok');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.reason === 'endpoint-failed' && r.endpoint === 'pod-1')).toBe(true);
    expect(run.records.some((r) => r.endpoint === 'pod-4' && (r.dispatchMs ?? 0) >= 12_000)).toBe(true);
    expect(run.records.filter((r) => r.endpoint === 'pod-4').every((r) => (r.dispatchMs ?? 0) >= 12_000)).toBe(true);
    expect(run.records.filter((r) => r.endpoint === 'pod-0').every((r) => (r.dispatchMs ?? 0) < 16_000)).toBe(true);
    expect(run.records.filter((r) => r.endpoint === 'pod-1').every((r) => (r.dispatchMs ?? 0) < 8000)).toBe(true);
    // Drained requests on the leaving pod still complete.
    expect(run.records.filter((r) => r.endpoint === 'pod-0' && r.status === 'ok').length).toBeGreaterThan(0);
  });

  it('sends closed-loop turns after their predecessor completes', async () => {
    const w = multiTurnWorkload({ conversations: 3, turns: [3, 4], conversationRate: 2, seed: 2 });
    const run = await runVirtualFleet(w, builtinPolicy('precise'), { ...fleet, pods: 2 });
    const byId = new Map(run.records.map((r) => [r.id, r]));
    for (const item of w.items) {
      if (item.after === undefined) continue;
      const prev = byId.get(item.after)!;
      expect(byId.get(item.id)!.arrivalMs).toBeCloseTo(prev.finishMs + item.delayMs, 6);
    }
    // Later turns reuse the conversation so far (including the previous answer).
    const later = run.records.filter((r) => /-[1-9]$/.test(r.id));
    expect(later.every((r) => r.cachedTokens > 0)).toBe(true);
  });

  it('runs an EndpointPickerConfig with flow control', async () => {
    const yaml = `
apiVersion: llm-d.ai/v1
kind: EndpointPickerConfig
featureGates: [flowControl]
plugins:
- type: queue-scorer
- type: kv-cache-utilization-scorer
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: queue-scorer
  - pluginRef: kv-cache-utilization-scorer
`;
    const run = await runVirtualFleet(workload(), configPolicy('fc.yaml', yaml), fleet);
    expect(run.policy).toBe('fc.yaml');
    expect(run.records.every((r) => r.status === 'ok')).toBe(true);
  });
});

describe('switchyard-sim compare', () => {
  it('writes report.html and report.json and prints a summary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-compare-'));
    try {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        ['compare', '--workload', 'shared-prefix', '--pods', '2', '--rate', '1', '--duration', '6', '--policies', 'round-robin,precise', '--out', join(dir, 'report.html')],
        { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } },
      );
      expect(code).toBe(0);
      expect(out.join('')).toMatch(/round-robin\s+\d+\/\d+/);
      expect(err.join('')).toContain('[2/2 precise] 100%');
      const json = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as { policies: { policy: string }[] };
      expect(json.policies.map((p) => p.policy)).toEqual(['round-robin', 'precise']);
      expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain('<svg');
      const bad: string[] = [];
      expect(await runCli(['compare', '--workload', 'shared-prefix', '--policies', 'nope'], { stdout: { write: () => true }, stderr: { write: (s: string) => bad.push(s) } })).toBe(1);
      expect(bad.join('')).toMatch(/unknown policy "nope"|nope/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
