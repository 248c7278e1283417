import type { Endpoint } from '../endpoints/types.js';
import type { Plugin } from '../scheduling/plugins.js';

/**
 * Load that has been admitted but is not yet visible on any endpoint: requests the flow
 * controller dispatched whose scheduling has not yet added them to an endpoint's in-flight
 * counts (or, for metrics-based detectors, to its scraped queue). Detectors spread it evenly over
 * the endpoints they are given, so a controller that dispatches many requests in one pass sees
 * saturation rise with every dispatch instead of only after the next scrape.
 * @public
 * @category Saturation detectors
 */
export interface PendingLoad {
  /** Admitted requests not yet reflected in endpoint state. */
  readonly requests: number;
  /** Their estimated tokens (prompt + expected output). */
  readonly tokens: number;
}

/**
 * Measures how full a set of endpoints is: 0 = idle, ≥ 1 = saturated. Detectors are also
 * scheduler filters (they implement `Filter`) in llm-d's built-ins.
 * @public
 * @category Saturation detectors
 */
export interface SaturationDetector extends Plugin {
  /**
   * Saturation of `endpoints` at clock time `now` (empty set → 1). `pending` is load admitted
   * but not yet visible on the endpoints (see {@link PendingLoad}); omitted means none.
   */
  saturation(endpoints: readonly Endpoint[], now: number, pending?: PendingLoad): number;
}

/**
 * True when `plugin` implements {@link SaturationDetector}.
 * @public
 * @category Saturation detectors
 */
export function isSaturationDetector(plugin: Plugin | undefined): plugin is SaturationDetector {
  return plugin !== undefined && typeof (plugin as Partial<SaturationDetector>).saturation === 'function';
}
