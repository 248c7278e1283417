import type { Histogram } from '../util/histogram.js';
import type { EngineModel } from './engine.js';
import { extraHistograms, processFamilies } from './metrics-full-vllm.js';

/**
 * Which engine's metric names to render.
 * @public
 * @category Engine
 */
export type MetricsFlavor = 'vllm' | 'sglang';

/**
 * Options of {@link renderMetrics}.
 * @public
 * @category Engine
 */
export interface RenderMetricsOptions {
  /** Metric names (default `vllm`). */
  readonly flavor?: MetricsFlavor;
  /** Unix time in seconds, the value of `vllm:lora_requests_info` (default engine clock seconds). */
  readonly unixSeconds?: number;
  /**
   * `full` (vLLM only) adds what a real vLLM page carries besides the modelled families: the
   * process and GC collectors first, the token-count and phase-time histograms, `cache_config_info`
   * last. About 30 KB instead of 13 KB: for measuring scrapers at a real page's cost. Default `modelled`.
   */
  readonly exposition?: 'modelled' | 'full';
}

/** Formats a number like Python's float repr does for the values we emit (`3.0`, `0.25`). */
const num = (v: number): string => (Number.isInteger(v) ? `${v}.0` : String(v));
const esc = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labelText = (labels: Readonly<Record<string, string>>): string => {
  const keys = Object.keys(labels).sort();
  return keys.length === 0 ? '' : `{${keys.map((k) => `${k}="${esc(labels[k] ?? '')}"`).join(',')}}`;
};

