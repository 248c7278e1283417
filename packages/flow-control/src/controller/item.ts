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
  /** The caller's AbortSignal fired. */
  onAbort(item: FlowItem): void;
}

/**
 * One admitted request: queue entry while it waits, then the caller's {@link AdmissionGrant}.
 * One object plays both roles, and it is its own abort listener (`handleEvent`), so queueing a
 * request allocates nothing else besides the promise.
 */
export class FlowItem implements QueuedRequest, AdmissionGrant {
  readonly request: SchedulingRequest;
  readonly seq: number;
  readonly byteSize: number;
  readonly tokens: number;
  readonly flow: Flow;
  readonly owner: ItemOwner;
  enqueuedAt: number;
  deadline = Infinity;
  /** Current expiry (may move when the pool flips between empty and non-empty). */
  expiresAt = Infinity;
  /** TTL the item is subject to while the pool has endpoints (Infinity = none). */
  ttlMs: number;
  /** Absolute deadline from the caller (Infinity = none). */
  callerDeadline: number;
  orderKey = 0;
  queueIndex = -1;
  ttlIndex = -1;
  state: ItemState = ItemState.New;
  dispatchedAt = 0;
  signal: AbortSignal | undefined;
  resolve: ((grant: AdmissionGrant) => void) | undefined;
  reject: ((error: unknown) => void) | undefined;
  /** Present only on grants that eviction may revoke. */
  revoked?: AbortSignal;
  revokeController: AbortController | undefined;
  victimPrev: FlowItem | undefined;
  victimNext: FlowItem | undefined;
  reclaimTimer: TimerHandle | undefined;

  constructor(owner: ItemOwner, flow: Flow, request: SchedulingRequest, seq: number, now: number, tokens: number, ttlMs: number, callerDeadline: number) {
    this.owner = owner;
    this.flow = flow;
    this.request = request;
    this.seq = seq;
    this.byteSize = request.request.byteSize;
    this.tokens = tokens;
    this.enqueuedAt = now;
    this.ttlMs = ttlMs;
    this.callerDeadline = callerDeadline;
  }

  /** Returns the slot (grant side). Calls after the first are ignored. */
  release(outcome: RequestOutcome): void {
    this.owner.onRelease(this, outcome);
  }

  /** AbortSignal listener (EventListenerObject), so no closure per queued request. */
  handleEvent(): void {
    this.owner.onAbort(this);
  }
}

/** Queue order within a flow: ordering key, then arrival. */
export const itemBefore = (a: QueuedRequest, b: QueuedRequest): boolean => a.orderKey < b.orderKey || (a.orderKey === b.orderKey && a.seq < b.seq);

/** Expiry order: earliest expiry, then arrival. */
export const expiresBefore = (a: FlowItem, b: FlowItem): boolean => a.expiresAt < b.expiresAt || (a.expiresAt === b.expiresAt && a.seq < b.seq);
