import { ROLE_LABEL, type Endpoint } from '../endpoints/types.js';
import type { PendingLoad, SaturationDetector } from './types.js';

/**
 * The endpoints of a pool split by disaggregation stage (label `llm-d.ai/role`). Interleaved
 * endpoints (`both`, `prefill-decode`, `encode-prefill-decode`) are in both lists, unlabeled ones
 * serve decode, encode-only ones are in neither.
 * @public
 */
export interface StagePartition {
  /** Endpoints that run prefill. */
  readonly prefill: readonly Endpoint[];
  /** Endpoints that run decode (including unlabeled ones). */
  readonly decode: readonly Endpoint[];
}

/**
 * Saturation of a pool per stage and overall.
 * @public
 * @category Saturation detectors
 */
export interface PoolSaturation {
  /** Gate value: the maximum over the stages that have endpoints (1 when none has). */
  readonly value: number;
  /** Prefill-stage saturation, or undefined when no endpoint runs prefill. */
  readonly prefill: number | undefined;
  /** Decode-stage saturation, or undefined when no endpoint runs decode. */
  readonly decode: number | undefined;
}

const DECODE_ROLES = new Set(['decode', 'prefill-decode', 'both', 'encode-prefill-decode']);
const PREFILL_ROLES = new Set(['prefill', 'encode-prefill', 'prefill-decode', 'both', 'encode-prefill-decode']);

// Pool.list() returns the same array until membership or labels change, so caching by array
// identity makes repeated gate checks allocation-free.
const cache = new WeakMap<readonly Endpoint[], StagePartition>();

/**
 * Splits endpoints by stage, with the role sets of llm-d's `prefill-filter` / `decode-filter`.
 * Results are cached per array instance (arrays from `EndpointPool.list()` are stable).
 * @public
 */
export function partitionStages(endpoints: readonly Endpoint[]): StagePartition {
  const hit = cache.get(endpoints);
  if (hit !== undefined) return hit;
  const prefill: Endpoint[] = [];
  const decode: Endpoint[] = [];
  for (const e of endpoints) {
    const role = e.labels[ROLE_LABEL];
    if (role === undefined || role === '' || DECODE_ROLES.has(role)) decode.push(e);
    if (role !== undefined && PREFILL_ROLES.has(role)) prefill.push(e);
  }
  const partition: StagePartition = { prefill, decode };
  cache.set(endpoints, partition);
  return partition;
}

/**
 * Saturation per stage: the detector runs on the prefill endpoints and on the decode endpoints
 * separately (a stage without endpoints is skipped), and the gate value is the maximum, so a
 * saturated prefill tier blocks dispatch even when decode is idle. With no endpoint in either
 * stage the value is the detector's answer for an empty set (1).
 * @public
 */
export function stageSaturation(detector: SaturationDetector, endpoints: readonly Endpoint[], now: number, pending?: PendingLoad): PoolSaturation {
  const { prefill, decode } = partitionStages(endpoints);
  const p = prefill.length > 0 ? detector.saturation(prefill, now, pending) : undefined;
  const d = decode.length > 0 ? detector.saturation(decode, now, pending) : undefined;
  if (p === undefined && d === undefined) return { value: detector.saturation([], now, pending), prefill: undefined, decode: undefined };
  return { value: Math.max(p ?? -Infinity, d ?? -Infinity), prefill: p, decode: d };
}

/**
 * The gate value of {@link stageSaturation} without the per-stage breakdown (allocation-free for
 * arrays from `EndpointPool.list()`).
 * @public
 */
export function poolSaturation(detector: SaturationDetector, endpoints: readonly Endpoint[], now: number, pending?: PendingLoad): number {
  const { prefill, decode } = partitionStages(endpoints);
  if (prefill.length === 0 && decode.length === 0) return detector.saturation([], now, pending);
  const p = prefill.length > 0 ? detector.saturation(prefill, now, pending) : -Infinity;
  const d = decode.length > 0 ? detector.saturation(decode, now, pending) : -Infinity;
  return p > d ? p : d;
}
