import type { Clock, EndpointPool } from '@switchyard/core';
import type { FlowControlConfig } from '../config/types.js';
import { BandTable, type BandTableHooks } from './bands.js';
import { Flow, type Band } from './flow.js';
import { ItemState, type FlowItem } from './item.js';
import { TtlTracker } from './ttl.js';

/**
 * All queued items: the band table, the flows' queues, the fairness selectors and the TTL
 * tracker, kept consistent by the four operations here (enqueue, unqueue, take for dispatch,
 * pool flip).
 */
export class QueueSet {
  readonly table: BandTable;
  readonly ttl: TtlTracker;
  readonly #config: FlowControlConfig;
  readonly #clock: Clock;
  readonly #pool: EndpointPool;
  #poolEmpty: boolean;
  #lastFlip = -Infinity;

  constructor(config: FlowControlConfig, clock: Clock, pool: EndpointPool, hooks: BandTableHooks, onExpire: (item: FlowItem) => void) {
    this.#config = config;
    this.#clock = clock;
    this.#pool = pool;
    this.#poolEmpty = pool.size === 0;
    this.table = new BandTable(config, clock, hooks);
    this.ttl = new TtlTracker(clock, onExpire);
  }

  /** Queues `item`: expiry, ordering key, flow queue, counters, selector, TTL. */
  enqueue(item: FlowItem): void {
    const flow = item.flow;
    const band = flow.band;
    item.expiresAt = this.#expiry(item);
    item.deadline = item.expiresAt;
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
    if (item.signal !== undefined) {
      item.signal.removeEventListener('abort', item);
      item.signal = undefined;
    }
  }

  #expiry(item: FlowItem): number {
    const noEndpointTtl = this.#config.noEndpointRequestTtlMs;
    const ttl = this.#poolEmpty ? (noEndpointTtl > 0 ? noEndpointTtl : Infinity) : item.ttlMs;
    // Queue time is charged from the later of enqueue and the last empty/non-empty flip of the pool.
    return Math.min(item.callerDeadline, Math.max(item.enqueuedAt, this.#lastFlip) + ttl);
  }
}
