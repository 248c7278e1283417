import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes, prefixMatchAttribute } from '../../scheduling/attributes.js';
import type { CycleContext, RequestLifecycle, Scorer, ScoreMap, SchedulingResult } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';
import { requestPromptTokens } from '../request-tokens.js';
import { PendingPrefill } from './pending-prefill.js';
import { estimateFromParts, estimateTtftMs, kvTokensOf, stepMsOf, type TtftInputs, type TtftModel } from './ttft-estimate.js';

/**
 * Registry type of the estimated-TTFT scorer. @public
 * @category Built-in plugins
 */
export const ESTIMATED_TTFT_SCORER = 'estimated-ttft-scorer';

/**
 * Parameters of `estimated-ttft-scorer`. Defaults describe a vLLM v1 engine serving an 8B model on
 * one H100 (the simulator's `8b-h100` calibration); only ratios steer picks, so they also work for
 * larger models, where every term grows about alike.
 * @public
 * @category Built-in plugins
 */
export const estimatedTtftScorerParameters = z.strictObject({
  /** Compute per scheduled token, ms (default 0.025: ≈40K prefill tokens/s). */
  msPerToken: z.number().positive().default(0.025),
  /** Fixed cost of every engine step, ms (default 7: launch overhead plus reading the weights once). */
  stepBaseMs: z.number().min(0).default(7),
  /** Cost per step of each KV token the running sequences attend to, ms (default 0.00006). */
  msPerKvToken: z.number().min(0).default(0.00006),
  /** Tokens one engine step schedules, vLLM's `max_num_batched_tokens` (default 8192). */
  stepTokenBudget: z.number().int().positive().default(8192),
  /** KV usage from which new requests risk waiting for free blocks (default 0.9). */
  kvPressureThreshold: z.number().gt(0).lt(1).default(0.9),
  /** Penalty at 100% KV usage, ms, linear from the threshold (default 2000: about a queued long prompt). */
  kvPressureMs: z.number().min(0).default(2000),
  /** Estimates are rounded up to this many ms, so near-equal pods tie and the picker chooses among them at random (default 2). */
  tieResolutionMs: z.number().min(0).default(2),
  /**
   * Add the expected rest of each pod's current engine step, timed from the last first token this
   * gateway saw from it (default false until the routing matrix confirms it; docs/scheduling.md).
   * Off, every pod is assumed to start a step the moment the request arrives.
   */
  stepPhase: z.boolean().default(false),
  /**
   * Pods whose estimate is within this many ms of the best count as equally fast, and the one this
   * scorer picked least recently among them gets the top score, so traffic the estimate cannot
   * separate is spaced like round-robin instead of drawn at random (default 0: off).
   */
  spreadMarginMs: z.number().min(0).default(0),
  /**
   * The same near-tie margin in engine steps of the fastest pod (its estimated step length): a new
   * request joins the step after the one running now, and the gateway does not know how far that
   * step has come, so estimates closer than a step are not really different (default 0: off).
   */
  spreadSteps: z.number().min(0).default(0),
  /**
   * Time to load a LoRA adapter the pod does not hold, ms (default 0: off). Added on pods that
   * report adapter slots (`maxActiveModels` > 0) and do not list the request's model as active:
   * half of it while the adapter is loading there (waiting), all of it with a free slot, twice it
   * when every slot is taken (the load first waits for an adapter to go idle).
   */
  loraLoadMs: z.number().min(0).default(0),
  /** Read the match info of this producer instead of the shared `prefix-match-info` attribute. */
  prefixMatchInfoProducerName: z.string().optional(),
});

/**
 * Parsed parameters of `estimated-ttft-scorer`.
 * @public
 * @category Built-in plugins
 */
export type EstimatedTtftScorerParams = z.output<typeof estimatedTtftScorerParameters>;

/**
 * One endpoint's estimate as the decision trace shows it (`details` of the scorer's trace entry).
 * @public
 * @category Built-in plugins
 */
export interface TtftEstimateDetail extends TtftInputs {
  /** The estimated TTFT, ms, after rounding to `tieResolutionMs`. */
  readonly estimateMs: number;
}

/** The score of the other near-ties when one is chosen by recency: below 1, above every real ratio that matters. */
const NEAR_ONE = 1 - 1e-9;

/** EWMA weight of the prompt size a scraped waiting request is assumed to have. */
const PROMPT_EWMA = 0.05;

/**
 * The `estimated-ttft-scorer` instance: a scorer with lifecycle hooks that keep its pending-prefill
 * counts, and `estimate` for the decision trace.
 * @public
 * @category Built-in plugins
 */
