import type { Clock, EndpointPool } from '@switchyard/core';
import type { FlowControlConfig } from '../config/types.js';
import { BandTable, type BandTableHooks } from './bands.js';
import { Flow, type Band } from './flow.js';
import { ItemState, NEVER, type FlowItem, type ItemOwner } from './item.js';
import { TtlTracker } from './ttl.js';

/** What the queues report back to the controller (band/flow lifecycle, releases, expiries, aborts). */
export interface QueueEvents extends BandTableHooks, ItemOwner {
  /** A queued item's TTL ran out (already out of the TTL heap). */
  expire(item: FlowItem): void;
  /** A queued item's caller aborted. */
  abort(item: FlowItem): void;
}

/**
 * All queued items: the band table, the flows' queues, the fairness selectors, the TTL tracker
 * and the caller signals, kept consistent by the four operations here (enqueue, unqueue, take for
 * dispatch, pool flip).
 */
export class QueueSet {
  readonly table: BandTable;
  readonly ttl: TtlTracker;
  readonly #config: FlowControlConfig;
  readonly #clock: Clock;
  readonly #pool: EndpointPool;
  readonly #events: QueueEvents;
  // One shared abort listener and a weak map from signal to its queued item(s): cheaper than a
  // listener object per request, and dispatch need not unregister anything (the listener is
  // idempotent and registered at most once per signal).
  readonly #bySignal = new WeakMap<AbortSignal, FlowItem | FlowItem[]>();
  readonly #onAbort = (event: Event): void => {
    const signal = event.target as AbortSignal;
    const entry = this.#bySignal.get(signal);
    if (entry === undefined) return;
    this.#bySignal.delete(signal);
    for (const item of Array.isArray(entry) ? [...entry] : [entry]) {
      item.signal = undefined;
      this.#events.abort(item);
    }
  };
  #poolEmpty: boolean;
  #lastFlip = -Infinity;

  constructor(config: FlowControlConfig, clock: Clock, pool: EndpointPool, events: QueueEvents) {
    this.#config = config;
    this.#clock = clock;
    this.#pool = pool;
    this.#events = events;
    this.#poolEmpty = pool.size === 0;
    this.table = new BandTable(config, clock, events, events);
    this.ttl = new TtlTracker(clock, (item) => {
      events.expire(item);
    });
  }

  /** Cancels `item` when `signal` aborts while it is queued. */
  watch(item: FlowItem, signal: AbortSignal): void {
    item.signal = signal;
    const entry = this.#bySignal.get(signal);
    if (entry === undefined) {
      this.#bySignal.set(signal, item);
      signal.addEventListener('abort', this.#onAbort);
    } else if (Array.isArray(entry)) entry.push(item);
    else this.#bySignal.set(signal, [entry, item]);
  }

  /** Queues `item`: expiry, ordering key, flow queue, counters, selector, TTL. */
  enqueue(item: FlowItem): void {
    const flow = item.flow;
    const band = flow.band;
    item.expiresAt = this.#expiry(item);
    item.orderKey = band.settings.ordering.key(item);
    item.state = ItemState.Queued;
    const wasEmpty = flow.queue.size === 0;
    flow.queue.push(item);
    this.table.added(flow, item.byteSize);
    if (wasEmpty) band.selector.add(flow);
    else if (flow.queue.peek() === item) band.selector.headChanged(flow);
    this.ttl.track(item);
  }

  /** Takes a queued item out without dispatching it (cancellation, expiry, shutdown). */
  unqueue(item: FlowItem): void {
    const flow = item.flow;
    const wasHead = flow.queue.peek() === item;
    flow.queue.remove(item);
    this.#detach(item);
    if (flow.queue.size === 0) flow.band.selector.remove(flow);
    else if (wasHead) flow.band.selector.headChanged(flow);
  }

  /** Removes and returns the request the band's fairness and ordering policies pick next. */
  takeNext(band: Band): FlowItem {
    const flow = band.selector.select();
    if (!(flow instanceof Flow)) throw new TypeError(`fairness policy ${band.settings.fairness.name} returned a flow it was not given`);
    const item = flow.queue.pop() as FlowItem;
    this.#detach(item);
    band.selector.dispatched(flow, item);
    if (flow.queue.size === 0) band.selector.remove(flow);
    return item;
  }

  /**
   * Re-reads whether the pool is empty. On a flip, queued requests switch between the normal and
   * the no-endpoint TTL, charged from the flip (llm-d semantics). Returns whether it flipped.
   */
  checkFlip(): boolean {
    const empty = this.#pool.size === 0;
    if (empty === this.#poolEmpty) return false;
    this.#poolEmpty = empty;
    this.#lastFlip = this.#clock.now();
    const items = this.items();
    for (const item of items) item.expiresAt = this.#expiry(item);
    this.ttl.rebuild(items);
    return true;
  }

  /** A snapshot of every queued item. */
  items(): FlowItem[] {
    const out: FlowItem[] = [];
    for (const band of this.table.bands) for (const flow of band.flows.values()) out.push(...flow.queue.items());
    return out;
  }

  /** Stops timers (shutdown). */
  close(): void {
    this.ttl.clear();
    this.table.close();
  }

  #detach(item: FlowItem): void {
    this.table.removed(item.flow, item.byteSize);
    this.ttl.untrack(item);
    const signal = item.signal;
    if (signal === undefined) return;
    item.signal = undefined;
    const entry = this.#bySignal.get(signal);
    if (entry === item) this.#bySignal.delete(signal);
    else if (Array.isArray(entry)) {
      entry.splice(entry.indexOf(item), 1);
      if (entry.length === 0) this.#bySignal.delete(signal);
    }
  }

  #expiry(item: FlowItem): number {
    const ttl = this.#poolEmpty ? this.#config.noEndpointRequestTtlMs : item.ttlMs;
    // Queue time is charged from the later of enqueue and the last empty/non-empty flip of the pool.
    const byTtl = ttl > 0 ? Math.max(item.enqueuedAt, this.#lastFlip) + ttl : Infinity;
    const at = Math.min(byTtl, item.callerDeadline === NEVER ? Infinity : item.callerDeadline);
    return at === Infinity ? NEVER : at;
  }
}
