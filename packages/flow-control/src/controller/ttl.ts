import type { Clock, TimerHandle } from '@switchyard/core';
import { IndexedHeap } from '../structures/indexed-heap.js';
import { NEVER, expiresBefore, type FlowItem } from './item.js';

/**
 * Expires queued items exactly when their TTL runs out: one heap ordered by expiry and a single
 * clock timer armed for the earliest one. (llm-d sweeps every second, so a request may overstay
 * its TTL by up to a second; here it overstays by at most one clock step.)
 */
export class TtlTracker {
  readonly #heap = new IndexedHeap<FlowItem>(expiresBefore, {
    get: (i) => i.ttlIndex,
    set: (i, at) => (i.ttlIndex = at),
  });
  readonly #clock: Clock;
  readonly #onExpire: (item: FlowItem) => void;
  #timer: TimerHandle | undefined;
  #armedAt = Infinity;

  constructor(clock: Clock, onExpire: (item: FlowItem) => void) {
    this.#clock = clock;
    this.#onExpire = onExpire;
  }

  /** Items with a finite expiry. */
  get size(): number {
    return this.#heap.size;
  }

  /** Starts watching `item` (no-op when it never expires). */
  track(item: FlowItem): void {
    if (item.expiresAt === NEVER) return;
    this.#heap.push(item);
    if (item.expiresAt < this.#armedAt) this.#arm();
  }

  /** Stops watching `item`. The timer stays armed; firing early with nothing due just re-arms. */
  untrack(item: FlowItem): void {
    if (item.ttlIndex < 0) return;
    this.#heap.remove(item);
    if (this.#heap.size === 0) this.#disarm();
  }

  /** Replaces the watched set after expiries were recomputed in bulk (pool flips). */
  rebuild(items: Iterable<FlowItem>): void {
    this.#heap.drain();
    for (const item of items) if (item.expiresAt !== NEVER) this.#heap.push(item);
    this.#disarm();
    this.#arm();
  }

  /** Stops the timer and forgets every item. */
  clear(): void {
    this.#heap.drain();
    this.#disarm();
  }

  #arm(): void {
    const top = this.#heap.peek();
    if (top === undefined) {
      this.#disarm();
      return;
    }
    if (top.expiresAt === this.#armedAt) return;
    this.#disarm();
    this.#armedAt = top.expiresAt;
    this.#timer = this.#clock.setTimeout(() => {
      this.#fire();
    }, Math.max(0, top.expiresAt - this.#clock.now()));
  }

  #disarm(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Infinity;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = this.#clock.now();
    for (let top = this.#heap.peek(); top !== undefined && top.expiresAt <= now; top = this.#heap.peek()) {
      this.#heap.pop();
      this.#onExpire(top);
    }
    this.#arm();
  }
}
