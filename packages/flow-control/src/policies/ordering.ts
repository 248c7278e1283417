import type { OrderingPolicy } from './types.js';

/**
 * Registry type of first-come-first-served ordering. @public
 * @category Policies
 */
export const FCFS_ORDERING = 'fcfs-ordering-policy';
/**
 * Registry type of earliest-deadline-first ordering. @public
 * @category Policies
 */
export const EDF_ORDERING = 'edf-ordering-policy';
/**
 * Registry type of SLO-deadline ordering. @public
 * @category Policies
 */
export const SLO_DEADLINE_ORDERING = 'slo-deadline-ordering-policy';

/**
 * `fcfs-ordering-policy` (llm-d's default): earliest enqueue first.
 * @public
 * @category Policies
 */
export function createFcfsOrdering(name: string = FCFS_ORDERING): OrderingPolicy {
  return { type: FCFS_ORDERING, name, kind: 'ordering-policy', key: (item) => item.enqueuedAt };
}

/**
 * `edf-ordering-policy`: earliest expiry first (enqueue time + effective TTL, where a caller's
 * deadline shortens the TTL); requests that never expire come last, in arrival order. With one
 * TTL for everybody this is FCFS; it differs once per-band, per-request TTLs or caller deadlines
 * vary.
 * @public
 * @category Policies
 */
export function createEdfOrdering(name: string = EDF_ORDERING): OrderingPolicy {
  return { type: EDF_ORDERING, name, kind: 'ordering-policy', key: (item) => item.deadline };
}

/**
 * `slo-deadline-ordering-policy`: earliest SLO deadline first, where the deadline is the time the
 * request was received plus its `x-llm-d-slo-ttft-ms` budget; requests without a valid SLO come
 * last, in arrival order.
 * @public
 * @category Policies
 */
export function createSloDeadlineOrdering(name: string = SLO_DEADLINE_ORDERING): OrderingPolicy {
  return {
    type: SLO_DEADLINE_ORDERING,
    name,
    kind: 'ordering-policy',
    key: (item) => {
      const slo = item.request.sloTtftMs;
      return slo === undefined || !Number.isFinite(slo) ? Infinity : item.request.receivedAt + slo;
    },
  };
}
