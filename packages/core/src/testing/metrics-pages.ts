/**
 * Realistic `/metrics` pages for tests and benchmarks (shapes of vLLM v1, legacy vLLM, SGLang,
 * trtllm-serve and Triton TensorRT-LLM; values illustrative), for testing scrapers and engine
 * mappings.
 */

const TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560];
const LATENCY_BUCKETS = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];

function histogram(name: string, help: string, labels: string, buckets: readonly number[], seed: number): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} histogram`];
  let cum = 0;
  for (const [i, le] of buckets.entries()) {
    cum += (seed * (i + 3)) % 17;
    lines.push(`${name}_bucket{${labels},le="${String(le)}"} ${cum.toFixed(1)}`);
  }
  lines.push(`${name}_bucket{${labels},le="+Inf"} ${cum.toFixed(1)}`, `${name}_count{${labels}} ${cum.toFixed(1)}`, `${name}_sum{${labels}} ${(cum * 0.37).toFixed(6)}`);
  return lines.join('\n');
}

const PROCESS = `# HELP python_gc_objects_collected_total Objects collected during gc
# TYPE python_gc_objects_collected_total counter
python_gc_objects_collected_total{generation="0"} 12873.0
python_gc_objects_collected_total{generation="1"} 3361.0
python_gc_objects_collected_total{generation="2"} 419.0
# HELP process_resident_memory_bytes Resident memory size in bytes.
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 2.147483648e+09
# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.
# TYPE process_start_time_seconds gauge
process_start_time_seconds 1.73955572e+09`;

/**
 * Builds a vLLM v1 page for `engines` DP ranks.
 * @public
 */
export function vllmMetricsPage(opts: { running?: number; waiting?: number; kv?: number; engines?: number } = {}): string {
  const engines = opts.engines ?? 1;
  const parts: string[] = [PROCESS];
  const gauge = (name: string, help: string, value: (e: number) => number): void => {
    parts.push(`# HELP ${name} ${help}\n# TYPE ${name} gauge`);
    for (let e = 0; e < engines; e++) parts.push(`${name}{engine="${e}",model_name="meta-llama/Llama-3.1-8B-Instruct"} ${value(e).toFixed(4)}`);
  };
  gauge('vllm:num_requests_running', 'Number of requests in model execution batches.', (e) => (opts.running ?? 3) + e);
  gauge('vllm:num_requests_waiting', 'Number of requests waiting to be processed.', (e) => (opts.waiting ?? 1) + e);
  gauge('vllm:kv_cache_usage_perc', 'KV-cache usage. 1 means 100 percent usage.', () => opts.kv ?? 0.0421);
  parts.push(`# HELP vllm:lora_requests_info Running stats on lora requests.
# TYPE vllm:lora_requests_info gauge
vllm:lora_requests_info{max_lora="4",running_lora_adapters="sql-lora",waiting_lora_adapters=""} 1.7395575693949368e+09
vllm:lora_requests_info{max_lora="4",running_lora_adapters="sql-lora,chat-lora",waiting_lora_adapters="tweet-lora"} 1.7395575723949368e+09
vllm:lora_requests_info{max_lora="4",running_lora_adapters="",waiting_lora_adapters=""} 1.7395575603949368e+09`);
  parts.push(`# HELP vllm:cache_config_info Information of the LLMEngine CacheConfig
# TYPE vllm:cache_config_info gauge
vllm:cache_config_info{block_size="16",cache_dtype="auto",calculate_kv_scales="False",cpu_offload_gb="0",enable_prefix_caching="True",engine="0",gpu_memory_utilization="0.9",is_attention_free="False",num_cpu_blocks="None",num_gpu_blocks="27000",num_gpu_blocks_override="None",prefix_caching_hash_algo="sha256_cbor",sliding_window="None",swap_space="4",swap_space_bytes="4294967296"} 1.0`);
  for (let e = 0; e < engines; e++) {
    const labels = `engine="${e}",model_name="meta-llama/Llama-3.1-8B-Instruct"`;
    parts.push(`# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.
# TYPE vllm:prefix_cache_queries_total counter
vllm:prefix_cache_queries_total{${labels}} 1.2288e+05
# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.
# TYPE vllm:prefix_cache_hits_total counter
vllm:prefix_cache_hits_total{${labels}} 8192.0
# HELP vllm:request_success_total Count of successfully processed requests.
# TYPE vllm:request_success_total counter
vllm:request_success_total{${labels},finished_reason="stop"} 118.0
vllm:request_success_total{${labels},finished_reason="length"} 7.0
vllm:request_success_total{${labels},finished_reason="abort"} 2.0`);
    parts.push(histogram('vllm:time_to_first_token_seconds', 'Histogram of time to first token in seconds.', labels, TTFT_BUCKETS, 3 + e));
    parts.push(histogram('vllm:inter_token_latency_seconds', 'Histogram of inter-token latency in seconds.', labels, TTFT_BUCKETS, 5 + e));
    for (const h of ['e2e_request_latency_seconds', 'request_queue_time_seconds', 'request_prefill_time_seconds', 'request_decode_time_seconds', 'request_inference_time_seconds']) {
      parts.push(histogram(`vllm:${h}`, `Histogram of ${h.replace(/_/g, ' ')}.`, labels, LATENCY_BUCKETS, 7 + e));
    }
  }
  return `${parts.join('\n')}\n`;
}

