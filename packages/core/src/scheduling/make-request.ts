import type { InferenceRequest } from '../request/types.js';
import { AttributeMap } from './attributes.js';
import type { SchedulingRequest } from './request.js';

/**
 * Fields of a {@link SchedulingRequest} besides the parsed request; all optional.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
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

/**
 * Fairness id of requests that name none. @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export const DEFAULT_FAIRNESS_ID = 'default-flow';

/**
 * Builds a {@link SchedulingRequest}. The `EndpointPicker` does this for every request; plugin
 * authors use it to drive their plugins in tests, and simulators to schedule without the façade.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export function createSchedulingRequest(request: InferenceRequest, init: SchedulingRequestInit = {}): SchedulingRequest {
  return new SchedulingRequestRecord(request, init);
}

/**
 * A class, not an object literal: a scheduling request lives as long as its decision, and V8 may
 * pretenure a long-lived literal's allocation site, after which every young object the request
 * references survives scavenges until the next full GC (see `parseRequest`).
 */
class SchedulingRequestRecord implements SchedulingRequest {
  readonly request: InferenceRequest;
  readonly id: string;
  readonly targetModel: string;
  readonly fairnessId: string;
  readonly objective: string | undefined;
  readonly priority: number;
  readonly sloTtftMs: number | undefined;
  readonly sloTpotMs: number | undefined;
  readonly receivedAt: number;
  readonly subsetHint: readonly string[] | undefined;
  readonly attributes: AttributeMap;

  constructor(request: InferenceRequest, init: SchedulingRequestInit) {
    this.request = request;
    this.id = request.id;
    this.targetModel = init.targetModel ?? request.model;
    this.fairnessId = init.fairnessId ?? DEFAULT_FAIRNESS_ID;
    this.objective = init.objective;
    this.priority = init.priority ?? 0;
    this.sloTtftMs = init.sloTtftMs;
    this.sloTpotMs = init.sloTpotMs;
    this.receivedAt = init.receivedAt ?? 0;
    this.subsetHint = init.subsetHint;
    this.attributes = init.attributes ?? new AttributeMap();
  }
}
