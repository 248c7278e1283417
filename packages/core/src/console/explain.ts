import type { Classification, RequestScheduler } from '../picker/types.js';
import type { InferenceRequest } from '../request/types.js';
import { DecisionLog, type DecisionRecord } from './decision-log.js';
import { recordDecisions } from './recording-scheduler.js';

/**
 * Options of {@link explainPick}.
 * @public
 * @category Decision console
 */
export interface ExplainOptions {
  /** Pool name for the record. @default 'default' */
  readonly pool?: string;
  /** Read `x-llm-d-*` classification headers from the request. @default true (the operator asks) */
  readonly trustHeaders?: boolean;
  /** Classification (a route's model rewrite, a tenant). */
  readonly classification?: Classification;
}

/**
 * Schedules one request with tracing on and returns its record: the decision (or rejection) and
 * the full trace. The decision is completed as cancelled right away, so nothing stays in flight.
 * Pass a scheduler without admission (a picker built without flow control) to explain the
 * placement alone: admission only delays or sheds a request, it never changes where it goes.
 * @public
 * @category Decision console
 */
export async function explainPick(scheduler: RequestScheduler, request: InferenceRequest, options: ExplainOptions = {}): Promise<DecisionRecord> {
  const log = new DecisionLog({ capacity: 1 });
  const recording = recordDecisions(scheduler, { log, pool: options.pool ?? 'default' });
  try {
    const decision = await recording.pick(request, { trustClassificationHeaders: options.trustHeaders ?? true, ...(options.classification === undefined ? {} : { classification: options.classification }) });
    decision.complete({ kind: 'cancelled' });
  } catch {
    // Recorded as `rejected` with its error code.
  }
  const record = log.recent(1)[0];
  if (record === undefined) throw new Error('explainPick: the request was not recorded');
  return record;
}
