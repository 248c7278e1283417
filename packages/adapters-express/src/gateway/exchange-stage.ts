/*
 * The stages of one gateway request, as one discriminated union: each stage holds exactly what
 * is known once the request has reached it, so the exchange reads a field only where the type
 * says it exists (no casts, no "set by now" assumptions). The stages are classes rather than
 * object literals: they live as long as the request, and a long-lived literal's allocation site
 * may be pretenured (see docs/performance.md, "Pretenuring").
 */
import type { InferenceRequest, TimerHandle } from '@switchyard/core';
import type { RouteResolution } from '../models/router.js';
import type { ConnectionWatcher } from './connection.js';
import type { Membership } from './member-list.js';
import type { PoolMetrics } from './metrics.js';
import type { ForwardPlan } from './plan.js';
import type { Abortable, PendingDecision } from './tracker.js';

/** Reading the body (or, after an early answer, nothing more to do). */
export interface Receiving {
  readonly kind: 'receiving';
}

/** The one receiving stage: it holds no state, so every request shares it. */
export const RECEIVING: Receiving = Object.freeze({ kind: 'receiving' });

/** What every stage after routing knows: the parsed request, its route and its pool's metrics. */
export class Routed {
  readonly kind = 'routed';
  constructor(
    readonly request: InferenceRequest,
    readonly route: RouteResolution,
    readonly pm: PoolMetrics,
  ) {}
}

/** Waiting for the scheduler's decision (registered with the tracker for shutdown). */
export class Scheduling {
  readonly kind = 'scheduling';
  constructor(
    readonly routed: Routed,
    /** Aborts when the client connection closes; cancels the pick. */
    readonly signal: AbortSignal,
    /** When the pick started (clock ms). */
    readonly started: number,
    /** The request's entry among the tracker's pending decisions. */
    readonly pendingEntry: Membership<PendingDecision>,
  ) {}
}

/**
 * Forwarding to the upstream: the plan is set first (so a failure can still complete it), the
 * registrations as the forward starts.
 */
export class Forwarding {
  readonly kind = 'forwarding';
  /** When the forward started (clock ms). */
  started = 0;
  /** The request's entry among the tracker's forwarding requests. */
  forwardingEntry: Membership<Abortable> | undefined = undefined;
  /** The request's watch on its client connection. */
  watch: Membership<ConnectionWatcher> | undefined = undefined;
  /** The upstream deadline: from the first dispatch to the response head. */
  deadline: TimerHandle | undefined = undefined;
  constructor(
    readonly routed: Routed,
    readonly plan: ForwardPlan,
    /** The connection's signal from the pick (its reason explains an abort). */
    readonly signal: AbortSignal,
  ) {}
}

/** Where one request is. */
export type ExchangeStage = Receiving | Routed | Scheduling | Forwarding;