export interface EstimatedTtftScorer extends Scorer, RequestLifecycle {
  /** Per-endpoint inputs and estimates for `request` at clock time `now` (what the trace shows). */
  estimate(request: SchedulingRequest, endpoints: readonly Endpoint[], now: number): TtftEstimateDetail[];
}

/**
 * Creates an `estimated-ttft-scorer`. Per candidate it estimates the request's TTFT (see
 * {@link estimateTtftMs}) from the uncached prompt tokens (prefix match info), the prefill tokens
 * queued ahead (its own pending picks, or scraped waiting × a running mean prompt size, whichever is
 * larger, so the two views of one queue are not added), the decoding sequences (scraped running or
 * in-flight requests, whichever is larger) and KV pressure. The score is `(best + c)/(estimate + c)`
 * with `c = stepBaseMs + tieResolutionMs`: 1 for the fastest pod, falling smoothly with the ratio.
 * Cache affinity is therefore a saving of prefill time that yields as soon as the warm pod's queue
 * costs more than the saving.
 * @public
 * @category Built-in plugins
 */
export function createEstimatedTtftScorer(name: string, params: Partial<EstimatedTtftScorerParams> = {}): EstimatedTtftScorer {
  const p = estimatedTtftScorerParameters.parse(params);
  const model: TtftModel = p;
  const matchKey = prefixMatchAttribute(p.prefixMatchInfoProducerName);
  const pending = new PendingPrefill();
  // Clock time of the last first token seen per endpoint: the end of one of its engine steps.
  const lastStepEnd = new Map<string, number>();
  const sinceStepEnd = (endpointId: string, now: number): number => {
    const at = lastStepEnd.get(endpointId);
    return at === undefined ? Infinity : now - at;
  };
  let meanPrompt = 0;
  // Near-tie spreading: the sequence number of this scorer's last pick of each endpoint.
  const lastPicked = new Map<string, number>();
  let picks = 0;
  const margin = p.spreadMarginMs;
  const spreadSteps = p.spreadSteps;
  const spreading = margin > 0 || spreadSteps > 0;

  const uncachedOn = (request: SchedulingRequest, endpoint: Endpoint, prompt: number): number => {
    const match = request.attributes.get(matchKey)?.get(endpoint.id);
    const hit = match === undefined ? 0 : match.cachedBlocks * match.blockSizeTokens;
    return Math.max(0, prompt - hit);
  };

  const loraMs = p.loraLoadMs;
  const adapterMs = (e: Endpoint, model: string): number => {
    const m = e.metrics;
    if (m === undefined || m.maxActiveModels <= 0 || m.activeModels.includes(model)) return 0;
    if (m.waitingModels.includes(model)) return loraMs / 2;
    return m.activeModels.length + m.waitingModels.length < m.maxActiveModels ? loraMs : 2 * loraMs;
  };

  const inputsOf = (request: SchedulingRequest, endpoint: Endpoint, prompt: number, now: number): TtftInputs => {
    const load = request.attributes.get(Attributes.inFlightLoad);
    const m = endpoint.metrics;
    const inFlight = load === undefined ? endpoint.inFlightRequests : load.requests(endpoint);
    const waiting = m === undefined ? 0 : m.waitingQueueSize;
    const typical = meanPrompt > 0 ? meanPrompt : prompt;
    return {
      uncachedTokens: uncachedOn(request, endpoint, prompt),
      queuedTokens: Math.max(pending.tokens(endpoint.id), waiting * typical),
      running: Math.max(m === undefined ? 0 : m.runningRequestsSize, inFlight),
      kvUsage: m === undefined ? 0 : m.kvCacheUsagePercent,
      kvTokens: kvTokensOf(endpoint),
      sinceStepBoundaryMs: sinceStepEnd(endpoint.id, now),
    };
  };

  const rounded = (ms: number): number => (p.tieResolutionMs > 0 ? Math.ceil(ms / p.tieResolutionMs) * p.tieResolutionMs : ms);
  const c = p.stepBaseMs + p.tieResolutionMs;
  // Skips the per-endpoint map lookup in the hot loop when the phase term is off.
  const phase = p.stepPhase;

  // The hot path: the same inputs as inputsOf, read into locals (no per-endpoint objects).
  const scoreInto = (ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], out: Float64Array): void => {
    const now = ctx.clock.now();
    const prompt = requestPromptTokens(request);
    const matches = request.attributes.get(matchKey);
    const load = request.attributes.get(Attributes.inFlightLoad);
    const typical = meanPrompt > 0 ? meanPrompt : prompt;
    let best = Infinity;
    let bestStepMs = 0;
    for (let i = 0; i < endpoints.length; i++) {
      const e = endpoints[i] as Endpoint;
      const m = e.metrics;
      const match = matches?.get(e.id);
      const uncached = match === undefined ? prompt : Math.max(0, prompt - match.cachedBlocks * match.blockSizeTokens);
      const inFlight = load === undefined ? e.inFlightRequests : load.requests(e);
      const queued = Math.max(pending.tokens(e.id), m === undefined ? 0 : m.waitingQueueSize * typical);
      const running = Math.max(m === undefined ? 0 : m.runningRequestsSize, inFlight);
      const lora = loraMs > 0 ? adapterMs(e, request.targetModel) : 0;
      const est = rounded(estimateFromParts(model, uncached, queued, running, m === undefined ? 0 : m.kvCacheUsagePercent, kvTokensOf(e), phase ? sinceStepEnd(e.id, now) : Infinity) + lora);
      out[i] = est;
      if (est < best) {
        best = est;
        if (spreadSteps > 0) bestStepMs = stepMsOf(model, running, kvTokensOf(e));
      }
    }
    let chosen = -1;
    if (spreading) {
      // Among the near-ties, the endpoint picked longest ago (never picked counts as oldest).
      let oldest = Infinity;
      const limit = best + Math.max(margin, spreadSteps * bestStepMs);
      for (let i = 0; i < endpoints.length; i++) {
        if ((out[i] as number) > limit) continue;
        const at = lastPicked.get((endpoints[i] as Endpoint).id) ?? -1;
        if (at < oldest) { oldest = at; chosen = i; }
      }
    }
    for (let i = 0; i < endpoints.length; i++) out[i] = (best + c) / ((out[i] as number) + c);
    if (chosen >= 0) {
      // Just below 1 for everyone else, so the spread choice wins but the order of the rest stays.
      for (let i = 0; i < endpoints.length; i++) if ((out[i] as number) >= NEAR_ONE) out[i] = NEAR_ONE;
      out[chosen] = 1;
    }
  };

  const estimate = (request: SchedulingRequest, endpoints: readonly Endpoint[], now: number): TtftEstimateDetail[] => {
    const prompt = requestPromptTokens(request);
    return endpoints.map((e) => {
      const x = inputsOf(request, e, prompt, now);
      return { ...x, estimateMs: rounded(estimateTtftMs(model, x) + (loraMs > 0 ? adapterMs(e, request.targetModel) : 0)) };
    });
  };

  return {
    type: ESTIMATED_TTFT_SCORER,
    name,
    consumes: [Attributes.inFlightLoad.name],
    scoreInto,
    score(ctx, request, endpoints): ScoreMap {
      const out = new Float64Array(endpoints.length);
      scoreInto(ctx, request, endpoints, out);
      return new Map(endpoints.map((e, i) => [e.id, out[i] ?? 0]));
    },
    estimate,
    explain: (ctx, request, endpoints) => estimate(request, endpoints, ctx.clock.now()),
    preRequest(_ctx, request, result: SchedulingResult) {
      const primary = result.profileResults.get(result.primaryProfileName)?.targets[0];
      if (primary === undefined) return;
      const tokens = uncachedOn(request, primary, requestPromptTokens(request));
      meanPrompt = meanPrompt === 0 ? tokens : meanPrompt + PROMPT_EWMA * (tokens - meanPrompt);
      pending.add(request, primary.id, tokens);
      if (spreading) lastPicked.set(primary.id, ++picks);
    },
    onResponseStart(request, info) {
      pending.settle(request);
      lastStepEnd.set(info.endpoint.id, info.at);
    },
    onComplete(request) {
      pending.settle(request);
    },
  };
}

/**
 * `estimated-ttft-scorer`: prefers the endpoint with the lowest estimated time to first token
 * (queueing + uncached prefill + decode load + KV pressure). See {@link createEstimatedTtftScorer}.
 * @public
 * @category Built-in plugins
 */
export const estimatedTtftScorerPlugin = definePlugin({
  type: ESTIMATED_TTFT_SCORER,
  description: 'Estimated TTFT per endpoint: queued + uncached prefill tokens, decode load and KV pressure, from scraped metrics, in-flight counts and prefix matches.',
  consumes: [Attributes.inFlightLoad.name],
  parameters: estimatedTtftScorerParameters,
  create: (p, ctx) => createEstimatedTtftScorer(ctx.name, p),
});
