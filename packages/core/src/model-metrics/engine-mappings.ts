import type { EngineType } from '../endpoints/types.js';

/**
 * A metric name with optional exact label values, e.g. `nv_trt_llm_request_metrics{request_type="waiting"}`.
 * Among matching series the one with the newest timestamp wins (the first on ties), as in llm-d.
 * @public
 * @category Model-server metrics
 */
export interface MetricSelector {
  /** Sample name. */
  readonly name: string;
  /** Labels that must have exactly these values. */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * An info-style gauge whose labels carry the KV-cache geometry (e.g. `vllm:cache_config_info`).
 * @public
 * @category Model-server metrics
 */
export interface CacheInfoSelector extends MetricSelector {
  /** Label holding the block size in tokens. */
  readonly blockSizeLabel: string;
  /** Label holding the number of blocks. */
  readonly numBlocksLabel: string;
}

/**
 * Where one engine publishes the metrics Switchyard normalises into `EndpointMetrics`. Each
 * field lists candidates in preference order (the first present one is used), so renamed
 * metrics (vLLM's `gpu_cache_usage_perc` → `kv_cache_usage_perc`) keep working.
 * @public
 * @category Model-server metrics
 */
export interface EngineMetricMapping {
  /** Requests waiting in the engine queue. */
  readonly waiting: readonly MetricSelector[];
  /** Requests running. */
  readonly running: readonly MetricSelector[];
  /** KV-cache usage as a fraction. */
  readonly kvUsage: readonly MetricSelector[];
  /** LoRA info gauge (`running_lora_adapters`, `waiting_lora_adapters`, `max_lora` labels; the largest value wins). */
  readonly loraInfo: readonly MetricSelector[];
  /** Info gauges with block size / block count labels. */
  readonly cacheInfo: readonly CacheInfoSelector[];
  /** Gauges holding the block size directly (used when no cache info label gives it). */
  readonly cacheBlockSize: readonly MetricSelector[];
  /** Gauges holding the block count directly (used when no cache info label gives it). */
  readonly cacheNumBlocks: readonly MetricSelector[];
}

const triton = (label: string, value: string): MetricSelector => ({ name: label === 'request_type' ? 'nv_trt_llm_request_metrics' : 'nv_trt_llm_kv_cache_block_metrics', labels: { [label]: value } });

/**
 * Built-in mappings for the engines of `EngineType` (llm-d's defaults, plus vLLM's legacy KV
 * gauge and both SGLang cache-geometry forms).
 * @public
 * @category Model-server metrics
 */
export const ENGINE_METRIC_MAPPINGS: Readonly<Record<EngineType, EngineMetricMapping>> = {
  vllm: {
    waiting: [{ name: 'vllm:num_requests_waiting' }],
    running: [{ name: 'vllm:num_requests_running' }],
    kvUsage: [{ name: 'vllm:kv_cache_usage_perc' }, { name: 'vllm:gpu_cache_usage_perc' }],
    loraInfo: [{ name: 'vllm:lora_requests_info' }],
    cacheInfo: [{ name: 'vllm:cache_config_info', blockSizeLabel: 'block_size', numBlocksLabel: 'num_gpu_blocks' }],
    cacheBlockSize: [],
    cacheNumBlocks: [],
  },
  sglang: {
    waiting: [{ name: 'sglang:num_queue_reqs' }],
    running: [{ name: 'sglang:num_running_reqs' }],
    kvUsage: [{ name: 'sglang:token_usage' }],
    loraInfo: [],
    cacheInfo: [{ name: 'sglang:cache_config_info', blockSizeLabel: 'page_size', numBlocksLabel: 'num_pages' }],
    cacheBlockSize: [{ name: 'sglang:page_size' }],
    cacheNumBlocks: [{ name: 'sglang:num_pages' }],
  },
  'trtllm-serve': {
    waiting: [{ name: 'trtllm_num_requests_waiting' }],
    running: [{ name: 'trtllm_num_requests_running' }],
    kvUsage: [{ name: 'trtllm_kv_cache_utilization' }],
    loraInfo: [],
    cacheInfo: [],
    cacheBlockSize: [{ name: 'trtllm_kv_cache_tokens_per_block' }],
    cacheNumBlocks: [{ name: 'trtllm_kv_cache_max_blocks' }],
  },
  'triton-tensorrt-llm': {
    waiting: [triton('request_type', 'waiting')],
    running: [triton('request_type', 'scheduled')],
    kvUsage: [triton('kv_cache_block_type', 'fraction')],
    loraInfo: [],
    cacheInfo: [],
    cacheBlockSize: [triton('kv_cache_block_type', 'tokens_per')],
    cacheNumBlocks: [triton('kv_cache_block_type', 'max')],
  },
};

/**
 * Every sample name a mapping reads; pass it to the parser's `filter` to skip everything else.
 * @public
 * @category Model-server metrics
 */
export function mappingMetricNames(mapping: EngineMetricMapping): Set<string> {
  const names = new Set<string>();
  for (const list of [mapping.waiting, mapping.running, mapping.kvUsage, mapping.loraInfo, mapping.cacheInfo, mapping.cacheBlockSize, mapping.cacheNumBlocks]) {
    for (const sel of list) names.add(sel.name);
  }
  return names;
}
