import type { InferenceRequest } from '../request/types.js';
import { AttributeMap } from './attributes.js';
import type { SchedulingRequest } from './request.js';

/**
 * Fields of a {@link SchedulingRequest} besides the parsed request; all optional.
 * @public
 */
export interface SchedulingRequestInit {
  /** Model after rewrite (default: the request's model). */
  readonly targetModel?: string;
  /** Fairness id (default `default-flow`). */
  readonly fairnessId?: string;
  /** Objective name. */
  readonly objective?: string | undefined;
  /** Priority (default 0). */
  readonly priority?: number;
  /** TTFT SLO, ms. */
  readonly sloTtftMs?: number | undefined;
  /** TPOT SLO, ms. */
  readonly sloTpotMs?: number | undefined;
  /** Clock time the request arrived (default 0). */
  readonly receivedAt?: number;
  /** Subset hint. */
  readonly subsetHint?: readonly string[] | undefined;
  /** Attribute store (default: a new empty one). */
  readonly attributes?: AttributeMap;
}

/** Fairness id of requests that name none. @public */
export const DEFAULT_FAIRNESS_ID = 'default-flow';

/**
 * Builds a {@link SchedulingRequest}. The `EndpointPicker` does this for every request; plugin
 * authors use it to drive their plugins in tests, and simulators to schedule without the façade.
 * @public
 */
export function createSchedulingRequest(request: InferenceRequest, init: SchedulingRequestInit = {}): SchedulingRequest {
  return {
    request,
    id: request.id,
    targetModel: init.targetModel ?? request.model,
    fairnessId: init.fairnessId ?? DEFAULT_FAIRNESS_ID,
    objective: init.objective,
    priority: init.priority ?? 0,
    sloTtftMs: init.sloTtftMs,
    sloTpotMs: init.sloTpotMs,
    receivedAt: init.receivedAt ?? 0,
    subsetHint: init.subsetHint,
    attributes: init.attributes ?? new AttributeMap(),
  };
}
