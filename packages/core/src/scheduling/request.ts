import type { InferenceRequest } from '../request/types.js';
import type { AttributeMap } from './attributes.js';

/**
 * A request as the scheduler and admission see it: the parsed request plus what the picker
 * derived from it (rewritten model, objective, priority, fairness id) and the attributes that data
 * producers add during the cycle.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface SchedulingRequest {
  /** The parsed request. */
  readonly request: InferenceRequest;
  /** Same as `request.id`. */
  readonly id: string;
  /** Model the endpoint must serve (after model rewrite); may be a LoRA adapter name. */
  readonly targetModel: string;
  /** Flow / tenant identifier (`default-flow` when absent). */
  readonly fairnessId: string;
  /** InferenceObjective name, when the request named one. */
  readonly objective: string | undefined;
  /** Priority from the objective (0 when none; negative = sheddable). */
  readonly priority: number;
  /** TTFT SLO in ms from `x-llm-d-slo-ttft-ms`, when valid. */
  readonly sloTtftMs: number | undefined;
  /** TPOT SLO in ms from `x-llm-d-slo-tpot-ms`, when valid. */
  readonly sloTpotMs: number | undefined;
  /** Clock time (ms) at which the picker received the request. */
  readonly receivedAt: number;
  /** Allowed `ip:port` list from the gateway (Envoy subset hint), when given. */
  readonly subsetHint: readonly string[] | undefined;
  /** Attributes produced during this cycle. */
  readonly attributes: AttributeMap;
}