/**
 * A vLLM ≤0.11 page: `gpu_cache_usage_perc`, no `engine` label.
 * @public
 */
export const VLLM_LEGACY_PAGE = `# HELP vllm:num_requests_running Number of requests currently running on GPU.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{model_name="m"} 2.0
# HELP vllm:num_requests_waiting Number of requests waiting to be processed.
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{model_name="m"} 5.0
# HELP vllm:gpu_cache_usage_perc GPU KV-cache usage. 1 means 100 percent usage.
# TYPE vllm:gpu_cache_usage_perc gauge
vllm:gpu_cache_usage_perc{model_name="m"} 0.66
`;

/**
 * An SGLang page (`--enable-metrics`).
 * @public
 */
export const SGLANG_PAGE = `# HELP sglang:num_running_reqs The number of running requests.
# TYPE sglang:num_running_reqs gauge
sglang:num_running_reqs{engine_type="unified",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 7.0
# HELP sglang:num_used_tokens The number of used tokens.
# TYPE sglang:num_used_tokens gauge
sglang:num_used_tokens{engine_type="unified",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 51234.0
# HELP sglang:token_usage The token usage.
# TYPE sglang:token_usage gauge
sglang:token_usage{engine_type="unified",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 0.37
# HELP sglang:num_queue_reqs The number of requests in the waiting queue.
# TYPE sglang:num_queue_reqs gauge
sglang:num_queue_reqs{engine_type="unified",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 4.0
# HELP sglang:cache_hit_rate The prefix cache hit rate.
# TYPE sglang:cache_hit_rate gauge
sglang:cache_hit_rate{engine_type="unified",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 0.52
# HELP sglang:cache_config_info Cache configuration.
# TYPE sglang:cache_config_info gauge
sglang:cache_config_info{model_name="Qwen/Qwen3-32B",num_pages="9000",page_size="64"} 1.0
# HELP sglang:prompt_tokens_total Number of prefill tokens processed.
# TYPE sglang:prompt_tokens_total counter
sglang:prompt_tokens_total{engine_type="unified",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 9.87654e+06
# HELP sglang:time_to_first_token_seconds Histogram of time to first token in seconds.
# TYPE sglang:time_to_first_token_seconds histogram
sglang:time_to_first_token_seconds_bucket{engine_type="unified",le="0.1",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 12.0
sglang:time_to_first_token_seconds_bucket{engine_type="unified",le="+Inf",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 40.0
sglang:time_to_first_token_seconds_sum{engine_type="unified",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 17.5
sglang:time_to_first_token_seconds_count{engine_type="unified",model_name="Qwen/Qwen3-32B",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 40.0
`;

/**
 * A trtllm-serve page.
 * @public
 */
export const TRTLLM_SERVE_PAGE = `# TYPE trtllm_num_requests_waiting gauge
trtllm_num_requests_waiting{model_name="llama"} 2
# TYPE trtllm_num_requests_running gauge
trtllm_num_requests_running{model_name="llama"} 9
# TYPE trtllm_kv_cache_utilization gauge
trtllm_kv_cache_utilization{model_name="llama"} 0.81
# TYPE trtllm_kv_cache_tokens_per_block gauge
trtllm_kv_cache_tokens_per_block{model_name="llama"} 32
# TYPE trtllm_kv_cache_max_blocks gauge
trtllm_kv_cache_max_blocks{model_name="llama"} 4096
`;

/**
 * A Triton (TensorRT-LLM backend) page.
 * @public
 */
export const TRITON_TRTLLM_PAGE = `# HELP nv_trt_llm_request_metrics TRT LLM request metrics
# TYPE nv_trt_llm_request_metrics gauge
nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="context",version="1"} 1
nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="scheduled",version="1"} 6
nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="max",version="1"} 64
nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="active",version="1"} 6
nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="waiting",version="1"} 3
# HELP nv_trt_llm_kv_cache_block_metrics TRT LLM KV cache block metrics
# TYPE nv_trt_llm_kv_cache_block_metrics gauge
nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="tokens_per",model="tensorrt_llm",version="1"} 64
nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="used",model="tensorrt_llm",version="1"} 1000
nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="free",model="tensorrt_llm",version="1"} 3000
nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max",model="tensorrt_llm",version="1"} 4000
nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="fraction",model="tensorrt_llm",version="1"} 0.25
`;
