import { describe, expect, it } from 'vitest';
import {
  createRoundRobinFairness,
  createWeightedDrrFairness,
  flowControlPlugins,
  type FlowController,
} from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { harness, request, track, type RequestSpec } from '../test-support/flow-harness.js';

/** Queues `specs` behind a blocker on a one-slot pool, then serves them one at a time; returns the dispatch order. */
async function serveOneByOne(fc: FlowController, specs: readonly RequestSpec[], tokensUsed?: (id: string) => number): Promise<string[]> {
  const blocker = track(fc, request());
  await settle();
  const order: string[] = [];
  fc.on('dispatched', (r) => {
    order.push(r.request.id);
    const used = tokensUsed?.(r.request.id);
    (r as unknown as { release(o: unknown): void }).release(
      used === undefined ? { kind: 'success' } : { kind: 'success', usage: { promptTokens: used, completionTokens: 0 } },
    );
  });
  for (const s of specs) track(fc, request(s));
  blocker.grant?.release({ kind: 'success' });
  for (let i = 0; i < specs.length + 2 && fc.stats().queuedRequests > 0; i++) await settle();
  expect(fc.stats().queuedRequests).toBe(0);
  return order;
}

const backlog = (flows: readonly string[], perFlow: number, extra: (flow: string, i: number) => Partial<RequestSpec> = () => ({})): RequestSpec[] =>
  flows.flatMap((f) => Array.from({ length: perFlow }, (_, i) => ({ id: `${f}${i}`, fairnessId: f, ...extra(f, i) })));

const plugins = (...ps: { name: string }[]): ReadonlyMap<string, never> => new Map(ps.map((p) => [p.name, p as never]));

describe('fairness policies', () => {
  it('global-strict (default) serves the band as one FCFS queue', async () => {
    const { fc } = harness(1);
    const order = await serveOneByOne(fc, backlog(['a', 'b'], 3));
    expect(order).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2']);
  });

  it('round-robin alternates between backlogged flows', async () => {
    const { fc } = harness(1, { config: { defaultPriorityBand: { fairnessPolicyRef: 'rr' } }, plugins: plugins(createRoundRobinFairness('rr')) });
    const order = await serveOneByOne(fc, backlog(['a', 'b', 'c'], 3));
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'c1', 'a2', 'b2', 'c2']);
  });

  it('weighted DRR shares tokens by weight, whatever the request sizes', async () => {
    const drr = createWeightedDrrFairness({ name: 'drr', quantumTokens: 100, weights: { heavy: 1, light: 1 } });
    const { fc } = harness(1, { config: { defaultPriorityBand: { fairnessPolicyRef: 'drr' } }, plugins: plugins(drr) });
    // heavy sends 400-token requests (1600 bytes), light 100-token ones: equal tokens means 4 light per heavy.
    const specs = [
      ...backlog(['heavy'], 3, () => ({ bytes: 1600 })),
      ...backlog(['light'], 12, () => ({ bytes: 400 })),
    ];
    const order = await serveOneByOne(fc, specs);
    expect(order.slice(0, 10).filter((id) => id.startsWith('heavy'))).toHaveLength(2);
    expect(order.slice(0, 5).filter((id) => id.startsWith('light'))).toHaveLength(4);
  });

  it('weighted DRR gives weight-proportional shares of equal requests', async () => {
    const drr = createWeightedDrrFairness({ name: 'drr', quantumTokens: 25, weights: { gold: 3 } });
    const { fc } = harness(1, { config: { defaultPriorityBand: { fairnessPolicyRef: 'drr' } }, plugins: plugins(drr) });
    const order = await serveOneByOne(fc, backlog(['gold', 'std'], 12));
    const first = order.slice(0, 12);
    expect(first.filter((id) => id.startsWith('gold'))).toHaveLength(9);
  });

  it('weighted DRR charges the real usage reported at release', async () => {
    const drr = createWeightedDrrFairness({ name: 'drr', quantumTokens: 25 });
    const { fc } = harness(1, { config: { defaultPriorityBand: { fairnessPolicyRef: 'drr' } }, plugins: plugins(drr) });
    // Both flows estimate 25 tokens per request, but `big` really uses 100: it falls behind 4 to 1.
    const order = await serveOneByOne(fc, backlog(['big', 'small'], 8), (id) => (id.startsWith('big') ? 100 : 25));
    const first = order.slice(0, 10);
    expect(first.filter((id) => id.startsWith('small')).length).toBeGreaterThanOrEqual(7);
  });

  it('rejects non-positive weights', () => {
    expect(() => createWeightedDrrFairness({ weights: { a: 0 } })).toThrow(RangeError);
  });

  it('exports every policy as a plugin definition with llm-d names', () => {
    expect(flowControlPlugins.map((p) => p.type)).toEqual([
      'global-strict-fairness-policy',
      'round-robin-fairness-policy',
      'weighted-drr-fairness-policy',
      'fcfs-ordering-policy',
      'edf-ordering-policy',
      'slo-deadline-ordering-policy',
      'static-usage-limit-policy',
      'priority-holdback-policy',
      'soft-reflective-ceiling-policy',
      'program-aware-fairness',
      'sheddable-eviction-filter',
      'priority-then-time-eviction-order-policy',
    ]);
  });
});
