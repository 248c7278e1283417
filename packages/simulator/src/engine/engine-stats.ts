import { Histogram } from '../util/histogram.js';

/** vLLM's `time_to_first_token_seconds` buckets. */
const TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560];
/** vLLM's `inter_token_latency_seconds` buckets. */
const ITL_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
/** vLLM's request-latency buckets (e2e, queue). */
const LATENCY_BUCKETS = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];

/**
 * Counters and histograms an engine accumulates; the metrics view renders them. Counter names
 * follow vLLM (prefix-cache queries and hits are counted in tokens).
 * @public
 * @category Engine
 */
export class EngineStats {
  /** Prompt tokens looked up in the prefix cache (on each admission to running). */
  prefixCacheQueries = 0;
  /** Of those, tokens found cached (GPU or CPU tier). */
  prefixCacheHits = 0;
  /** Prompt tokens of finished requests' first admission. */
  promptTokens = 0;
  /** Output tokens generated. */
  generationTokens = 0;
  /** Preemptions (recompute). */
  preemptions = 0;
  /** Requests that finished by reaching their length. */
  finishedLength = 0;
  /** Requests aborted. */
  finishedAbort = 0;
  /** Engine steps run. */
  steps = 0;
  /** Clock ms spent in steps. */
  busyMs = 0;
  /** Time to first token, seconds. */
  readonly ttft = new Histogram(TTFT_BUCKETS);
  /** Inter-token latency, seconds. */
  readonly itl = new Histogram(ITL_BUCKETS);
  /** End-to-end latency inside the engine, seconds. */
  readonly e2e = new Histogram(LATENCY_BUCKETS);
  /** Time spent waiting before first scheduled, seconds. */
  readonly queueTime = new Histogram(LATENCY_BUCKETS);
}
