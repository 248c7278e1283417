import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { EndpointPicker, EndpointPool, ManualClock, SchedulerMetrics, createDefaultRegistry, loadConfig, parseRequest, type StalenessPolicy } from '@switchyard/core';
import { seededRandom } from '../clock/seeded-random.js';
import { metrics } from '../testing/index.js';

const chat = (i: number) => parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: `question ${i}` }] }) });

/** `good` has fresh metrics and some load; `blind` was never scraped; `old` was, 5 s ago. */
function fleet(clock: ManualClock): EndpointPool {
  const pool = new EndpointPool();
  pool.add({ id: 'blind', address: '10.0.0.1:8000' });
  pool.add({ id: 'old', address: '10.0.0.2:8000' });
  pool.add({ id: 'good', address: '10.0.0.3:8000' });
  pool.setMetrics('old', metrics({ waitingQueueSize: 0, kvCacheUsagePercent: 0, updatedAt: clock.now() }));
  clock.advance(5000);
  pool.setMetrics('good', metrics({ waitingQueueSize: 3, kvCacheUsagePercent: 0.5, updatedAt: clock.now() }));
  return pool;
}

async function served(picker: EndpointPicker, n: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const d = await picker.pick(chat(i));
    counts[d.primary.id] = (counts[d.primary.id] ?? 0) + 1;
    d.complete({ kind: 'success' });
  }
  return counts;
}

describe('EndpointPicker staleness policy', () => {
  it('scores endpoints with missing or stale metrics as saturated by default: the fresh one takes the traffic', async () => {
    const clock = new ManualClock();
    const pool = fleet(clock);
    const m = new SchedulerMetrics({ registry: new Registry() });
    const picker = new EndpointPicker({ pool, clock, random: seededRandom(1), metrics: m });
    expect(await served(picker, 300)).toEqual({ good: 300 });
    expect(await m.registry.metrics()).toContain('llm_d_epp_flow_control_stale_endpoints{detector="utilization-detector"} 2');
    // The stale endpoint stays a (last) fallback, with the live endpoint's id and address.
    const d = await picker.pick(chat(0));
    expect(d.fallbacks.map((e) => [e.id, e.address, e.metrics?.kvCacheUsagePercent])).toEqual([
      ['blind', '10.0.0.1:8000', 1],
      ['old', '10.0.0.2:8000', 1],
    ]);
    d.complete({ kind: 'success' });
    expect(pool.get('blind')?.metrics).toBeUndefined();
    expect(pool.get('good')?.inFlightRequests).toBe(0);
  });

  it('excludes them with policy exclude, and fails open when every candidate is stale', async () => {
    const clock = new ManualClock();
    const pool = fleet(clock);
    const picker = new EndpointPicker({ pool, clock, random: seededRandom(2), staleness: { policy: 'exclude' } });
    const d = await picker.pick(chat(0));
    expect(d.targets?.map((e) => e.id)).toEqual(['good']);
    d.complete({ kind: 'success' });
    clock.advance(10_000);
    const open = await picker.pick(chat(1));
    expect(open.targets?.map((e) => e.id).sort()).toEqual(['blind', 'good', 'old']);
    open.complete({ kind: 'success' });
  });

  it('takes the policy and threshold from the config, and names a bad value', async () => {
    const clock = new ManualClock();
    const pool = fleet(clock);
    const doc = (policy: StalenessPolicy, threshold: string): string => `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
dataLayer:
  stalenessPolicy: ${policy}
  metricsStalenessThreshold: ${threshold}
`;
    const ignoring = new EndpointPicker({ pool, clock, random: seededRandom(3), config: loadConfig(doc('ignore', '2s'), { pool, clock, registry: createDefaultRegistry() }) });
    // Without the rule, the blind endpoints look idle and win: the red team's finding.
    expect((await served(ignoring, 100))['good'] ?? 0).toBe(0);
    const lenient = new EndpointPicker({ pool, clock, random: seededRandom(3), config: loadConfig(doc('exclude', '10s'), { pool, clock, registry: createDefaultRegistry() }) });
    const counts = await served(lenient, 100);
    expect(counts['blind']).toBeUndefined();
    expect(counts['old']).toBeGreaterThan(0);
    expect(() => loadConfig(doc('sometimes' as StalenessPolicy, '2s'), { pool, clock, registry: createDefaultRegistry() })).toThrow(/dataLayer\.stalenessPolicy/);
    expect(() => new EndpointPicker({ pool, staleness: { thresholdMs: 0 } })).toThrow('staleness.thresholdMs must be a positive number of milliseconds, got 0');
  });
});
