import type { SaturationDetector } from '@switchyard/core';
import type { EvictionFilter, EvictionOrderPolicy } from '../policies/eviction.js';
import type { FairnessPolicy, OrderingPolicy, UsageLimitPolicy } from '../policies/types.js';

/**
 * Settings a band is created with (on demand, from `defaultPriorityBand` or
 * `defaultNegativePriorityBand`).
 * @public
 * @category Config
 */
export interface BandTemplate {
  /** Queued requests the band may hold (a band limit of 0 in the config means this default). @defaultValue 5000 */
  readonly maxRequests: number;
  /** Queued body bytes the band may hold (0 in the config means this default). @defaultValue 1_000_000_000 */
  readonly maxBytes: number;
  /** Queue TTL of the band's requests in ms (Switchyard extension); undefined = the global default. */
  readonly requestTtlMs: number | undefined;
  /** Picks the flow within the band. */
  readonly fairness: FairnessPolicy;
  /** Picks the request within a flow. */
  readonly ordering: OrderingPolicy;
}

/**
 * A band declared in `priorityBands`.
 * @public
 * @category Config
 */
export interface BandSettings extends BandTemplate {
  /** The band's priority (higher = more important). */
  readonly priority: number;
  /**
   * Requests of the global limit reserved for this band: its `maxRequests` when written explicitly
   * (0 otherwise). Lower bands can never queue into another band's reservation.
   */
  readonly reservedRequests: number;
  /** Bytes of the global limit reserved for this band: its explicit `maxBytes` (0 otherwise). */
  readonly reservedBytes: number;
}

/**
 * A validated, resolved `flowControl` block.
 * @public
 * @category Config
 */
export interface FlowControlConfig {
  /** Global queued-request limit (0 = none). @defaultValue 0 */
  readonly maxRequests: number;
  /** Global queued-bytes limit (0 = none). @defaultValue 0 */
  readonly maxBytes: number;
  /** Queue TTL in ms while the pool has endpoints (0 = no TTL). @defaultValue 60_000 */
  readonly defaultRequestTtlMs: number;
  /**
   * Queue TTL in ms while the pool is empty (0 = no TTL); follows `defaultRequestTTL` when only
   * that one is set, as in llm-d.
   * @defaultValue 60_000
   */
  readonly noEndpointRequestTtlMs: number;
  /** Template of bands created on demand for priorities ≥ 0. */
  readonly defaultBand: BandTemplate;
  /** Template of bands created on demand for negative priorities. */
  readonly defaultNegativeBand: BandTemplate;
  /** Declared bands, highest priority first. */
  readonly bands: readonly BandSettings[];
  /** Ceiling per band. */
  readonly usageLimitPolicy: UsageLimitPolicy;
  /** Pool saturation source. */
  readonly detector: SaturationDetector;
  /** Whether dispatched negative-priority requests may be revoked to make room. @defaultValue false */
  readonly enableEviction: boolean;
  /** Which dispatched requests eviction may revoke (the config's `sheddable-eviction-filter` instance, else a default one). */
  readonly evictionFilter: EvictionFilter;
  /** The order victims are revoked in (the config's `priority-then-time-eviction-order-policy` instance, else a default one). */
  readonly evictionOrderPolicy: EvictionOrderPolicy;
  /** Idle time (ms) after which an empty flow is forgotten. @defaultValue 300_000 */
  readonly flowGcMs: number;
  /** Idle time (ms) after which an empty undeclared band is forgotten. @defaultValue 600_000 */
  readonly bandGcMs: number;
  /**
   * Time (ms) a revoked request has to release its slot before the revocation counts as timed out.
   * @defaultValue 30_000
   */
  readonly evictionReclaimTimeoutMs: number;
  /** Revocations that may await reclaim at once. @defaultValue 2 */
  readonly maxEvictionsPerCycle: number;
  /**
   * Whether a full band's room is shared per flow (`switchyard.admissionShares`): a request of a
   * flow within its fair share displaces the last request of a flow over its share instead of
   * being refused. llm-d refuses whoever arrives at a full queue.
   * @defaultValue true
   */
  readonly admissionShares: boolean;
}
