import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ROLE_LABEL, createConcurrencyDetector } from '@switchyard/core';
import { FlowControlMetrics, createFlowController, createRoundRobinFairness, jainsIndex } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { harness, pool, request, sample, track } from '../test-support/flow-harness.js';

describe('flow-control metrics', () => {
  it('exports llm-d names for queues, saturation, capacity, outcomes and dispatch cycles', async () => {
    const { fc, clock } = harness(1, { metrics: { poolName: 'qwen' }, config: { priorityBands: [{ priority: 0, maxRequests: 4, maxBytes: 1000 }] } });
    const registry = fc.metrics!.registry;
    const first = track(fc, request({ fairnessId: 'tenant-a', bytes: 100 }));
    track(fc, request({ fairnessId: 'tenant-a', bytes: 150 }));
    track(fc, request({ fairnessId: 'tenant-b', bytes: 250 }));
    await settle();
    const q = (name: string, labels: Record<string, string>): Promise<number> => sample(registry, `llm_d_epp_flow_control_${name}`, labels);
    expect(await q('queue_size', { fairness_id: 'tenant-a', priority: '0', inference_pool: 'qwen' })).toBe(1);
    expect(await q('queue_bytes', { fairness_id: 'tenant-b' })).toBe(250);
    expect(await q('capacity_utilization_requests', { priority: '0' })).toBe(0.5);
    expect(await q('capacity_utilization_bytes', { priority: '0' })).toBe(0.4);
    expect(await q('pool_saturation', { stage: 'decode' })).toBe(1);
    clock.advance(1500);
    first.grant?.release({ kind: 'success' });
    await settle();
    expect(await q('requests_total', { outcome: 'Dispatched', priority: '0', inference_pool: 'qwen' })).toBe(2);
    expect(await q('request_queue_duration_seconds_count', { fairness_id: 'tenant-a', outcome: 'Dispatched' })).toBe(2);
    expect(await q('request_queue_duration_seconds_sum', { fairness_id: 'tenant-a', outcome: 'Dispatched' })).toBe(1.5);
    expect(await q('request_queue_duration_seconds_bucket', { fairness_id: 'tenant-a', outcome: 'Dispatched', le: '1' })).toBe(1);
    expect(await q('dispatch_cycle_duration_seconds_count', {})).toBeGreaterThan(0);
    // llm-d's deprecated inference_extension_flow_control_* twins read the same recordings.
    const twin = (name: string, labels: Record<string, string>): Promise<number> => sample(registry, `inference_extension_flow_control_${name}`, labels);
    expect(await twin('queue_bytes', { fairness_id: 'tenant-b', priority: '0', inference_pool: 'qwen' })).toBe(250);
    expect(await twin('request_queue_duration_seconds_sum', { fairness_id: 'tenant-a', outcome: 'Dispatched' })).toBe(1.5);
    expect(await twin('request_queue_duration_seconds_bucket', { fairness_id: 'tenant-a', outcome: 'Dispatched', le: '1' })).toBe(1);
    expect(await twin('dispatch_cycle_duration_seconds_count', {})).toBe(await q('dispatch_cycle_duration_seconds_count', {}));
    expect(await twin('pool_saturation', { stage: 'decode', inference_pool: 'qwen' })).toBe(1);
    // Expired and rejected requests are labelled with their outcome.
    // tenant-b still waits; three of four tenant-c requests fit the band's 4 slots.
    for (let i = 0; i < 4; i++) track(fc, request({ fairnessId: 'tenant-c' }));
    await settle();
    clock.advance(60_000);
    await settle();
    expect(await q('requests_total', { outcome: 'RejectedCapacity', priority: '0' })).toBe(1);
    expect(await q('requests_total', { outcome: 'EvictedTTL', priority: '0' })).toBe(4);
  });

  it("labels the queue families with each request's model_name and target_model_name, at 0 once a pair left", async () => {
    const { fc, clock } = harness(1, { metrics: { poolName: 'qwen' } });
    const registry = fc.metrics!.registry;
    const first = track(fc, request({ fairnessId: 't', model: 'alias', targetModel: 'llama', bytes: 10 }));
    const second = track(fc, request({ fairnessId: 't', model: 'alias', targetModel: 'llama', bytes: 20 }));
    track(fc, request({ fairnessId: 't', model: 'qwen', bytes: 40 }));
    await settle();
    const q = (name: string, labels: Record<string, string>): Promise<number> => sample(registry, `llm_d_epp_flow_control_${name}`, { fairness_id: 't', ...labels });
    const aliasLlama = { model_name: 'alias', target_model_name: 'llama' };
    const qwen = { model_name: 'qwen', target_model_name: 'qwen' };
    // The first passed straight through; one alias→llama and the qwen request wait.
    expect([await q('queue_size', aliasLlama), await q('queue_bytes', aliasLlama)]).toEqual([1, 20]);
    expect([await q('queue_size', qwen), await q('queue_bytes', qwen)]).toEqual([1, 40]);
    expect(await sample(registry, 'inference_extension_flow_control_queue_bytes', { fairness_id: 't', ...qwen })).toBe(40);
    clock.advance(2000);
    first.grant?.release({ kind: 'success' });
    await settle();
    second.grant?.release({ kind: 'success' });
    await settle();
    expect(await q('queue_size', aliasLlama)).toBe(0);
    expect(await q('request_queue_duration_seconds_count', { outcome: 'Dispatched', ...aliasLlama })).toBe(2);
    expect(await q('request_queue_duration_seconds_sum', { outcome: 'Dispatched', ...aliasLlama })).toBe(2);
    expect(await q('request_queue_duration_seconds_count', { outcome: 'Dispatched', ...qwen })).toBe(1);
    expect(await sample(registry, 'inference_extension_flow_control_request_queue_duration_seconds_count', { fairness_id: 't', outcome: 'Dispatched', ...qwen })).toBe(1);
  });

  it("bounds model label values as llm-d's limiter does: after 1,000 distinct names, other", () => {
    const m = new FlowControlMetrics();
    for (let i = 0; i < 1000; i++) expect(m.modelLabel(`model-${i}`)).toBe(`model-${i}`);
    expect(m.modelLabel('one-too-many')).toBe('other');
    expect(m.modelLabel('model-7')).toBe('model-7');
  });

  it('global capacity utilization (only for configured limits) and enqueue duration by hand-off outcome', async () => {
    const { fc } = harness(1, { metrics: { poolName: 'qwen' }, config: { maxRequests: 4 } });
    const registry = fc.metrics!.registry;
    // The harness' pool takes one request at a time: the first passes straight through, four queue, the sixth is refused.
    for (let i = 0; i < 6; i++) track(fc, request({ fairnessId: 'tenant-a' }));
    await settle();
    const q = (name: string, labels: Record<string, string>): Promise<number> => sample(registry, `llm_d_epp_flow_control_${name}`, labels);
    expect(await q('global_capacity_utilization_requests', { inference_pool: 'qwen' })).toBe(1);
    const text = await registry.metrics();
    // No global maxBytes: llm-d leaves the bytes gauge out.
    expect(text).not.toMatch(/^llm_d_epp_flow_control_global_capacity_utilization_bytes\{/m);
    const handed = (outcome: string): Promise<number> => q('request_enqueue_duration_seconds_count', { fairness_id: 'tenant-a', priority: '0', outcome });
    expect(await handed('Dispatched')).toBe(1);
    expect(await handed('NotYetFinalized')).toBe(4);
    expect(await handed('RejectedCapacity')).toBe(1);
    expect(await sample(registry, 'inference_extension_flow_control_request_enqueue_duration_seconds_count', { fairness_id: 'tenant-a', priority: '0', outcome: 'NotYetFinalized' })).toBe(4);
  });

  it('reports saturation per stage', async () => {
    const p = pool(0);
    p.add({ address: '10.9.2.1:8000', labels: { [ROLE_LABEL]: 'prefill' } });
    p.add({ address: '10.9.2.2:8000', labels: { [ROLE_LABEL]: 'decode' } });
    p.addInFlight('10.9.2.1:8000', 3, 0);
    const fc = createFlowController({ pool: p, detector: createConcurrencyDetector({ maxConcurrency: 4 }) });
    expect(await sample(fc.metrics!.registry, 'llm_d_epp_flow_control_pool_saturation', { stage: 'prefill' })).toBe(0.75);
    expect(await sample(fc.metrics!.registry, 'llm_d_epp_flow_control_pool_saturation', { stage: 'decode' })).toBe(0);
  });

  it("computes Jain's fairness index per band over each scrape window", async () => {
    const { fc } = harness(1, { metrics: {}, config: { defaultPriorityBand: { fairnessPolicyRef: 'rr' } }, plugins: new Map([['rr', createRoundRobinFairness('rr')]]) });
    const blocker = track(fc, request());
    await settle();
    fc.on('dispatched', (r) => {
      (r as unknown as { release(o: unknown): void }).release({ kind: 'success' });
    });
    for (let i = 0; i < 4; i++) {
      track(fc, request({ fairnessId: 'a', bytes: 400 }));
      track(fc, request({ fairnessId: 'b', bytes: 400 }));
    }
    blocker.grant?.release({ kind: 'success' });
    for (let i = 0; i < 12; i++) await settle();
    // The blocker (default-flow) was served once with the same size as the others: 1, 4, 4 shares of 100 tokens.
    expect(fc.fairnessIndex(0)).toBeCloseTo(jainsIndex([25, 400, 400]), 10);
    expect(await sample(fc.metrics!.registry, 'llm_d_epp_flow_control_jains_fairness_index', { priority: '0' })).toBeCloseTo(jainsIndex([25, 400, 400]), 10);
    // A new window starts after each scrape.
    expect(fc.fairnessIndex(0)).toBe(1);
    expect(jainsIndex([1, 1, 1])).toBe(1);
    expect(jainsIndex([1, 0, 0, 0])).toBe(0.25);
  });

  it('records on a registry users can merge with their own', async () => {
    const registry = new Registry();
    const mine = new Registry();
    new Counter({ name: 'my_gateway_requests_total', help: 'x', registers: [mine] }).inc();
    const metrics = new FlowControlMetrics({ registry });
    const { fc } = harness(1, { metrics });
    expect(fc.metrics).toBe(metrics);
    track(fc, request());
    await settle();
    const text = await Registry.merge([registry, mine]).metrics();
    expect(text).toContain('my_gateway_requests_total 1');
    expect(text).toContain('llm_d_epp_flow_control_requests_total{outcome="Dispatched",priority="0",inference_pool=""} 1');
    registry.resetMetrics();
    expect(await sample(registry, 'llm_d_epp_flow_control_requests_total', { outcome: 'Dispatched' })).toBe(0);
    expect(await sample(registry, 'llm_d_epp_flow_control_request_queue_duration_seconds_count', { outcome: 'Dispatched' })).toBe(0);
    const json = await registry.getMetricsAsJSON();
    expect(json.find((m) => m.name === 'llm_d_epp_flow_control_request_queue_duration_seconds')?.type).toBe('histogram');
    const none = harness(1, { metrics: false });
    expect(none.fc.metrics).toBeUndefined();
  });
});
