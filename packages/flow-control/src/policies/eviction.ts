import type { Plugin } from '@switchyard/core';

/**
 * Type name of the default eviction filter (llm-d's). @public
 * @category Policies
 */
export const SHEDDABLE_EVICTION_FILTER = 'sheddable-eviction-filter';
/**
 * Type name of the default eviction order policy (llm-d's). @public
 * @category Policies
 */
export const PRIORITY_THEN_TIME_EVICTION_ORDER = 'priority-then-time-eviction-order-policy';

/**
 * What eviction plugins see of a dispatched request.
 * @public
 * @category Policies
 */
export interface EvictionCandidate {
  /** Priority of the request's band. */
  readonly priority: number;
  /** When it was dispatched (clock ms); later dispatches compare greater. */
  readonly dispatchedAt: number;
  /** Dispatch order, to break ties between dispatches at the same instant. */
  readonly seq: number;
}

/**
 * Decides which dispatched requests may be evicted at all (llm-d's eviction filter).
 * @public
 * @category Policies
 */
export interface EvictionFilter extends Plugin {
  readonly kind: 'eviction-filter';
  /** True when `candidate` may be revoked to make room for a higher band. */
  eligible(candidate: EvictionCandidate): boolean;
}

/**
 * Orders eviction victims (llm-d's eviction ordering policy).
 * @public
 * @category Policies
 */
export interface EvictionOrderPolicy extends Plugin {
  readonly kind: 'eviction-order-policy';
  /** Negative when `a` should be evicted before `b`, positive after, 0 for no preference. */
  compare(a: EvictionCandidate, b: EvictionCandidate): number;
}

/**
 * True for a plugin usable as an {@link EvictionFilter}. @public
 * @category Policies
 */
export function isEvictionFilter(p: Plugin | undefined): p is EvictionFilter {
  return (p as Partial<EvictionFilter> | undefined)?.kind === 'eviction-filter';
}

/**
 * True for a plugin usable as an {@link EvictionOrderPolicy}. @public
 * @category Policies
 */
export function isEvictionOrderPolicy(p: Plugin | undefined): p is EvictionOrderPolicy {
  return (p as Partial<EvictionOrderPolicy> | undefined)?.kind === 'eviction-order-policy';
}

/**
 * `sheddable-eviction-filter`: only sheddable requests (priority < 0) may be evicted, as in llm-d.
 * @public
 * @category Policies
 */
export function createSheddableEvictionFilter(name = SHEDDABLE_EVICTION_FILTER): EvictionFilter {
  return { kind: 'eviction-filter', type: SHEDDABLE_EVICTION_FILTER, name, eligible: (c) => c.priority < 0 };
}

/** Marks the built-in order, which the evictor serves from per-priority lists without comparing. */
const PRIORITY_THEN_TIME = Symbol('priority-then-time');

/**
 * `priority-then-time-eviction-order-policy`: lowest priority first; within a priority the most
 * recently dispatched first (the request with the most work done survives longest), as in llm-d.
 * @public
 * @category Policies
 */
export function createPriorityThenTimeEvictionOrder(name = PRIORITY_THEN_TIME_EVICTION_ORDER): EvictionOrderPolicy {
  return {
    kind: 'eviction-order-policy',
    type: PRIORITY_THEN_TIME_EVICTION_ORDER,
    name,
    [PRIORITY_THEN_TIME]: true,
    compare: (a, b) => a.priority - b.priority || b.dispatchedAt - a.dispatchedAt || b.seq - a.seq,
  } as EvictionOrderPolicy;
}

/** True for the built-in order (its own instances only; a custom policy is always compared). */
export function isPriorityThenTime(p: EvictionOrderPolicy): boolean {
  return (p as unknown as Record<symbol, unknown>)[PRIORITY_THEN_TIME] === true;
}
