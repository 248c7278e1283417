import type { Endpoint } from '../../endpoints/types.js';

/**
 * Engine timing the TTFT estimate assumes (a continuous-batching engine such as vLLM v1: each
 * step runs one decode token per running sequence first, then prefill chunks, within a token
 * budget). Only the ratios between the terms steer a pick, so rough values work.
 * @public
 * @category Built-in plugins
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
  /** Whether the rest of the running step is added to the estimate. */
  readonly stepPhase: boolean;
}

/**
 * What the estimate knows about one endpoint for one request.
 * @public
 * @category Built-in plugins
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
  /**
   * Milliseconds since this gateway last saw a first token from the endpoint (the end of one of its
   * engine steps); omitted or `Infinity` when unknown. The estimate then adds the rest of the running step (half a step when the phase is unknown).
   */
  readonly sinceStepBoundaryMs?: number;
}

/**
 * Estimated time to first token on one endpoint, in milliseconds:
 * `residual + work·msPerToken + steps·(stepBaseMs + running·msPerToken + kvTokens·msPerKvToken) + kvPressure`,
 * where `work = queued + uncached` prefill tokens must run before the first token,
 * `steps = max(1, ⌈work / (budget − running)⌉)` is how many engine steps that takes once decodes
 * have taken their share of the budget (at least an eighth of it stays for prefill, as chunked
 * prefill always progresses), and `kvPressure = kvPressureMs·(kv − threshold)/(1 − threshold)` above
 * the threshold. `residual` is the rest of the step the engine is running now (`stepPhase`):
 * a new request joins the next step, so it first waits for the current one to end.
 * @public
 * @category Built-in plugins
 */
export function estimateTtftMs(m: TtftModel, x: TtftInputs): number {
  return estimateFromParts(m, x.uncachedTokens, x.queuedTokens, x.running, x.kvUsage, x.kvTokens, x.sinceStepBoundaryMs ?? Infinity);
}

/**
 * The expected rest of the engine step a pod is running, ms, given the step's estimated length and
 * the time since this gateway last saw one of the pod's steps end (a first token). A pod with no
 * decodes and nothing queued is idle (0). Within one step length of a seen boundary the step is
 * `elapsed` old, so `stepMs − elapsed` remain; otherwise the phase is unknown and half a step is
 * expected. Why it matters: at hundreds of running sequences a step takes 100 ms or more, and
 * without this term every pod looks equally far from its next step, so picks land on pods that have
 * just started one (their pending queue has just been cleared) and wait for all of it.
 * @internal
 */
export function stepResidualMs(stepMs: number, sinceBoundaryMs: number, busy: boolean): number {
  if (!busy) return 0;
  return sinceBoundaryMs >= 0 && sinceBoundaryMs < stepMs ? stepMs - sinceBoundaryMs : stepMs / 2;
}

/**
 * The estimated length of one engine step on a pod with `running` decoding sequences holding
 * `kvTokens` KV tokens, ms (the `stepMs` of {@link estimateTtftMs}).
 * @internal
 */
export function stepMsOf(m: TtftModel, running: number, kvTokens: number): number {
  return m.stepBaseMs + Math.min(running, m.stepTokenBudget * 0.875) * m.msPerToken + kvTokens * m.msPerKvToken;
}

/**
 * {@link estimateTtftMs} on plain numbers, so the scorer's hot loop allocates nothing.
 * @internal
 */
export function estimateFromParts(m: TtftModel, uncachedTokens: number, queuedTokens: number, running: number, kvUsage: number, kvTokens: number, sinceBoundaryMs: number): number {
  const work = queuedTokens + uncachedTokens;
  const decodeShare = Math.min(running, m.stepTokenBudget * 0.875);
  const perStep = m.stepTokenBudget - decodeShare;
  const steps = Math.max(1, Math.ceil(work / perStep));
  const stepMs = m.stepBaseMs + decodeShare * m.msPerToken + kvTokens * m.msPerKvToken;
  const over = kvUsage - m.kvPressureThreshold;
  const pressure = over > 0 ? (m.kvPressureMs * over) / (1 - m.kvPressureThreshold) : 0;
  const residual = m.stepPhase ? stepResidualMs(stepMs, sinceBoundaryMs, running > 0 || queuedTokens > 0) : 0;
  return residual + work * m.msPerToken + steps * stepMs + pressure;
}

/**
 * KV tokens an endpoint holds according to its scraped metrics (usage × blocks × block size), or
 * 0 when the engine did not publish its cache size.
 * @public
 * @category Built-in plugins
 */
export function kvTokensOf(endpoint: Endpoint): number {
  const m = endpoint.metrics;
  if (m === undefined) return 0;
  return m.kvCacheUsagePercent * m.cacheNumBlocks * m.cacheBlockSize;
}
