import { Attributes, type Clock, type EndpointPool, type Plugin, type SaturationDetector, type SchedulingRequest } from '@switchyard/core';
import type { FlowControlMetrics, FlowControlMetricsOptions } from '../metrics/flow-metrics.js';
import type { UsageLimitPolicy } from '../policies/types.js';

/**
 * Options of {@link createFlowController}.
 * @public
 * @category Controller
 */
export interface FlowControllerOptions {
  /** The endpoints requests are admitted to (saturation, empty-pool handling, wake-ups on metrics). */
  readonly pool: EndpointPool;
  /** Time source (default: the system clock; a `ManualClock` in tests and simulations). */
  readonly clock?: Clock;
  /** The config's raw `flowControl` block, in llm-d syntax (see `parseFlowControlConfig`). */
  readonly config?: unknown;
  /** The config's plugin instances by name, to resolve the block's references. */
  readonly plugins?: ReadonlyMap<string, Plugin>;
  /** Overrides the block's saturation detector. */
  readonly detector?: SaturationDetector;
  /** Overrides the block's usage limit policy. */
  readonly usageLimitPolicy?: UsageLimitPolicy;
  /**
   * Estimated tokens of a request (the cost unit of token fairness and of pending token load).
   * Default: the `prompt-token-count` attribute when present, else body bytes / 4, plus the
   * requested max output tokens.
   */
  readonly estimateTokens?: (request: SchedulingRequest) => number;
  /** Metrics: an instance to record on, options for a new one, or `false` for none. */
  readonly metrics?: FlowControlMetrics | FlowControlMetricsOptions | false;
}

/**
 * Per-call options of {@link FlowController.admit} (a superset of core's admission options).
 * @public
 * @category Controller
 */
export interface AdmitOptions {
  /** Aborting while queued rejects with `REJECTED_CONTEXT_CANCELLED` and frees the slot at once. */
  readonly signal?: AbortSignal;
  /** Queue TTL of this request in ms, overriding the band's and the default (0 = none). */
  readonly ttlMs?: number;
  /** Absolute clock time (ms) after which the caller no longer wants the request; shortens the TTL. */
  readonly deadline?: number;
}

/** Default token estimate: prompt tokens when a producer already counted them, else bytes / 4; plus max output. */
export function defaultEstimate(r: SchedulingRequest): number {
  const prompt = r.attributes.get(Attributes.promptTokenCount) ?? Math.ceil(r.request.byteSize / 4);
  return prompt + (r.request.maxOutputTokens ?? 0);
}
