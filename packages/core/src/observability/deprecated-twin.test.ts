import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { EndpointPicker, EndpointPool, FastCounter, ManualClock, SchedulerMetrics, parseRequest } from '@switchyard/core';
import { registerDeprecatedTwin } from '@switchyard/core/internal';
import { metrics as endpointMetrics } from '../testing/index.js';

const request = (fairnessId: string) =>
  parseRequest({ path: '/v1/chat/completions', headers: { 'x-llm-d-inference-fairness-id': fairnessId }, body: JSON.stringify({ model: 'llama', messages: [{ role: 'user', content: 'hi' }] }) });

type Sample = { labels: Record<string, unknown>; value: number; metricName?: string };

async function samples(registry: Registry, name: string): Promise<Sample[]> {
  return (await registry.getMetricsAsJSON()).find((m) => m.name === name)?.values ?? [];
}

describe("llm-d's deprecated twins", () => {
  it('expose what a request recorded once, under the old names and label names, summed over the labels they drop', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ id: 'ns/pod-a-rank-0', address: '10.0.0.1:8000' });
    pool.setMetrics('ns/pod-a-rank-0', endpointMetrics({ waitingQueueSize: 3, updatedAt: clock.now() }));
    const metrics = new SchedulerMetrics();
    const picker = new EndpointPicker({ pool, clock, metrics, poolName: 'pool-1' });
    // Two flows of one model: the current family has one series per fairness id, the twin one per model.
    for (const flow of ['tenant-a', 'tenant-b']) {
      const d = await picker.pick(request(flow));
      clock.advance(250);
      d.onUsage({ promptTokens: 10, completionTokens: 5 });
      d.complete({ kind: 'success' });
    }
    const r = metrics.registry;
    expect(await samples(r, 'llm_d_epp_request_total')).toHaveLength(2);
    expect(await samples(r, 'inference_objective_request_total')).toEqual([{ labels: { model_name: 'llama', target_model_name: 'llama', priority: '0' }, value: 2 }]);
    const duration = await samples(r, 'inference_objective_request_duration_seconds');
    expect(duration.find((s) => s.metricName === 'inference_objective_request_duration_seconds_count')).toEqual({ labels: { model_name: 'llama', target_model_name: 'llama' }, value: 2, metricName: 'inference_objective_request_duration_seconds_count' });
    expect(duration.find((s) => s.metricName === 'inference_objective_request_duration_seconds_sum')?.value).toBeCloseTo(0.5, 9);
    // Cumulative buckets: both observations (0.25 s) are under le=0.4, none under le=0.2.
    const bucket = (le: number): number | undefined => duration.find((s) => s.metricName === 'inference_objective_request_duration_seconds_bucket' && s.labels.le === le)?.value;
    expect([bucket(0.2), bucket(0.4)]).toEqual([0, 2]);
    expect((await samples(r, 'inference_objective_running_requests'))).toEqual([{ labels: { model_name: 'llama' }, value: 0 }]);
    // scheduler_attempts_total's endpoint_name was pod_name.
    expect(await samples(r, 'inference_extension_scheduler_attempts_total')).toEqual([{ labels: { status: 'success', target_model_name: 'llama', pod_name: 'pod-a-rank-0', namespace: 'ns', port: '8000' }, value: 2 }]);
    expect(await samples(r, 'inference_pool_ready_pods')).toEqual(await samples(r, 'llm_d_epp_ready_endpoints'));
    expect(await samples(r, 'inference_pool_average_queue_size')).toEqual([{ labels: { name: 'pool-1' }, value: 3 }]);
    expect(await samples(r, 'inference_pool_per_pod_queue_size')).toEqual([{ labels: { name: 'pool-1', model_server_pod: 'pod-a-rank-0' }, value: 3 }]);
    // llm-d has no std_dev twins.
    expect((await r.getMetricsAsJSON()).some((m) => m.name.startsWith('inference_pool_std_dev'))).toBe(false);
  });

  it('follow later recordings, since they hold no values of their own', async () => {
    const registry = new Registry();
    const current = new FastCounter<'code' | 'pod'>({ name: 'current_total', help: 'h', labelNames: ['code', 'pod'], registers: [registry] });
    registerDeprecatedTwin(registry, 'old_total', current, 'current_total', [['code', 'code']]);
    current.labels('ok', 'a').inc();
    expect(await samples(registry, 'old_total')).toEqual([{ labels: { code: 'ok' }, value: 1 }]);
    current.labels('ok', 'b').inc(2);
    current.labels('err', 'a').inc();
    expect(await samples(registry, 'old_total')).toEqual([{ labels: { code: 'ok' }, value: 3 }, { labels: { code: 'err' }, value: 1 }]);
    expect(await registry.metrics()).toContain('# TYPE old_total counter\nold_total{code="ok"} 3\nold_total{code="err"} 1');
  });

  it('are left out with a custom prefix or when turned off', async () => {
    for (const metrics of [new SchedulerMetrics({ prefix: 'mine_' }), new SchedulerMetrics({ deprecatedTwins: false })]) {
      const names = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name);
      expect(names.filter((n) => n.startsWith('inference_'))).toEqual([]);
    }
  });
});
