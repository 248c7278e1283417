import type { RequestOutcome, SchedulingRequest, SwitchyardError } from '@switchyard/core';
import type { QueueOutcome } from '../metrics/flow-metrics.js';
import type { QueuedRequest } from '../policies/types.js';

/**
 * Typed events of a {@link FlowController} (eventemitter3 event map). Every request emits exactly
 * one `outcome`; the specific events say more about each transition.
 * @public
 * @category Controller
 */
export interface FlowControllerEvents {
  /** A request entered its flow's queue. */
  enqueued: [request: QueuedRequest];
  /** A request was granted, immediately (`waitMs` 0) or after waiting. */
  dispatched: [request: QueuedRequest, waitMs: number];
  /** A request was refused without queueing (capacity, shutting down, already cancelled). */
  rejected: [request: SchedulingRequest, outcome: QueueOutcome, error: SwitchyardError];
  /** A queued request gave its place to a request of a flow under its fair share of the band (429). */
  displaced: [request: QueuedRequest, waitMs: number, error: SwitchyardError];
  /** A queued request's TTL ran out. */
  expired: [request: QueuedRequest, waitMs: number, error: SwitchyardError];
  /** A queued request's caller cancelled; its slot is free. */
  cancelled: [request: QueuedRequest, waitMs: number];
  /** A queued request was answered `rejected-shutting-down` by `close()`. */
  drained: [request: QueuedRequest, waitMs: number];
  /** The final queue outcome of a request; exactly once per `admit` call. */
  outcome: [request: SchedulingRequest, outcome: QueueOutcome, waitMs: number];
  /** A granted request released its slot. */
  released: [request: QueuedRequest, outcome: RequestOutcome];
  /** A dispatched request was revoked by in-flight eviction (its `revoked` signal aborted). */
  revoked: [request: QueuedRequest];
  /** A revoked request did not release its slot within the reclaim timeout. */
  revocationTimedOut: [request: QueuedRequest];
  /** Dispatch stopped at a band's ceiling (emitted when the blocking band changes). */
  blocked: [priority: number, saturation: number, ceiling: number];
  /** Dispatch resumed after being blocked. */
  unblocked: [];
  /** A band was created on demand. */
  bandCreated: [priority: number];
  /** An idle band was garbage-collected. */
  bandRemoved: [priority: number];
  /** A flow was created on demand. */
  flowCreated: [fairnessId: string, priority: number];
  /** An idle flow was garbage-collected. */
  flowRemoved: [fairnessId: string, priority: number];
  /** `close()` finished: nothing queued, every grant released. */
  closed: [];
}
