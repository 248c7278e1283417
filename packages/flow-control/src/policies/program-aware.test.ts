import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock } from '@switchyard/core';
import { createProgramAwareFairness, programAwareFairnessPlugin, type FlowController } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { harness, request, track, type RequestSpec } from '../test-support/flow-harness.js';

const plugins = (...ps: { name: string }[]): ReadonlyMap<string, never> => new Map(ps.map((p) => [p.name, p as never]));

/** Serves queued requests one at a time; each completes with `usage(id)` tokens of output. */
async function serve(fc: FlowController, specs: readonly RequestSpec[], completion: (id: string) => number): Promise<string[]> {
  const blocker = track(fc, request());
  await settle();
  const order: string[] = [];
  fc.on('dispatched', (r) => {
    order.push(r.request.id);
    (r as unknown as { release(o: unknown): void }).release({ kind: 'success', usage: { promptTokens: 10, completionTokens: completion(r.request.id) } });
  });
  for (const s of specs) track(fc, request(s));
  blocker.grant?.release({ kind: 'success' });
  for (let i = 0; i < specs.length + 2 && fc.stats().queuedRequests > 0; i++) await settle();
  return order;
}

describe('program-aware-fairness', () => {
  it('serves the program with the least attained service first', async () => {
    const clock = new ManualClock();
    const las = createProgramAwareFairness(clock, { name: 'las', lasWeightHeadWait: 0 });
    const { fc } = harness(1, { clock, config: { defaultPriorityBand: { fairnessPolicyRef: 'las' } }, plugins: plugins(las) });
    // `hog` completes with 1000 output tokens per request, `small` with 1: after one of each,
    // `small` has far less service and gets every later turn while it has work.
    const specs = [
      ...['hog0', 'hog1', 'hog2'].map((id) => ({ id, fairnessId: 'hog' })),
      ...['small0', 'small1', 'small2'].map((id) => ({ id, fairnessId: 'small' })),
    ];
    const order = await serve(fc, specs, (id) => (id.startsWith('hog') ? 1000 : 1));
    // Both start at zero service: the tie goes to the smaller id (`hog`), then `small` catches up.
    expect(order).toEqual(['hog0', 'small0', 'small1', 'small2', 'hog1', 'hog2']);
  });

  it('forgets service over the half-life', () => {
    const clock = new ManualClock();
    const las = createProgramAwareFairness(clock, { lasHalfLifeSeconds: 10, lasWeightHeadWait: 0 });
    const selector = las.createSelector(() => false);
    const flow = (fairnessId: string, enqueuedAt: number) => ({ fairnessId, priority: 0, size: 1, bytes: 1, policyState: undefined, head: () => ({ enqueuedAt }) as never });
    const a = flow('a', 0);
    const b = flow('b', 0);
    selector.add(a);
    selector.add(b);
    selector.settle?.(a, 0, 0, { promptTokens: 100, completionTokens: 0 });
    selector.settle?.(b, 0, 0, { promptTokens: 10, completionTokens: 0 });
    expect(selector.select()).toBe(b);
    // 100 halves four times in 40 s (6.25); b's 10 was charged 40 s later, so a is lower now.
    clock.advance(40_000);
    selector.settle?.(b, 0, 0, { promptTokens: 10, completionTokens: 0 });
    expect(selector.select()).toBe(a);
  });

  it('prefers the longer-waiting head when service is equal', () => {
    const las = createProgramAwareFairness(new ManualClock());
    const selector = las.createSelector(() => false);
    const flow = (fairnessId: string, enqueuedAt: number) => ({ fairnessId, priority: 0, size: 1, bytes: 1, policyState: undefined, head: () => ({ enqueuedAt }) as never });
    const late = flow('a', 50);
    const early = flow('z', 10);
    selector.add(late);
    selector.add(early);
    expect(selector.select()).toBe(early);
  });

  it("validates llm-d's parameters", () => {
    const parse = (p: unknown) => programAwareFairnessPlugin.parameters.safeParse(p);
    expect(parse(undefined).data).toEqual({ strategy: 'las', evictionTtlSeconds: 3600, evictionSweepSeconds: 300, lasWeightService: 0.8, lasWeightHeadWait: 0.2, lasHalfLifeSeconds: 60 });
    expect(parse({ strategy: 'drr' }).success).toBe(false);
    expect(parse({ evictionSweepSeconds: 0 }).success).toBe(false);
    expect(parse({ lasWeightService: -1 }).success).toBe(false);
    const policy = programAwareFairnessPlugin.create(programAwareFairnessPlugin.parameters.parse({}), { name: 'p', clock: new ManualClock(), pool: new EndpointPool(), lookup: () => undefined });
    expect(policy.type).toBe('program-aware-fairness');
  });
});
