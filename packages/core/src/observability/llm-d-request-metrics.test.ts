import { describe, expect, it } from 'vitest';
import type { Registry } from 'prom-client';
import { EndpointPicker, EndpointPool, ManualClock, SchedulerMetrics, SwitchyardError, llmdErrorCode, parseRequest } from '@switchyard/core';
import { metrics as endpointMetrics } from '../testing/index.js';

const request = (stream: boolean) =>
  parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'llama', stream, messages: [{ role: 'user', content: 'hi' }] }) });

/** count and sum of one histogram series, by label values. */
async function histogram(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<{ count: number; sum: number } | undefined> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as { value: number; labels: Record<string, unknown>; metricName?: string }[];
  const match = (v: { labels: Record<string, unknown> }): boolean => Object.entries(labels).every(([k, val]) => String(v.labels[k]) === val);
  const count = values.find((v) => v.metricName === `${name}_count` && match(v))?.value;
  const sum = values.find((v) => v.metricName === `${name}_sum` && match(v))?.value;
  return count === undefined || sum === undefined ? undefined : { count, sum };
}

async function gauge(registry: Registry, name: string): Promise<readonly { labels: Record<string, unknown>; value: number }[]> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return metric?.values ?? [];
}

function setup() {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  pool.add({ id: 'ns/pod-a-rank-0', address: '10.0.0.1:8000' });
  const metrics = new SchedulerMetrics();
  const picker = new EndpointPicker({ pool, clock, metrics, poolName: 'pool-1' });
  return { clock, pool, metrics, picker };
}

