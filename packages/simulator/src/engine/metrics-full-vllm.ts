/*
 * The families a real vLLM v1 pod serves besides the ones the simulator models: prometheus_client's
 * process and GC collectors (first on the page) and the token-count and phase-time histograms.
 * With them a page has the size and line count of a real one (≈30 KB for one engine), which is
 * what a scraper's cost depends on. Their values are zeros or constants: nothing reads them.
 */

const PROMPT_TOKEN_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 131072];
const PARAM_N_BUCKETS = [1, 2, 5, 10, 20];
const ITERATION_BUCKETS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];
const PHASE_BUCKETS = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];
const TPOT_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];

const num = (v: number): string => (Number.isInteger(v) ? `${v}.0` : String(v));

/** prometheus_client's default collectors, as they open every vLLM page. */
export function processFamilies(startSeconds: number): string {
  let out = '';
  for (const [name, help] of [['python_gc_objects_collected', 'Objects collected during gc'], ['python_gc_objects_uncollectable', 'Uncollectable objects found during GC'], ['python_gc_collections', 'Number of times this generation was collected']]) {
    out += `# HELP ${name}_total ${help}\n# TYPE ${name}_total counter\n`;
    for (const g of [0, 1, 2]) out += `${name}_total{generation="${g}"} ${num(1000 * (3 - g))}\n`;
  }
  out += '# HELP python_info Python platform information\n# TYPE python_info gauge\npython_info{implementation="CPython",major="3",minor="12",patchlevel="11",version="3.12.11"} 1.0\n';
  for (const [name, help, value] of [
    ['process_virtual_memory_bytes', 'Virtual memory size in bytes.', 9.8e10],
    ['process_resident_memory_bytes', 'Resident memory size in bytes.', 4.2e9],
    ['process_start_time_seconds', 'Start time of the process since unix epoch in seconds.', startSeconds],
    ['process_open_fds', 'Number of open file descriptors.', 182],
    ['process_max_fds', 'Maximum number of open file descriptors.', 1048576],
  ] as const) out += `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${name} ${String(value)}\n`;
  out += '# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1234.56\n';
  return out;
}

/** The histograms the simulator does not model, with `labels` (already rendered, `{...}` inner text). */
export function extraHistograms(labels: string, createdSeconds: number): string {
  let out = '';
  const histogram = (name: string, help: string, bounds: readonly number[]): void => {
    out += `# HELP ${name} ${help}\n# TYPE ${name} histogram\n`;
    for (const b of bounds) out += `${name}_bucket{${labels},le="${num(b)}"} 0.0\n`;
    out += `${name}_bucket{${labels},le="+Inf"} 0.0\n${name}_count{${labels}} 0.0\n${name}_sum{${labels}} 0.0\n`;
    out += `# HELP ${name}_created ${help}\n# TYPE ${name}_created gauge\n${name}_created{${labels}} ${String(createdSeconds)}\n`;
  };
  histogram('vllm:iteration_tokens_total', 'Histogram of number of tokens per engine_step.', ITERATION_BUCKETS);
  histogram('vllm:request_prompt_tokens', 'Number of prefill tokens processed.', PROMPT_TOKEN_BUCKETS);
  histogram('vllm:request_generation_tokens', 'Number of generation tokens processed.', PROMPT_TOKEN_BUCKETS);
  histogram('vllm:request_max_num_generation_tokens', 'Histogram of maximum number of requested generation tokens.', PROMPT_TOKEN_BUCKETS);
  histogram('vllm:request_params_n', 'Histogram of the n request parameter.', PARAM_N_BUCKETS);
  histogram('vllm:request_params_max_tokens', 'Histogram of the max_tokens request parameter.', PROMPT_TOKEN_BUCKETS);
  histogram('vllm:time_per_output_token_seconds', 'Histogram of time per output token in seconds.', TPOT_BUCKETS);
  histogram('vllm:request_inference_time_seconds', 'Histogram of time spent in RUNNING phase for request.', PHASE_BUCKETS);
  histogram('vllm:request_prefill_time_seconds', 'Histogram of time spent in PREFILL phase for request.', PHASE_BUCKETS);
  histogram('vllm:request_decode_time_seconds', 'Histogram of time spent in DECODE phase for request.', PHASE_BUCKETS);
  return out;
}