class Writer {
  out = '';
  family(name: string, type: string, help: string): void {
    this.out += `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;
  }
  sample(name: string, labels: Readonly<Record<string, string>>, value: number): void {
    this.out += `${name}${labelText(labels)} ${num(value)}\n`;
  }
  gauge(name: string, help: string, labels: Readonly<Record<string, string>>, value: number): void {
    this.family(name, 'gauge', help);
    this.sample(name, labels, value);
  }
  counter(name: string, help: string, labels: Readonly<Record<string, string>>, value: number): void {
    this.family(name, 'counter', help);
    this.sample(`${name}_total`, labels, value);
  }
  histogram(name: string, help: string, labels: Readonly<Record<string, string>>, h: Histogram): void {
    this.family(name, 'histogram', help);
    const cum = h.cumulative();
    h.bounds.forEach((b, i) => { this.sample(`${name}_bucket`, { ...labels, le: num(b) }, cum[i] ?? 0); });
    this.sample(`${name}_bucket`, { ...labels, le: '+Inf' }, h.count);
    this.sample(`${name}_count`, labels, h.count);
    this.sample(`${name}_sum`, labels, h.sum);
  }
}

/**
 * The engine's `/metrics` body in Prometheus text format, with exactly the names, labels and
 * semantics of vLLM v1 (or SGLang with `flavor: 'sglang'`), so a real scraper cannot tell it from
 * a pod: running/waiting gauges, `kv_cache_usage_perc` as a fraction, prefix-cache queries and
 * hits in tokens, `cache_config_info` carrying the cache geometry as labels,
 * `lora_requests_info` whose value is a Unix timestamp, and TTFT/ITL/latency histograms.
 * @public
 * @category Engine
 */
export function renderMetrics(engine: EngineModel, options: RenderMetricsOptions = {}): string {
  return options.flavor === 'sglang' ? renderSglang(engine) : renderVllm(engine, options.unixSeconds ?? engine.clock.now() / 1000, options.exposition === 'full');
}

function renderVllm(engine: EngineModel, unixSeconds: number, full: boolean): string {
  const c = engine.config;
  const s = engine.stats;
  const snap = engine.metricsSnapshot();
  const l = { engine: '0', model_name: c.modelName };
  const w = new Writer();
  if (full) w.out += processFamilies(unixSeconds - 3600);
  w.gauge('vllm:num_requests_running', 'Number of requests in model execution batches.', l, snap.running);
  w.gauge('vllm:num_requests_waiting', 'Number of requests waiting to be processed.', l, snap.waiting);
  w.gauge('vllm:kv_cache_usage_perc', 'KV-cache usage. 1 means 100 percent usage.', l, snap.kvCacheUsage);
  w.counter('vllm:prefix_cache_queries', 'Prefix cache queries, in terms of number of queried tokens.', l, s.prefixCacheQueries);
  w.counter('vllm:prefix_cache_hits', 'Prefix cache hits, in terms of number of cached tokens.', l, s.prefixCacheHits);
  w.counter('vllm:num_preemptions', 'Cumulative number of preemption from the engine.', l, s.preemptions);
  w.counter('vllm:prompt_tokens', 'Number of prefill tokens processed.', l, s.promptTokens);
  w.counter('vllm:generation_tokens', 'Number of generation tokens processed.', l, s.generationTokens);
  w.family('vllm:request_success', 'counter', 'Count of successfully processed requests.');
  w.sample('vllm:request_success_total', { ...l, finished_reason: 'abort' }, s.finishedAbort);
  w.sample('vllm:request_success_total', { ...l, finished_reason: 'length' }, s.finishedLength);
  const cacheConfig = (): void => { w.gauge('vllm:cache_config_info', 'Information of the LLMEngine CacheConfig', {
    block_size: String(c.blockSize),
    cache_dtype: 'auto',
    enable_prefix_caching: c.enablePrefixCaching ? 'True' : 'False',
    engine: '0',
    gpu_memory_utilization: '0.9',
    num_cpu_blocks: c.numCpuBlocks > 0 ? String(c.numCpuBlocks) : 'None',
    num_gpu_blocks: String(c.numGpuBlocks),
    prefix_caching_hash_algo: 'sha256',
  }, 1); };
  if (!full) cacheConfig();
  if (c.loraAdapters.length > 0) {
    w.gauge('vllm:lora_requests_info', 'Running stats on lora requests.', {
      max_lora: String(c.maxLoras),
      running_lora_adapters: snap.runningAdapters.join(','),
      waiting_lora_adapters: snap.waitingAdapters.join(','),
    }, unixSeconds);
  }
  w.histogram('vllm:time_to_first_token_seconds', 'Histogram of time to first token in seconds.', l, s.ttft);
  w.histogram('vllm:inter_token_latency_seconds', 'Histogram of inter-token latency in seconds.', l, s.itl);
  w.histogram('vllm:e2e_request_latency_seconds', 'Histogram of e2e request latency in seconds.', l, s.e2e);
  w.histogram('vllm:request_queue_time_seconds', 'Histogram of time spent in WAITING phase for request.', l, s.queueTime);
  if (full) {
    w.out += extraHistograms(labelText(l).slice(1, -1), unixSeconds - 3600);
    cacheConfig();
  }
  return w.out;
}

function renderSglang(engine: EngineModel): string {
  const c = engine.config;
  const s = engine.stats;
  const snap = engine.metricsSnapshot();
  const l = { engine_type: 'unified', model_name: c.modelName, pp_rank: '0', tp_rank: '0' };
  const w = new Writer();
  w.gauge('sglang:num_running_reqs', 'The number of running requests.', l, snap.running);
  w.gauge('sglang:num_queue_reqs', 'The number of requests in the waiting queue.', l, snap.waiting);
  w.gauge('sglang:token_usage', 'The token usage.', l, snap.kvCacheUsage);
  w.gauge('sglang:num_used_tokens', 'The number of used tokens.', l, snap.usedBlocks * c.blockSize);
  w.gauge('sglang:max_total_num_tokens', 'Maximum total number of tokens in the KV cache pool.', l, c.numGpuBlocks * c.blockSize);
  w.gauge('sglang:cache_hit_rate', 'The prefix cache hit rate.', l, s.prefixCacheQueries === 0 ? 0 : s.prefixCacheHits / s.prefixCacheQueries);
  w.gauge('sglang:cache_config_info', 'Cache configuration.', { ...l, num_pages: String(c.numGpuBlocks), page_size: String(c.blockSize) }, 1);
  w.counter('sglang:prompt_tokens', 'Number of prefill tokens processed.', l, s.promptTokens);
  w.counter('sglang:generation_tokens', 'Number of generation tokens processed.', l, s.generationTokens);
  w.counter('sglang:cached_tokens', 'Number of cached prompt tokens.', l, s.prefixCacheHits);
  w.counter('sglang:num_requests', 'Number of requests processed.', l, s.finishedLength + s.finishedAbort);
  w.counter('sglang:num_aborted_requests', 'Number of requests aborted.', l, s.finishedAbort);
  w.histogram('sglang:time_to_first_token_seconds', 'Histogram of time to first token in seconds.', l, s.ttft);
  w.histogram('sglang:inter_token_latency_seconds', 'Histogram of inter-token latency in seconds.', l, s.itl);
  w.histogram('sglang:e2e_request_latency_seconds', 'Histogram of End-to-end request latency in seconds', l, s.e2e);
  return w.out;
}