describe("llm-d's request lifecycle metrics", () => {
  it('time TTFT at the first non-empty chunk, ITL between chunks, TPOT and NTPOT at completion, for a stream', async () => {
    const { clock, metrics, picker } = setup();
    const d = await picker.pick(request(true));
    clock.advance(200);
    d.onResponseChunk?.(0); // empty chunks are not tokens
    clock.advance(100);
    d.onResponseChunk?.(40); // first chunk: TTFT 0.3 s
    clock.advance(50);
    d.onResponseChunk?.(40); // ITL 0.05 s
    clock.advance(150);
    d.onResponseChunk?.(60); // ITL 0.15 s
    d.onUsage({ promptTokens: 10, completionTokens: 5, cachedTokens: 0 });
    clock.advance(100);
    d.complete({ kind: 'success' });
    const r = metrics.registry;
    expect(await histogram(r, 'llm_d_epp_request_ttft_seconds', { streaming: 'true' })).toEqual({ count: 1, sum: 0.3 });
    expect(await histogram(r, 'llm_d_epp_request_streaming_itl_seconds')).toEqual({ count: 2, sum: 0.2 });
    // e2e 0.6 s, TTFT 0.3 s, 5 tokens: TPOT (0.6 − 0.3) / 4, NTPOT 0.6 / 5.
    expect((await histogram(r, 'llm_d_epp_request_streaming_tpot_seconds'))?.sum).toBeCloseTo(0.075, 9);
    expect((await histogram(r, 'llm_d_epp_request_ntpot_seconds'))?.sum).toBeCloseTo(0.12, 9);
    expect(await histogram(r, 'llm_d_epp_response_size_bytes')).toEqual({ count: 1, sum: 140 });
    // A reported 0 cached tokens is recorded, as llm-d does when the details object is present.
    expect(await histogram(r, 'llm_d_epp_request_cached_tokens')).toEqual({ count: 1, sum: 0 });
    expect((await histogram(r, 'llm_d_epp_request_size_bytes'))?.count).toBe(1);
    expect(await histogram(r, 'llm_d_epp_request_processing_duration_seconds')).toEqual({ count: 1, sum: 0 });
    const attempts = await gauge(r, 'llm_d_epp_scheduler_attempts_total');
    expect(attempts).toEqual([{ labels: { status: 'success', target_model_name: 'llama', endpoint_name: 'pod-a-rank-0', namespace: 'ns', port: '8000' }, value: 1 }]);
    await picker.close();
  });

  it("record the adapter's response processing time, summed, at completion and only when above 0", async () => {
    const { metrics, picker } = setup();
    const d = await picker.pick(request(true));
    d.onResponseProcessing?.(0.4);
    d.onResponseProcessing?.(0);
    d.onResponseProcessing?.(0.35);
    const r = metrics.registry;
    expect((await histogram(r, 'llm_d_epp_response_processing_duration_seconds'))?.count ?? 0).toBe(0);
    d.complete({ kind: 'success' });
    d.onResponseProcessing?.(5); // after completion: ignored
    expect((await histogram(r, 'llm_d_epp_response_processing_duration_seconds'))?.count).toBe(1);
    expect((await histogram(r, 'llm_d_epp_response_processing_duration_seconds'))?.sum).toBeCloseTo(0.00075, 12);
    // Nothing measured: nothing recorded.
    (await picker.pick(request(false))).complete({ kind: 'success' });
    expect((await histogram(r, 'llm_d_epp_response_processing_duration_seconds'))?.count).toBe(1);
    await picker.close();
  });

  it('label a unary response streaming=false and skip TPOT and ITL; skip NTPOT without completion tokens', async () => {
    const { clock, metrics, picker } = setup();
    const d = await picker.pick(request(false));
    clock.advance(500);
    d.onResponseChunk?.(10);
    clock.advance(10);
    d.onResponseChunk?.(10);
    d.complete({ kind: 'success', usage: { promptTokens: 3, completionTokens: 0 } });
    const r = metrics.registry;
    expect(await histogram(r, 'llm_d_epp_request_ttft_seconds', { streaming: 'false' })).toEqual({ count: 1, sum: 0.5 });
    expect(await histogram(r, 'llm_d_epp_request_ttft_seconds', { streaming: 'true' })).toEqual({ count: 0, sum: 0 });
    expect(await histogram(r, 'llm_d_epp_request_streaming_itl_seconds')).toEqual({ count: 0, sum: 0 });
    expect(await histogram(r, 'llm_d_epp_request_ntpot_seconds')).toEqual({ count: 0, sum: 0 });
    expect(await histogram(r, 'llm_d_epp_request_output_tokens')).toEqual({ count: 0, sum: 0 });
    await picker.close();
  });

  it("name failures with llm-d's error codes", () => {
    expect(llmdErrorCode({ upstreamStatus: 503 })).toBe('ModelServerError');
    expect(llmdErrorCode({ error: new SwitchyardError('REJECTED_SATURATED', 'x') })).toBe('ResourceExhausted');
    expect(llmdErrorCode({ error: new SwitchyardError('REJECTED_NO_ENDPOINTS', 'x') })).toBe('ServiceUnavailable');
    expect(llmdErrorCode({ error: new SwitchyardError('BAD_REQUEST', 'x') })).toBe('BadRequest');
    expect(llmdErrorCode({ error: new SwitchyardError('PRECONDITION_FAILED', 'x') })).toBe('PreconditionFailed');
    expect(llmdErrorCode({ error: new SwitchyardError('UPSTREAM_TIMEOUT', 'x') })).toBe('ModelServerError');
    expect(llmdErrorCode({ error: new Error('bug') })).toBe('Internal');
    expect(llmdErrorCode({ cancelled: true })).toBe('Canceled');
  });

  it('summarise the pool over endpoints with fresh metrics, computed at scrape time', async () => {
    const { clock, pool, metrics, picker } = setup();
    pool.add({ id: 'ns/pod-b-rank-0', address: '10.0.0.2:8000' });
    pool.add({ id: 'ns/pod-c-rank-0', address: '10.0.0.3:8000' });
    const r = metrics.registry;
    expect(await gauge(r, 'llm_d_epp_average_queue_size')).toEqual([]); // no fresh endpoint: no series
    clock.advance(10_000);
    pool.setMetrics('ns/pod-a-rank-0', endpointMetrics({ waitingQueueSize: 2, runningRequestsSize: 1, kvCacheUsagePercent: 0.2, updatedAt: clock.now() }));
    pool.setMetrics('ns/pod-b-rank-0', endpointMetrics({ waitingQueueSize: 4, runningRequestsSize: 3, kvCacheUsagePercent: 0.4, updatedAt: clock.now() }));
    // Stale (older than the 2 s threshold): left out of the summary, still in per_endpoint_queue_size.
    pool.setMetrics('ns/pod-c-rank-0', endpointMetrics({ waitingQueueSize: 100, runningRequestsSize: 100, kvCacheUsagePercent: 1, updatedAt: clock.now() - 5000 }));
    expect(await gauge(r, 'llm_d_epp_average_queue_size')).toEqual([{ labels: { name: 'pool-1' }, value: 3 }]);
    expect(await gauge(r, 'llm_d_epp_std_dev_queue_size')).toEqual([{ labels: { name: 'pool-1' }, value: 1.41 }]);
    expect(await gauge(r, 'llm_d_epp_average_running_requests')).toEqual([{ labels: { name: 'pool-1' }, value: 2 }]);
    expect(await gauge(r, 'llm_d_epp_average_kv_cache_utilization')).toEqual([{ labels: { name: 'pool-1' }, value: 0.3 }]);
    expect(await gauge(r, 'llm_d_epp_std_dev_kv_cache_utilization')).toEqual([{ labels: { name: 'pool-1' }, value: 0.14 }]);
    expect((await gauge(r, 'llm_d_epp_per_endpoint_queue_size')).map((v) => [v.labels.model_server_endpoint, v.value])).toEqual([
      ['pod-a-rank-0', 2],
      ['pod-b-rank-0', 4],
      ['pod-c-rank-0', 100],
    ]);
    await picker.close();
    expect(await gauge(r, 'llm_d_epp_average_queue_size')).toEqual([]); // detached on close
  });
});
