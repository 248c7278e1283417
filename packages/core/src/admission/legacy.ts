import { systemClock, type Clock } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import type { SaturationDetector } from '../saturation/types.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import { createUtilizationDetector } from '../saturation/utilization-detector.js';
import type { AdmissionController, AdmissionGrant } from './types.js';

/**
 * Options of {@link createLegacyAdmissionController}.
 * @public
 * @category Admission
 */
export interface LegacyAdmissionOptions {
  /** The pool whose saturation decides. */
  readonly pool: EndpointPool;
  /** Saturation source (default: a `utilization-detector` with llm-d defaults). */
  readonly detector?: SaturationDetector | undefined;
  /** Time source for staleness checks. */
  readonly clock?: Clock | undefined;
}

/** Grant of the legacy controller: nothing to give back. */
const NOOP_GRANT: AdmissionGrant = { release: () => undefined };

/**
 * llm-d's admission when flow control is off: every request is admitted at once, except a
 * sheddable one (priority < 0) while the pool is saturated (detector ≥ 1, which includes an
 * empty pool): that gets 429 `REJECTED_SHEDDABLE` (no dropped-reason header, as in llm-d).
 * @public
 * @category Admission
 */
export function createLegacyAdmissionController(options: LegacyAdmissionOptions): AdmissionController {
  const clock = options.clock ?? systemClock;
  const detector = options.detector ?? createUtilizationDetector(undefined, clock);
  const pool = options.pool;
  const admitted = Promise.resolve(NOOP_GRANT);
  /** The rejection of a sheddable request while the pool is saturated, or undefined. */
  const rejection = (request: SchedulingRequest): SwitchyardError | undefined => {
    if (request.priority >= 0) return undefined;
    const saturation = detector.saturation(pool.list(), clock.now());
    if (saturation < 1) return undefined;
    return new SwitchyardError('REJECTED_SHEDDABLE', `sheddable request (priority ${request.priority}) rejected: pool saturation ${saturation.toFixed(2)} ≥ 1`);
  };
  return {
    admit(request) {
      const error = rejection(request);
      return error === undefined ? admitted : Promise.reject(error);
    },
    admitNow(request) {
      const error = rejection(request);
      if (error !== undefined) throw error;
      return NOOP_GRANT;
    },
  };
}
