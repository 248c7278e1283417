import { SwitchyardError, type Clock } from '@switchyard/core';
import type { EventEmitter } from 'eventemitter3';
import type { FlowControlConfig } from '../config/types.js';
import type { FlowControlMetrics } from '../metrics/flow-metrics.js';
import { isPriorityThenTime, type EvictionCandidate, type EvictionFilter, type EvictionOrderPolicy } from '../policies/eviction.js';
import type { FlowControllerEvents } from './events.js';
import { ItemState, type EvictionState, type FlowItem } from './item.js';

interface VictimList {
  head: FlowItem | undefined;
  tail: FlowItem | undefined;
}

/** What the evictor reports back (metrics, events). */
export interface EvictionHooks {
  /** A revocation was issued. */
  revoked(item: FlowItem): void;
  /** A revoked request released its slot in time, `confirmationMs` after its revocation. */
  reclaimed(item: FlowItem, confirmationMs: number): void;
  /** The number of revocations awaiting reclaim changed. */
  pendingChanged(pending: number): void;
  /** A revoked request did not release its slot within the reclaim timeout. */
  timedOut(item: FlowItem): void;
}

/** The eviction view of a tracked grant. */
function candidateOf(item: FlowItem): EvictionCandidate {
  return { priority: item.flow.band.priority, dispatchedAt: (item.evict as EvictionState).dispatchedAt, seq: item.seq };
}

/**
 * In-flight eviction: tracks the dispatched grants the eviction filter admits (by default
 * `sheddable-eviction-filter`: priority < 0) and revokes them through their AbortSignal in the
 * order policy's order (by default `priority-then-time-eviction-order-policy`: lowest priority
 * first, then most recently dispatched, so the request with the most work done survives longest;
 * served from per-priority lists without comparing, any other policy by comparing every victim). A revocation frees capacity only when the caller
 * releases the grant; revocations still waiting for that are capped, so a blocked band does not
 * revoke a new batch on every event while the first batch is still winding down.
 */
export class Evictor {
  readonly #lists = new Map<number, VictimList>();
  /** Priorities that have a list, ascending. */
  readonly #priorities: number[] = [];
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #maxPending: number;
  readonly #hooks: EvictionHooks;
  readonly #filter: EvictionFilter;
  readonly #order: EvictionOrderPolicy;
  readonly #builtInOrder: boolean;
  #pending = 0;

  constructor(clock: Clock, reclaimTimeoutMs: number, maxPending: number, hooks: EvictionHooks, filter: EvictionFilter, order: EvictionOrderPolicy) {
    this.#filter = filter;
    this.#order = order;
    this.#builtInOrder = isPriorityThenTime(order);
    this.#clock = clock;
    this.#timeoutMs = reclaimTimeoutMs;
    this.#maxPending = maxPending;
    this.#hooks = hooks;
  }

  /** Revocations awaiting reclaim. */
  get pending(): number {
    return this.#pending;
  }

  /** Whether a grant of this band priority, dispatched now, may be evicted (the eviction filter). */
  eligible(priority: number, dispatchedAt: number, seq: number): boolean {
    return this.#filter.eligible({ priority, dispatchedAt, seq });
  }

  /** Registers a fresh grant the filter admitted as a possible victim. */
  add(item: FlowItem): void {
    const p = item.flow.band.priority;
    let list = this.#lists.get(p);
    if (list === undefined) {
      list = { head: undefined, tail: undefined };
      this.#lists.set(p, list);
      this.#priorities.push(p);
      this.#priorities.sort((a, b) => a - b);
    }
    const e = item.evict as EvictionState;
    e.prev = list.tail;
    e.next = undefined;
    if (list.tail === undefined) list.head = item;
    else (list.tail.evict as EvictionState).next = item;
    list.tail = item;
  }

  /** Removes a grant from the victim lists (released or revoked). */
  remove(item: FlowItem): void {
    const e = item.evict;
    const list = this.#lists.get(item.flow.band.priority);
    if (e === undefined || list === undefined || (e.prev === undefined && list.head !== item)) return;
    if (e.prev === undefined) list.head = e.next;
    else (e.prev.evict as EvictionState).next = e.next;
    if (e.next === undefined) list.tail = e.prev;
    else (e.next.evict as EvictionState).prev = e.prev;
    e.prev = undefined;
    e.next = undefined;
  }

  /**
   * Revokes victims of priority below `blockedPriority` (and below 0) until the number of
   * revocations awaiting reclaim reaches the cap. Returns how many were revoked now.
   */
  evictFor(blockedPriority: number): number {
    let revoked = 0;
    while (this.#pending < this.#maxPending) {
      const victim = this.#pick(blockedPriority);
      if (victim === undefined) break;
      this.#revoke(victim);
      revoked++;
    }
    return revoked;
  }

  /** A revoked grant was released: its capacity came back. */
  released(item: FlowItem): void {
    const e = item.evict;
    if (e?.reclaimTimer === undefined) return;
    this.#clock.clearTimeout(e.reclaimTimer);
    e.reclaimTimer = undefined;
    this.#pending--;
    this.#hooks.pendingChanged(this.#pending);
    this.#hooks.reclaimed(item, this.#clock.now() - e.revokedAt);
  }

  /** The first victim of priority below `below`, in the order policy's order. */
  #pick(below: number): FlowItem | undefined {
    if (this.#builtInOrder) {
      for (const p of this.#priorities) {
        if (p >= below) return undefined;
        const tail = this.#lists.get(p)?.tail;
        if (tail !== undefined) return tail;
      }
      return undefined;
    }
    let best: FlowItem | undefined;
    for (const p of this.#priorities) {
      if (p >= below) break;
      for (let item = this.#lists.get(p)?.head; item !== undefined; item = item.evict?.next) {
        if (best === undefined || this.#order.compare(candidateOf(item), candidateOf(best)) < 0) best = item;
      }
    }
    return best;
  }

  #revoke(item: FlowItem): void {
    this.remove(item);
    item.state = ItemState.Revoked;
    this.#pending++;
    const e = item.evict as EvictionState;
    e.revokedAt = this.#clock.now();
    e.reclaimTimer = this.#clock.setTimeout(() => {
      e.reclaimTimer = undefined;
      this.#pending--;
      this.#hooks.pendingChanged(this.#pending);
      this.#hooks.timedOut(item);
    }, this.#timeoutMs);
    this.#hooks.pendingChanged(this.#pending);
    this.#hooks.revoked(item);
    e.controller.abort(new SwitchyardError('EVICTED', 'request evicted by flow control'));
  }
}

/** An evictor that records metrics and emits the controller's revocation events. */
export function createEvictor(config: FlowControlConfig, clock: Clock, metrics: FlowControlMetrics | undefined, events: EventEmitter<FlowControllerEvents>): Evictor {
  return new Evictor(clock, config.evictionReclaimTimeoutMs, config.maxEvictionsPerCycle, {
    revoked: (item) => {
      metrics?.revocationIssued(item.flow.priority);
      events.emit('revoked', item);
    },
    reclaimed: (_item, confirmationMs) => {
      metrics?.revocationFinished('confirmed');
      metrics?.revocationConfirmed(confirmationMs / 1000);
    },
    pendingChanged: (pending) => metrics?.pendingReclaim(pending),
    timedOut: (item) => {
      metrics?.revocationFinished('timed_out');
      events.emit('revocationTimedOut', item);
    },
  }, config.evictionFilter, config.evictionOrderPolicy);
}
