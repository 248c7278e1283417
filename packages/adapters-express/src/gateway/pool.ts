import type { EndpointPool, RequestScheduler } from '@switchyard/core';
import type { EndpointRotation } from './rotation.js';

/**
 * One inference pool behind the gateway: the scheduler that picks its endpoints and, optionally,
 * the endpoint pool and circuit breaker the gateway consults.
 * @public
 * @category Gateway options
 */
export interface GatewayPool {
  /** Pool name (metrics label `pool`, `owned_by` in `/v1/models`). */
  readonly name: string;
  /** Picks endpoints for this pool's requests (an `EndpointPicker`, or any implementation). */
  readonly scheduler: RequestScheduler;
  /**
   * Endpoints the scheduler schedules over (when a rotation is used, its `pool`). Needed for
   * FailOpen (a ready endpoint is chosen from it), `/readyz`, and `/v1/models` passthrough.
   */
  readonly endpoints?: EndpointPool;
  /** Circuit breaker the gateway reports attempt results to. */
  readonly rotation?: EndpointRotation;
  /**
   * Whether some endpoint can serve now (for `/readyz`); e.g. one in rotation whose metrics are
   * fresh. @default has at least one endpoint
   */
  readonly ready?: () => boolean;
  /** Model and LoRA adapter names this pool serves (multi-model gateways). */
  readonly models?: readonly string[];
}
