import type { Plugin, SchedulingRequest, Usage } from '@switchyard/core';

/**
 * What policies see of a queued request.
 * @public
 * @category Policies
 */
export interface QueuedRequest {
  /** The request as admission received it. */
  readonly request: SchedulingRequest;
  /** Arrival sequence number in the controller (unique, increasing); breaks every tie. */
  readonly seq: number;
  /** Clock time (ms) at which the request entered the queue. */
  readonly enqueuedAt: number;
  /**
   * Clock time (ms) at which the request expires if still queued (TTL of the request or band,
   * shortened by the caller's deadline; recomputed when the pool turns empty or non-empty);
   * `Infinity` when it never expires. Ordering keys are computed once, at enqueue.
   */
  readonly deadline: number;
  /** Body size in bytes (the unit of `maxBytes`). */
  readonly byteSize: number;
  /** Estimated tokens (prompt + expected output); the cost unit of token-charged fairness. */
  readonly tokens: number;
  /** The band ordering policy's key for this request (lower dispatches first). */
  readonly orderKey: number;
}

/**
 * Orders the requests of one flow. Each request gets a numeric key once, at enqueue; lower keys
 * dispatch first and equal keys dispatch in arrival order. A numeric key (rather than a
 * comparator) keeps queue operations cheap and lets `global-strict` compare heads across flows.
 * @public
 * @category Policies
 */
export interface OrderingPolicy extends Plugin {
  /** Discriminator for plugin references. */
  readonly kind: 'ordering-policy';
  /** Sort key of a request; `Infinity` sorts last (in arrival order). */
  key(item: QueuedRequest): number;
}

/**
 * A flow (one FlowKey queue) as fairness policies see it.
 * @public
 * @category Policies
 */
export interface FlowView {
  /** Fairness id of the flow (tenant). */
  readonly fairnessId: string;
  /** Priority of the flow's band. */
  readonly priority: number;
  /** Queued requests. */
  readonly size: number;
  /** Queued bytes. */
  readonly bytes: number;
  /** The request the flow's ordering policy would dispatch next. */
  head(): QueuedRequest | undefined;
  /** Free slot for the fairness policy's per-flow state (one selector owns a flow at a time). */
  policyState: unknown;
}

/**
 * The per-band state of a fairness policy: it tracks the band's non-empty flows and picks the
 * one to dispatch from. The controller calls `add` when a flow becomes non-empty, `remove` when it
 * becomes empty or is deleted, `headChanged` when the head of a non-empty flow changed for any
 * reason other than a dispatch, and after each dispatch `dispatched` (before `remove` or
 * `headChanged`).
 * @public
 * @category Policies
 */
export interface FlowSelector {
  /** A flow became non-empty. */
  add(flow: FlowView): void;
  /** A flow became empty or was deleted. */
  remove(flow: FlowView): void;
  /** The head of a non-empty flow changed (arrival ahead of it, cancellation, expiry). */
  headChanged(flow: FlowView): void;
  /** The flow whose head dispatches next; only called while at least one flow is non-empty. */
  select(): FlowView;
  /** `item` was dispatched from `flow` (the one `select` returned). */
  dispatched(flow: FlowView, item: QueuedRequest): void;
  /**
   * `item` of `flow` was granted at once, without being queued (nothing waited, so `select` was
   * not asked); its queue wait is 0. For policies that observe every request leaving admission, as
   * llm-d's PreRequest does. Optional.
   */
  passedThrough?(flow: FlowView, item: QueuedRequest): void;
  /**
   * A dispatched request of `flow` finished and reported its real token usage; token-charged
   * policies correct the estimate they charged (`usage` splits the actual tokens into prompt and
   * completion). Optional.
   */
  settle?(flow: FlowView, estimatedTokens: number, actualTokens: number, usage?: Usage): void;
}

/**
 * Shares dispatch opportunities between the flows of one priority band.
 * @public
 * @category Policies
 */
export interface FairnessPolicy extends Plugin {
  /** Discriminator for plugin references. */
  readonly kind: 'fairness-policy';
  /**
   * Creates the state for one band. `before(a, b)` is the band's request order (ordering key,
   * then arrival), for policies that compare heads across flows.
   */
  createSelector(before: (a: QueuedRequest, b: QueuedRequest) => boolean): FlowSelector;
}

/**
 * Decides up to which pool saturation each priority band may dispatch (its ceiling).
 * @public
 * @category Policies
 */
export interface UsageLimitPolicy extends Plugin {
  /** Discriminator for plugin references. */
  readonly kind: 'usage-limit-policy';
  /**
   * True when ceilings depend on the current saturation; otherwise the controller caches them
   * until a band is created or collected.
   */
  readonly saturationDependent?: boolean;
  /**
   * Ceilings for the priorities of every existing band (distinct, highest first): a band
   * dispatches only while saturation is below its ceiling. Returns one ceiling per priority, in
   * the same order.
   */
  computeLimits(saturation: number, priorities: readonly number[]): readonly number[];
}

/**
 * True when `plugin` is an {@link OrderingPolicy}.
 * @public
 * @category Policies
 */
export function isOrderingPolicy(plugin: Plugin | undefined): plugin is OrderingPolicy {
  return (plugin as Partial<OrderingPolicy> | undefined)?.kind === 'ordering-policy';
}

/**
 * True when `plugin` is a {@link FairnessPolicy}.
 * @public
 * @category Policies
 */
export function isFairnessPolicy(plugin: Plugin | undefined): plugin is FairnessPolicy {
  return (plugin as Partial<FairnessPolicy> | undefined)?.kind === 'fairness-policy';
}

/**
 * True when `plugin` is a {@link UsageLimitPolicy}.
 * @public
 * @category Policies
 */
export function isUsageLimitPolicy(plugin: Plugin | undefined): plugin is UsageLimitPolicy {
  return (plugin as Partial<UsageLimitPolicy> | undefined)?.kind === 'usage-limit-policy';
}
