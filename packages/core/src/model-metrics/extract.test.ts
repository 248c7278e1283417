import { describe, expect, it } from 'vitest';
import { ENGINE_METRIC_MAPPINGS, extractEndpointMetrics, missingCoreMetrics, parsePrometheusText, type EngineMetricMapping } from '@switchyard/core';
import { SGLANG_PAGE, TRITON_TRTLLM_PAGE, TRTLLM_SERVE_PAGE, VLLM_LEGACY_PAGE, vllmMetricsPage } from '../testing/index.js';

describe('extractEndpointMetrics', () => {
  it('reads a vLLM v1 page: queue, running, KV, LoRA (largest series) and cache geometry', () => {
    expect(extractEndpointMetrics('vllm', parsePrometheusText(vllmMetricsPage({ running: 3, waiting: 1, kv: 0.0421 })), 123)).toEqual({
      waitingQueueSize: 1,
      runningRequestsSize: 3,
      kvCacheUsagePercent: 0.0421,
      activeModels: ['sql-lora', 'chat-lora'],
      waitingModels: ['tweet-lora'],
      maxActiveModels: 4,
      cacheBlockSize: 16,
      cacheNumBlocks: 27000,
      updatedAt: 123,
    });
  });

  it('takes the first series when several match without timestamps (llm-d rule), the newest with them', () => {
    expect(extractEndpointMetrics('vllm', parsePrometheusText(vllmMetricsPage({ running: 3, engines: 2 })), 0).runningRequestsSize).toBe(3);
    const text = 'vllm:num_requests_running{engine="0"} 1 1000\nvllm:num_requests_running{engine="1"} 2 3000\nvllm:num_requests_running{engine="2"} 3 2000\n';
    expect(extractEndpointMetrics('vllm', parsePrometheusText(text), 0).runningRequestsSize).toBe(2);
  });

  it('falls back to the legacy vLLM KV gauge', () => {
    expect(extractEndpointMetrics('vllm', parsePrometheusText(VLLM_LEGACY_PAGE), 0)).toMatchObject({ waitingQueueSize: 5, runningRequestsSize: 2, kvCacheUsagePercent: 0.66, cacheBlockSize: 0 });
  });

  it('reads SGLang, including both cache-geometry forms', () => {
    expect(extractEndpointMetrics('sglang', parsePrometheusText(SGLANG_PAGE), 0)).toMatchObject({
      waitingQueueSize: 4,
      runningRequestsSize: 7,
      kvCacheUsagePercent: 0.37,
      cacheBlockSize: 64,
      cacheNumBlocks: 9000,
      activeModels: [],
    });
    const gauges = 'sglang:num_queue_reqs 0\nsglang:num_running_reqs 1\nsglang:token_usage 0.1\nsglang:page_size 32\nsglang:num_pages 100\n';
    expect(extractEndpointMetrics('sglang', parsePrometheusText(gauges), 0)).toMatchObject({ cacheBlockSize: 32, cacheNumBlocks: 100 });
  });

  it('reads trtllm-serve and Triton TensorRT-LLM', () => {
    expect(extractEndpointMetrics('trtllm-serve', parsePrometheusText(TRTLLM_SERVE_PAGE), 0)).toMatchObject({
      waitingQueueSize: 2,
      runningRequestsSize: 9,
      kvCacheUsagePercent: 0.81,
      cacheBlockSize: 32,
      cacheNumBlocks: 4096,
    });
    expect(extractEndpointMetrics('triton-tensorrt-llm', parsePrometheusText(TRITON_TRTLLM_PAGE), 0)).toMatchObject({
      waitingQueueSize: 3,
      runningRequestsSize: 6,
      kvCacheUsagePercent: 0.25,
      cacheBlockSize: 64,
      cacheNumBlocks: 4000,
    });
  });

  it('sanitises values and keeps previous values for absent metrics', () => {
    const previous = extractEndpointMetrics('vllm', parsePrometheusText(vllmMetricsPage()), 1);
    const partial = 'vllm:num_requests_running NaN\nvllm:num_requests_waiting -3\nvllm:kv_cache_usage_perc 1.7\n';
    expect(extractEndpointMetrics('vllm', parsePrometheusText(partial), 2, previous)).toEqual({
      ...previous,
      runningRequestsSize: 0,
      waitingQueueSize: 0,
      kvCacheUsagePercent: 1,
      updatedAt: 2,
    });
    expect(extractEndpointMetrics('vllm', [], 5)).toEqual({
      waitingQueueSize: 0,
      runningRequestsSize: 0,
      kvCacheUsagePercent: 0,
      activeModels: [],
      waitingModels: [],
      maxActiveModels: 0,
      cacheBlockSize: 0,
      cacheNumBlocks: 0,
      updatedAt: 5,
    });
  });

  it('accepts custom mappings and reports missing core metrics', () => {
    const custom: EngineMetricMapping = { ...ENGINE_METRIC_MAPPINGS.vllm, waiting: [{ name: 'my_queue', labels: { kind: 'wait' } }] };
    expect(extractEndpointMetrics(custom, parsePrometheusText('my_queue{kind="run"} 9\nmy_queue{kind="wait"} 4\n'), 0).waitingQueueSize).toBe(4);
    expect(missingCoreMetrics('sglang', parsePrometheusText(VLLM_LEGACY_PAGE))).toEqual(['sglang:num_queue_reqs', 'sglang:num_running_reqs', 'sglang:token_usage']);
    expect(missingCoreMetrics('vllm', parsePrometheusText(VLLM_LEGACY_PAGE))).toEqual([]);
  });
});
