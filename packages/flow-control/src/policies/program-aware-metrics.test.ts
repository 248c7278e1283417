import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { ManualClock } from '@switchyard/core';
import { createProgramAwareFairness } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { jainsIndex } from './program-aware-metrics.js';
import { harness, request, track } from '../test-support/flow-harness.js';

const flow = (fairnessId: string) => ({ fairnessId, priority: 0, size: 1, bytes: 1, policyState: undefined, head: () => undefined });
const item = (enqueuedAt: number) => ({ enqueuedAt }) as never;

async function samples(registry: Registry, name: string): Promise<Map<string, number>> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`${name} is not registered`);
  const { values } = await metric.get();
  return new Map(values.map((v) => [String(v.labels.program_id ?? ''), v.value]));
}

describe('program-aware-fairness metrics', () => {
  it('records each program’s mean queue wait at dispatch, its decayed service and Jain’s index over the waits', async () => {
    const clock = new ManualClock();
    const registry = new Registry();
    const selector = createProgramAwareFairness(clock, { lasHalfLifeSeconds: 10, metrics: registry }).createSelector(() => false);
    const a = flow('a');
    const b = flow('b');
    // Before any dispatch there is no program: no labelled series, and the unlabelled index reads
    // 0 (as an unlabelled Go gauge does before its first Set).
    expect((await samples(registry, 'llm_d_epp_program_aware_avg_wait_time_milliseconds')).size).toBe(0);
    expect(await samples(registry, 'llm_d_epp_program_aware_jains_fairness_index')).toEqual(new Map([['', 0]]));

    clock.advance(1000);
    selector.dispatched(a, item(clock.now() - 100)); // a waited 100 ms
    selector.dispatched(a, item(clock.now() - 300)); // and 300 ms: mean 200
    selector.dispatched(b, item(clock.now() - 600)); // b waited 600 ms
    selector.settle?.(b, 0, 0, { promptTokens: 10, completionTokens: 20 }); // 10 + 2·20 = 50 tokens

    expect(await samples(registry, 'llm_d_epp_program_aware_avg_wait_time_milliseconds')).toEqual(new Map([['a', 200], ['b', 600]]));
    expect(await samples(registry, 'llm_d_epp_program_aware_attained_service_tokens')).toEqual(new Map([['a', 0], ['b', 50]]));
    // (200 + 600)² / (2 · (200² + 600²)) = 640000 / 800000
    expect((await samples(registry, 'llm_d_epp_program_aware_jains_fairness_index')).get('')).toBeCloseTo(0.8, 12);

    // Service decays with the half-life; the mean wait is cumulative and does not.
    clock.advance(10_000);
    expect((await samples(registry, 'llm_d_epp_program_aware_attained_service_tokens')).get('b')).toBeCloseTo(25, 9);
    expect((await samples(registry, 'llm_d_epp_program_aware_avg_wait_time_milliseconds')).get('b')).toBe(600);
  });

  it('counts a request granted at once, without queueing, as a wait of 0 (llm-d records every request in PreRequest)', async () => {
    const clock = new ManualClock();
    const registry = new Registry();
    const las = createProgramAwareFairness(clock, { name: 'las', metrics: registry });
    const { fc } = harness(1, { clock, config: { defaultPriorityBand: { fairnessPolicyRef: 'las' } }, plugins: new Map([['las', las as never]]) });
    // The first request passes straight through (nothing waits, a slot is free); the second
    // queues behind it and is dispatched 400 ms later, when the first releases its slot.
    const first = track(fc, request({ fairnessId: 'p' }));
    await settle();
    const second = track(fc, request({ fairnessId: 'p' }));
    await settle();
    clock.advance(400);
    first.grant?.release({ kind: 'success' });
    await settle();
    expect(second.grant).toBeDefined();
    expect(await samples(registry, 'llm_d_epp_program_aware_avg_wait_time_milliseconds')).toEqual(new Map([['p', 200]]));
  });

  it('drops an idle program’s series once it is evicted', async () => {
    const clock = new ManualClock();
    const registry = new Registry();
    const selector = createProgramAwareFairness(clock, { evictionTtlSeconds: 10, evictionSweepSeconds: 1, metrics: registry }).createSelector(() => false);
    selector.dispatched(flow('old'), item(clock.now()));
    clock.advance(20_000);
    selector.dispatched(flow('new'), item(clock.now() - 5));
    expect([...(await samples(registry, 'llm_d_epp_program_aware_avg_wait_time_milliseconds')).keys()]).toEqual(['new']);
    expect([...(await samples(registry, 'llm_d_epp_program_aware_attained_service_tokens')).keys()]).toEqual(['new']);
  });

  it('a second instance on the same registry does not throw and leaves the families to the first', async () => {
    const clock = new ManualClock();
    const registry = new Registry();
    const first = createProgramAwareFairness(clock, { metrics: registry }).createSelector(() => false);
    const second = createProgramAwareFairness(clock, { name: 'other', metrics: registry }).createSelector(() => false);
    first.dispatched(flow('x'), item(clock.now() - 7));
    second.dispatched(flow('y'), item(clock.now() - 9));
    expect(await samples(registry, 'llm_d_epp_program_aware_avg_wait_time_milliseconds')).toEqual(new Map([['x', 7]]));
  });

  it('Jain’s index lies in [1/n, 1], is 1 for equal values and undefined for none', () => {
    expect(jainsIndex([])).toBeUndefined();
    expect(jainsIndex([0, 0])).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 20 }), (xs) => {
        const j = jainsIndex(xs) as number;
        expect(j).toBeGreaterThanOrEqual(1 / xs.length - 1e-9);
        expect(j).toBeLessThanOrEqual(1 + 1e-9);
        expect(jainsIndex(xs.map(() => xs[0] as number))).toBeCloseTo(1, 9);
      }),
    );
  });
});
