import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { EndpointPicker, EndpointPool, ManualClock, SchedulerMetrics, createSchedulerConfig, parseRequest, type Filter } from '@switchyard/core';
import { metrics as endpointMetrics } from '../testing/index.js';

const chat = () => parseRequest({ path: '/v1/chat/completions', headers: { 'x-llm-d-inference-fairness-id': 't1' }, body: JSON.stringify({ model: 'llama', messages: [{ role: 'user', content: 'hi' }] }) });

async function valueOf(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  // Histogram series (`_sum`, `_count`) live under the base metric, tagged with `metricName`.
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const v of metric.values as { value: number; labels: Record<string, unknown>; metricName?: string }[]) {
      if ((v.metricName ?? metric.name) !== name) continue;
      if (Object.entries(labels).every(([k, val]) => String(v.labels[k]) === val)) return v.value;
    }
  }
  return undefined;
}

describe('SchedulerMetrics', () => {
  it('counts requests, running requests, durations, tokens, cycles, plugin timings and ready endpoints', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    pool.setMetrics('a', endpointMetrics());
    const metrics = new SchedulerMetrics();
    const picker = new EndpointPicker({ pool, clock, metrics });
    const labels = { model_name: 'llama', target_model_name: 'llama', fairness_id: 't1', priority: '0' };

    const d = await picker.pick(chat());
    expect(await valueOf(metrics.registry, 'llm_d_epp_request_total', labels)).toBe(1);
    expect(await valueOf(metrics.registry, 'llm_d_epp_request_running', labels)).toBe(1);
    clock.advance(1500);
    d.onUsage({ promptTokens: 12, completionTokens: 34 });
    d.complete({ kind: 'success' });
    expect(await valueOf(metrics.registry, 'llm_d_epp_request_running', labels)).toBe(0);
    expect(await valueOf(metrics.registry, 'llm_d_epp_request_duration_seconds_sum', labels)).toBe(1.5);
    expect(await valueOf(metrics.registry, 'llm_d_epp_request_input_tokens_sum', labels)).toBe(12);
    expect(await valueOf(metrics.registry, 'llm_d_epp_request_output_tokens_sum', labels)).toBe(34);
    expect(await valueOf(metrics.registry, 'llm_d_epp_scheduler_e2e_duration_seconds_count')).toBe(1);
    expect(await valueOf(metrics.registry, 'llm_d_epp_plugin_duration_seconds_count', { extension_point: 'Scorer', plugin_type: 'queue-scorer', plugin_name: 'queue-scorer' })).toBe(1);
    expect(await valueOf(metrics.registry, 'llm_d_epp_ready_endpoints')).toBe(1);
    pool.add({ id: 'b', address: '10.0.0.2:8000' });
    expect(await valueOf(metrics.registry, 'llm_d_epp_ready_endpoints')).toBe(2);
    await picker.close();
    expect(pool.listenerCount('added') + pool.listenerCount('removed')).toBe(0);
  });

  it('counts rejected and failed requests in request_error_total by code', async () => {
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    const metrics = new SchedulerMetrics();
    const none: Filter = { type: 'none', name: 'none', filter: () => [] };
    await expect(new EndpointPicker({ pool, metrics, config: createSchedulerConfig({ profiles: [{ filters: [none] }] }) }).pick(chat())).rejects.toThrow();
    expect(await valueOf(metrics.registry, 'llm_d_epp_request_error_total', { error_code: 'ResourceExhausted' })).toBe(1);
    const d = await new EndpointPicker({ pool, metrics }).pick(chat());
    d.complete({ kind: 'error', status: 503 });
    expect(await valueOf(metrics.registry, 'llm_d_epp_request_error_total', { error_code: 'ModelServerError' })).toBe(1);
  });

  it('registers into a given registry with a custom prefix, and merges with others', async () => {
    const registry = new Registry();
    const m = new SchedulerMetrics({ registry, prefix: 'sy_' });
    m.readyEndpoints.set(3);
    expect(await valueOf(registry, 'sy_ready_endpoints')).toBe(3);
    const merged = Registry.merge([registry, new SchedulerMetrics().registry]);
    expect((await merged.getMetricsAsJSON()).map((x) => x.name)).toContain('llm_d_epp_request_total');
  });

  it('samples plugin timings one cycle in pluginSampleEvery', async () => {
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    const metrics = new SchedulerMetrics({ pluginSampleEvery: 4 });
    const picker = new EndpointPicker({ pool, metrics });
    for (let i = 0; i < 8; i++) (await picker.pick(chat())).complete({ kind: 'success' });
    expect(await valueOf(metrics.registry, 'llm_d_epp_plugin_duration_seconds_count', { plugin_name: 'queue-scorer' })).toBe(2);
  });
});
