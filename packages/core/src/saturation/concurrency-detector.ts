import { z } from 'zod';
import type { Endpoint } from '../endpoints/types.js';
import type { CycleContext, Filter } from '../scheduling/plugins.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import { parseParams } from './params.js';
import type { PendingLoad, SaturationDetector } from './types.js';

/**
 * Registry type of the concurrency detector. @public
 * @category Saturation detectors
 */
export const CONCURRENCY_DETECTOR_TYPE = 'concurrency-detector';

const concurrencyShape = z.strictObject({
  /** What is counted: in-flight `requests` (default), `tokens`, or `hybrid` (the tighter of both per endpoint). */
  concurrencyMode: z.enum(['requests', 'tokens', 'hybrid']).default('requests'),
  /** In-flight requests per endpoint that count as full (default 100). */
  maxConcurrency: z.number().int().positive().default(100),
  /** In-flight tokens per endpoint that count as full (default 1,000,000). */
  maxTokenConcurrency: z.number().int().positive().default(1_000_000),
  /** Burst allowance of the filter above the limits, as a fraction (default 0). */
  headroom: z.number().min(0).default(0),
});

/**
 * What `concurrency-detector` counts.
 * @public
 * @category Saturation detectors
 */
export type ConcurrencyMode = 'requests' | 'tokens' | 'hybrid';

/**
 * Input (config-shaped) parameters of `concurrency-detector`, with llm-d's names.
 * @public
 * @category Saturation detectors
 */
export interface ConcurrencyDetectorInput {
  /** `requests` (default), `tokens`, or `hybrid` (the tighter of both per endpoint). */
  readonly concurrencyMode?: ConcurrencyMode | undefined;
  /** In-flight requests per endpoint that count as full (default 100). */
  readonly maxConcurrency?: number | undefined;
  /** In-flight tokens per endpoint that count as full (default 1,000,000). */
  readonly maxTokenConcurrency?: number | undefined;
  /** Burst allowance of the filter above the limits, as a fraction (default 0). */
  readonly headroom?: number | undefined;
}

/**
 * Validated parameters of `concurrency-detector`.
 * @public
 * @category Saturation detectors
 */
export interface ConcurrencyDetectorParams {
  /** What is counted. */
  readonly concurrencyMode: ConcurrencyMode;
  /** In-flight requests per endpoint that count as full. */
  readonly maxConcurrency: number;
  /** In-flight tokens per endpoint that count as full. */
  readonly maxTokenConcurrency: number;
  /** Burst allowance of the filter, as a fraction. */
  readonly headroom: number;
}

/**
 * Parameters schema of `concurrency-detector`, with llm-d's names and defaults (missing object =
 * all defaults; unknown keys are rejected).
 * @public
 * @category Saturation detectors
 */
export const concurrencyDetectorParams: z.ZodType<ConcurrencyDetectorParams, ConcurrencyDetectorInput | undefined> = concurrencyShape.prefault({});

/**
 * Open-loop detector over Switchyard's own in-flight accounting, also usable as a filter.
 * @public
 * @category Saturation detectors
 */
export interface ConcurrencyDetector extends SaturationDetector, Filter {
  /** The validated parameters. */
  readonly params: Readonly<ConcurrencyDetectorParams>;
}

/**
 * Creates a `concurrency-detector` (llm-d semantics). Saturation: `requests` mode
 * Σ in-flight requests / (n · maxConcurrency); `tokens` mode the same with tokens and
 * maxTokenConcurrency; `hybrid` the mean over endpoints of max(request ratio, token ratio); empty
 * set → 1. As a filter it keeps endpoints whose load is below `floor(max · (1 + headroom))` (both
 * limits in hybrid mode) and, unlike the utilization detector, does **not** fail open: a pool
 * that is full everywhere yields no candidates (429 `rejected-saturated`).
 * @throws SwitchyardError `CONFIG_INVALID` on invalid parameters
 * @public
 * @category Saturation detectors
 */
export function createConcurrencyDetector(params?: ConcurrencyDetectorInput & { readonly name?: string }): ConcurrencyDetector {
  const { name = CONCURRENCY_DETECTOR_TYPE, ...rest } = params ?? {};
  const p = parseParams(concurrencyDetectorParams, rest, CONCURRENCY_DETECTOR_TYPE);
  const maxR = p.maxConcurrency;
  const maxT = p.maxTokenConcurrency;
  const limitR = Math.floor(maxR * (1 + p.headroom));
  const limitT = Math.floor(maxT * (1 + p.headroom));
  const mode = p.concurrencyMode;

  return {
    type: CONCURRENCY_DETECTOR_TYPE,
    name,
    params: p,
    saturation(endpoints: readonly Endpoint[], _now: number, pending?: PendingLoad): number {
      const n = endpoints.length;
      if (n === 0) return 1;
      const pr = pending === undefined ? 0 : pending.requests;
      const pt = pending === undefined ? 0 : pending.tokens;
      if (mode === 'hybrid') {
        // Pending load is not yet on any endpoint; assume the scheduler spreads it evenly.
        const er = pr / n;
        const et = pt / n;
        let sum = 0;
        for (const e of endpoints) {
          const r = (e.inFlightRequests + er) / maxR;
          const t = (e.inFlightTokens + et) / maxT;
          sum += r > t ? r : t;
        }
        return sum / n;
      }
      let total = mode === 'requests' ? pr : pt;
      for (const e of endpoints) total += mode === 'requests' ? e.inFlightRequests : e.inFlightTokens;
      return total / (n * (mode === 'requests' ? maxR : maxT));
    },
    filter(_ctx: CycleContext, _request: SchedulingRequest, endpoints: readonly Endpoint[]): readonly Endpoint[] {
      const kept: Endpoint[] = [];
      for (const e of endpoints) {
        const okR = mode === 'tokens' || e.inFlightRequests < limitR;
        const okT = mode === 'requests' || e.inFlightTokens < limitT;
        if (okR && okT) kept.push(e);
      }
      return kept.length === endpoints.length ? endpoints : kept;
    },
  };
}
