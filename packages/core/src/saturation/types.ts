import type { Endpoint } from '../endpoints/types.js';
import type { Plugin } from '../scheduling/plugins.js';

/**
 * Measures how full a set of endpoints is: 0 = idle, ≥ 1 = saturated. Detectors are also
 * scheduler filters (they implement `Filter`) in llm-d's built-ins.
 * @public
 */
export interface SaturationDetector extends Plugin {
  /** Saturation of `endpoints` at clock time `now` (empty set → 1). */
  saturation(endpoints: readonly Endpoint[], now: number): number;
}
