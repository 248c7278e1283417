import type { Endpoint } from '../../endpoints/types.js';

/**
 * Engine timing the TTFT estimate assumes (a continuous-batching engine such as vLLM v1: each
 * step runs one decode token per running sequence first, then prefill chunks, within a token
 * budget). Only the ratios between the terms steer a pick, so rough values work.
 * @public
 */
export interface TtftModel {
  /** Milliseconds of compute per token in a step (prefill or decode token alike). */
  readonly msPerToken: number;
  /** Fixed milliseconds every engine step costs (launch overhead, streaming the weights). */
  readonly stepBaseMs: number;
  /** Milliseconds per step for every KV token the running sequences attend to. */
  readonly msPerKvToken: number;
  /** Tokens one step may schedule (`max_num_batched_tokens`). */
  readonly stepTokenBudget: number;
  /** KV usage above which new requests risk waiting for blocks. */
  readonly kvPressureThreshold: number;
  /** Milliseconds added at 100% KV usage (linear from the threshold). */
  readonly kvPressureMs: number;
}

/**
 * What the estimate knows about one endpoint for one request.
 * @public
 */
export interface TtftInputs {
  /** Prompt tokens of this request the endpoint would have to prefill (after its cached prefix). */
  readonly uncachedTokens: number;
  /** Prefill tokens queued ahead of it: this gateway's dispatched-but-not-started requests plus scraped waiting ones. */
  readonly queuedTokens: number;
  /** Sequences decoding there (the larger of scraped running and in-flight requests). */
  readonly running: number;
  /** KV-cache usage fraction in [0, 1]. */
  readonly kvUsage: number;
  /** KV tokens held (usage × cache size), 0 when the cache size is unknown. */
  readonly kvTokens: number;
}

/**
 * Estimated time to first token on one endpoint, in milliseconds:
 * `work·msPerToken + steps·(stepBaseMs + running·msPerToken + kvTokens·msPerKvToken) + kvPressure`,
 * where `work = queued + uncached` prefill tokens must run before the first token,
 * `steps = max(1, ⌈work / (budget − running)⌉)` is how many engine steps that takes once decodes
 * have taken their share of the budget (at least an eighth of it stays for prefill, as chunked
 * prefill always progresses), and `kvPressure = kvPressureMs·(kv − threshold)/(1 − threshold)` above
 * the threshold.
 * @public
 */
export function estimateTtftMs(m: TtftModel, x: TtftInputs): number {
  return estimateFromParts(m, x.uncachedTokens, x.queuedTokens, x.running, x.kvUsage, x.kvTokens);
}

/**
 * {@link estimateTtftMs} on plain numbers, so the scorer's hot loop allocates nothing.
 * @internal
 */
export function estimateFromParts(m: TtftModel, uncachedTokens: number, queuedTokens: number, running: number, kvUsage: number, kvTokens: number): number {
  const work = queuedTokens + uncachedTokens;
  const decodeShare = Math.min(running, m.stepTokenBudget * 0.875);
  const perStep = m.stepTokenBudget - decodeShare;
  const steps = Math.max(1, Math.ceil(work / perStep));
  const stepMs = m.stepBaseMs + decodeShare * m.msPerToken + kvTokens * m.msPerKvToken;
  const over = kvUsage - m.kvPressureThreshold;
  const pressure = over > 0 ? (m.kvPressureMs * over) / (1 - m.kvPressureThreshold) : 0;
  return work * m.msPerToken + steps * stepMs + pressure;
}

/**
 * KV tokens an endpoint holds according to its scraped metrics (usage × blocks × block size), or
 * 0 when the engine did not publish its cache size.
 * @public
 */
export function kvTokensOf(endpoint: Endpoint): number {
  const m = endpoint.metrics;
  if (m === undefined) return 0;
  return m.kvCacheUsagePercent * m.cacheNumBlocks * m.cacheBlockSize;
}
