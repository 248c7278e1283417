import type { RequestRecord } from './types.js';

/**
 * Why a request did not complete, in the classes the report counts: `shed` (admission or flow
 * control refused it, or evicted it), `ttl` (queued past its TTL), `engine` (the endpoint failed,
 * vanished or restarted, or the engine refused it), `timeout` (still unfinished when the run
 * stopped).
 * @public
 * @category Report
 */
export type FailureClass = 'shed' | 'ttl' | 'engine' | 'timeout';

const SHED = new Set(['REJECTED_SATURATED', 'REJECTED_SHEDDABLE', 'EVICTED', 'evicted', 'ADMISSION_DENIED', 'REJECTED_NO_ENDPOINTS']);

/**
 * The failure class of a record that is not ok.
 * @public
 * @category Report
 */
export function failureClass(r: RequestRecord): FailureClass {
  const reason = r.reason ?? '';
  if (reason === 'REJECTED_TTL_EXPIRED') return 'ttl';
  if (reason === 'timeout') return 'timeout';
  // A rejection by the picker's side (admission, flow control, no endpoint) sheds the request.
  if (SHED.has(reason) || r.status === 'rejected') return 'shed';
  return 'engine';
}

/**
 * Outcome counts over a set of requests: every request ends in exactly one.
 * @public
 * @category Report
 */
export interface OutcomeCounts {
  /** Completed. */
  readonly ok: number;
  /** Refused or evicted by admission / flow control. */
  readonly shed: number;
  /** Expired in a queue. */
  readonly ttl: number;
  /** Failed at or on the way to the engine. */
  readonly engine: number;
  /** Unfinished when the run stopped. */
  readonly timeout: number;
}

/**
 * Counts outcomes by class.
 * @public
 * @category Report
 */
export function countOutcomes(records: readonly RequestRecord[]): OutcomeCounts {
  const c = { ok: 0, shed: 0, ttl: 0, engine: 0, timeout: 0 };
  for (const r of records) {
    if (r.status === 'ok') c.ok++;
    else c[failureClass(r)]++;
  }
  return c;
}

/**
 * TTFT of a record, ms, with every failure (and a success without a first token) as +∞: the
 * latency percentiles of the report are taken over all offered requests this way, so a policy
 * cannot look fast by failing its slow requests.
 * @public
 * @category Report
 */
export const ttftOrInfinity = (r: RequestRecord): number =>
  r.status === 'ok' && r.firstTokenMs !== undefined ? r.firstTokenMs - r.arrivalMs : Infinity;
