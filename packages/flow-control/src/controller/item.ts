import type { AdmissionGrant, RequestOutcome, SchedulingRequest, TimerHandle } from '@switchyard/core';
import type { QueuedRequest } from '../policies/types.js';
import type { Flow } from './flow.js';

/** Lifecycle of an item; every item ends in Released or Finalized exactly once. */
export const ItemState = {
  /** Created, not yet queued or dispatched. */
  New: 0,
  /** Waiting in its flow's queue. */
  Queued: 1,
  /** Granted; the caller holds the slot. */
  Dispatched: 2,
  /** Granted, then revoked by eviction; the slot returns on release. */
  Revoked: 3,
  /** Granted and released. */
  Released: 4,
  /** Left the queue without a grant (TTL, cancellation, shutdown) or was rejected. */
  Finalized: 5,
} as const;

/** One of {@link ItemState}'s values. */
export type ItemState = (typeof ItemState)[keyof typeof ItemState];

/** What an item needs from its controller; keeps the item free of controller internals. */
export interface ItemOwner {
  /** The caller released a granted item. */
  onRelease(item: FlowItem, outcome: RequestOutcome): void;
}

/** Bookkeeping of a grant that eviction may revoke (allocated only for those grants). */
export interface EvictionState {
  /** Aborts the grant's `revoked` signal. */
  readonly controller: AbortController;
  /** When the grant was dispatched (clock ms), for the eviction order. */
  readonly dispatchedAt: number;
  /** Neighbours in the evictor's victim list. */
  prev: FlowItem | undefined;
  next: FlowItem | undefined;
  /** Pending reclaim timeout once revoked. */
  reclaimTimer: TimerHandle | undefined;
  /** When the grant was revoked (clock ms), for the confirmation time. */
  revokedAt: number;
}

/** `expiresAt` of an item that never expires (a small integer keeps the field unboxed). */
export const NEVER = -1;

/**
 * One admitted request: queue entry while it waits, then the caller's {@link AdmissionGrant}.
 * One object plays both roles. Fields are kept few and, where possible, small integers, because
 * this object is most of what a queued request costs (see docs/benchmarks/flow-control.md).
 */
export class FlowItem implements QueuedRequest, AdmissionGrant {
  readonly request: SchedulingRequest;
  readonly seq: number;
  readonly tokens: number;
  readonly flow: Flow;
  /** Whole milliseconds (see `QueueSet.enqueue`). */
  enqueuedAt: number;
  /** Current expiry, or NEVER; moves when the pool flips between empty and non-empty. */
  expiresAt = NEVER;
  /** TTL while the pool has endpoints; 0 = none. */
  ttlMs: number;
  /** Absolute deadline from the caller; NEVER = none. */
  callerDeadline: number;
  orderKey = 0;
  queueIndex = -1;
  ttlIndex = -1;
  state: ItemState = ItemState.New;
  signal: AbortSignal | undefined = undefined;
  /**
   * Settles the caller's promise. Only the resolve function is kept (the reject function would
   * cost another closure per queued request); rejections resolve with a rejected promise.
   */
  resolve: ((grant: AdmissionGrant | PromiseLike<AdmissionGrant>) => void) | undefined = undefined;
  evict: EvictionState | undefined = undefined;
  /** Present only on grants that eviction may revoke. */
  revoked?: AbortSignal;

  constructor(flow: Flow, request: SchedulingRequest, seq: number, now: number, tokens: number, ttlMs: number, callerDeadline: number) {
    this.flow = flow;
    this.request = request;
    this.seq = seq;
    this.tokens = tokens;
    this.enqueuedAt = now;
    this.ttlMs = ttlMs;
    this.callerDeadline = callerDeadline;
  }

  get byteSize(): number {
    return this.request.request.byteSize;
  }

  get deadline(): number {
    return this.expiresAt === NEVER ? Infinity : this.expiresAt;
  }

  /** Returns the slot (grant side). Calls after the first are ignored. */
  release(outcome: RequestOutcome): void {
    this.flow.owner.onRelease(this, outcome);
  }
}

/** Queue order within a flow: ordering key, then arrival. */
export const itemBefore = (a: QueuedRequest, b: QueuedRequest): boolean => a.orderKey < b.orderKey || (a.orderKey === b.orderKey && a.seq < b.seq);

/** Expiry order: earliest expiry, then arrival. */
export const expiresBefore = (a: FlowItem, b: FlowItem): boolean => a.expiresAt < b.expiresAt || (a.expiresAt === b.expiresAt && a.seq < b.seq);
