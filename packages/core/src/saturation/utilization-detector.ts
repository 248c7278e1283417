import { z } from 'zod';
import { systemClock, type Clock } from '../clock/clock.js';
import type { Endpoint } from '../endpoints/types.js';
import type { CycleContext, Filter } from '../scheduling/plugins.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import { parseParams, positiveDurationMs } from './params.js';
import type { PendingLoad, SaturationDetector } from './types.js';

/**
 * Registry type of the utilization detector. @public
 * @category Saturation detectors
 */
export const UTILIZATION_DETECTOR_TYPE = 'utilization-detector';

const utilizationShape = z.strictObject({
  /** Waiting requests per endpoint that count as full (default 5). */
  queueDepthThreshold: z.number().int().positive().default(5),
  /** KV-cache usage fraction per endpoint that counts as full (default 0.8). */
  kvCacheUtilThreshold: z.number().gt(0).lte(1).default(0.8),
  /** Metrics older than this count as saturated: duration string or ms (default 200ms). */
  metricsStalenessThreshold: positiveDurationMs.default(200),
  /** Burst allowance of the filter above the thresholds, as a fraction (default 0). */
  headroom: z.number().min(0).default(0),
  /** Switchyard extension: cap on each endpoint's share of the pool average (absent: uncapped, llm-d). */
  endpointSaturationCap: z.number().gt(0).optional(),
});

/**
 * Input (config-shaped) parameters of `utilization-detector`, with llm-d's names.
 * @public
 * @category Saturation detectors
 */
export interface UtilizationDetectorInput {
  /** Waiting requests per endpoint that count as full (default 5). */
  readonly queueDepthThreshold?: number | undefined;
  /** KV-cache usage fraction per endpoint that counts as full (default 0.8). */
  readonly kvCacheUtilThreshold?: number | undefined;
  /** Metrics older than this count as saturated: duration string (`"200ms"`) or ms (default 200ms). */
  readonly metricsStalenessThreshold?: string | number | undefined;
  /** Burst allowance of the filter above the thresholds, as a fraction (default 0). */
  readonly headroom?: number | undefined;
  /**
   * Switchyard extension, not in llm-d: each endpoint's saturation is capped at this value before
   * the pool average, so one backed-up pod (28 waiting is 5.6 with Q 5) cannot count as several
   * saturated pods while the others idle. `1` makes the average the share of full endpoints.
   * Absent: uncapped, llm-d's semantics.
   */
  readonly endpointSaturationCap?: number | undefined;
}

/**
 * Validated parameters of `utilization-detector`.
 * @public
 * @category Saturation detectors
 */
export interface UtilizationDetectorParams {
  /** Waiting requests per endpoint that count as full. */
  readonly queueDepthThreshold: number;
  /** KV-cache usage fraction per endpoint that counts as full. */
  readonly kvCacheUtilThreshold: number;
  /** Staleness threshold in milliseconds. */
  readonly metricsStalenessThreshold: number;
  /** Burst allowance of the filter, as a fraction. */
  readonly headroom: number;
  /** Cap on each endpoint's saturation in the pool average (Switchyard extension); undefined: none. */
  readonly endpointSaturationCap?: number | undefined;
}

/**
 * Parameters schema of `utilization-detector`, with llm-d's names and defaults (missing object =
 * all defaults; unknown keys are rejected).
 * @public
 * @category Saturation detectors
 */
export const utilizationDetectorParams: z.ZodType<UtilizationDetectorParams, UtilizationDetectorInput | undefined> = utilizationShape.prefault({});

/**
 * Closed-loop detector over scraped metrics, also usable as a scheduler filter.
 * @public
 * @category Saturation detectors
 */
export interface UtilizationDetector extends SaturationDetector, Filter {
  /** The validated parameters. */
  readonly params: Readonly<UtilizationDetectorParams>;
  /** One endpoint's saturation: `max(q/Q, kv/K)`, or 1 when metrics are missing or stale. */
  endpointSaturation(endpoint: Endpoint, now: number): number;
}

/**
 * Creates a `utilization-detector` (llm-d semantics): per endpoint `max(waiting/Q, kv/K)`, with
 * missing or stale metrics counting as fully saturated (1.0) so unobservable endpoints never look
 * idle; the pool value is the unweighted mean (empty pool → 1), each endpoint capped at
 * `endpointSaturationCap` when set (a Switchyard extension). As a filter it keeps fresh
 * endpoints under the relaxed limits `Q(1+headroom)` and `K(1+headroom)`, and fails open: when
 * that would remove every endpoint it returns the input unchanged.
 * @param params - llm-d parameters (defaults: Q 5, K 0.8, staleness 200ms, headroom 0)
 * @param clock - time source for the filter's staleness check (defaults to the system clock)
 * @throws SwitchyardError `CONFIG_INVALID` on invalid parameters
 * @public
 * @category Saturation detectors
 */
export function createUtilizationDetector(params?: UtilizationDetectorInput & { readonly name?: string }, clock: Clock = systemClock): UtilizationDetector {
  const { name = UTILIZATION_DETECTOR_TYPE, ...rest } = params ?? {};
  const p = parseParams(utilizationDetectorParams, rest, UTILIZATION_DETECTOR_TYPE);
  const q = p.queueDepthThreshold;
  const k = p.kvCacheUtilThreshold;
  const staleMs = p.metricsStalenessThreshold;
  const qLimit = q * (1 + p.headroom);
  const kLimit = k * (1 + p.headroom);
  const cap = p.endpointSaturationCap ?? Infinity;

  // `extraQueue` spreads pending (not yet scraped) dispatches over the endpoints as waiting requests.
  const score = (e: Endpoint, now: number, extraQueue: number): number => {
    const m = e.metrics;
    if (m === undefined || now - m.updatedAt > staleMs) return 1;
    const qs = (m.waitingQueueSize + extraQueue) / q;
    const ks = m.kvCacheUsagePercent / k;
    return qs > ks ? qs : ks;
  };

  return {
    type: UTILIZATION_DETECTOR_TYPE,
    name,
    params: p,
    endpointSaturation: (endpoint, now) => score(endpoint, now, 0),
    saturation(endpoints: readonly Endpoint[], now: number, pending?: PendingLoad): number {
      const n = endpoints.length;
      if (n === 0) return 1;
      const extra = pending === undefined ? 0 : pending.requests / n;
      let sum = 0;
      for (const e of endpoints) sum += Math.min(cap, score(e, now, extra));
      return sum / n;
    },
    filter(_ctx: CycleContext, _request: SchedulingRequest, endpoints: readonly Endpoint[]): readonly Endpoint[] {
      const now = clock.now();
      const kept: Endpoint[] = [];
      for (const e of endpoints) {
        const m = e.metrics;
        if (m === undefined || now - m.updatedAt > staleMs) continue;
        if (m.waitingQueueSize < qLimit && m.kvCacheUsagePercent < kLimit) kept.push(e);
      }
      // Fail open: removing every endpoint would turn a metrics hiccup into a full outage.
      return kept.length === 0 || kept.length === endpoints.length ? endpoints : kept;
    },
  };
}
