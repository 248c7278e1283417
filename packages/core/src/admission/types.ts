import type { SchedulingRequest } from '../scheduling/request.js';
import type { RequestOutcome } from '../scheduling/plugins.js';

/**
 * Permission for one request to proceed to scheduling. The holder must call `release` exactly
 * once when the request ends, whatever the outcome.
 * @public
 * @category Admission
 */
export interface AdmissionGrant {
  /**
   * Aborts if the admission controller revokes the request after dispatch (flow-control eviction);
   * the reason is a SwitchyardError with code `EVICTED`.
   */
  readonly revoked?: AbortSignal;
  /** Returns the request's slot. Calls after the first are ignored. */
  release(outcome: RequestOutcome): void;
}

/**
 * Decides whether and when a request may reach the pool. Core ships the legacy controller;
 * `@switchyard/flow-control` ships the queueing one.
 * @public
 * @category Admission
 */
export interface AdmissionController {
  /**
   * Resolves when the request may be scheduled; rejects with a SwitchyardError from the contract
   * (queue full, TTL expired, cancelled via `signal`, shutting down, sheddable while saturated).
   */
  admit(request: SchedulingRequest, options?: { readonly signal?: AbortSignal }): Promise<AdmissionGrant>;
  /**
   * Decides at once when no waiting is involved, so the picker need not wait a microtask for an
   * already settled `admit`: returns the grant, or throws the error `admit` would reject with, or
   * returns undefined when it cannot decide at once (the picker then calls `admit`). Optional.
   */
  admitNow?(request: SchedulingRequest): AdmissionGrant | undefined;
  /** Stops admitting; queued requests are rejected with `REJECTED_SHUTTING_DOWN`. */
  close?(): Promise<void>;
}
