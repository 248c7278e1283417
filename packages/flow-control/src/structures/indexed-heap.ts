/**
 * Where an {@link IndexedHeap} stores each item's position, so an item can sit in several heaps
 * at once (a request is in its flow's queue and in the TTL heap).
 * @public
 */
export interface HeapSlot<T> {
  /** Reads the item's position (-1 when it is not in the heap). */
  get(item: T): number;
  /** Writes the item's position (-1 on removal). */
  set(item: T, index: number): void;
}

/**
 * A binary min-heap whose items know their position, so arbitrary items can be removed or
 * re-prioritised in O(log n) (cancellation and TTL expiry remove from the middle of queues).
 * `less` must be a strict weak order; ties should be broken by an arrival sequence so equal
 * keys keep FIFO order.
 * @public
 */
export class IndexedHeap<T> {
  readonly #items: T[] = [];
  readonly #less: (a: T, b: T) => boolean;
  readonly #slot: HeapSlot<T>;

  /**
   * @param less - true when `a` must come out before `b`
   * @param slot - where each item's position is stored
   */
  constructor(less: (a: T, b: T) => boolean, slot: HeapSlot<T>) {
    this.#less = less;
    this.#slot = slot;
  }

  /** Number of items. */
  get size(): number {
    return this.#items.length;
  }

  /** The first item, without removing it. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Items in heap (not sorted) order; do not mutate. */
  items(): readonly T[] {
    return this.#items;
  }

  /** Adds an item. */
  push(item: T): void {
    this.#items.push(item);
    this.#up(this.#items.length - 1, item);
  }

  /** Removes and returns the first item. */
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    if (top === undefined) return undefined;
    const last = items.pop() as T;
    this.#slot.set(top, -1);
    if (items.length > 0) this.#down(0, last);
    return top;
  }

  /** Removes `item` if it is in the heap; returns whether it was. */
  remove(item: T): boolean {
    const i = this.#slot.get(item);
    const items = this.#items;
    if (i < 0 || i >= items.length || items[i] !== item) return false;
    const last = items.pop() as T;
    this.#slot.set(item, -1);
    if (i < items.length) {
      // The moved item may belong above or below the hole.
      if (i > 0 && this.#less(last, items[(i - 1) >> 1] as T)) this.#up(i, last);
      else this.#down(i, last);
    }
    return true;
  }

  /** Restores order after `item`'s key changed. */
  update(item: T): void {
    const i = this.#slot.get(item);
    if (i < 0 || this.#items[i] !== item) return;
    if (i > 0 && this.#less(item, this.#items[(i - 1) >> 1] as T)) this.#up(i, item);
    else this.#down(i, item);
  }

  /** Restores order after many keys changed at once (O(n)). */
  rebuild(): void {
    const items = this.#items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.#down(i, items[i] as T);
  }

  /** Removes every item (positions reset to -1) and returns them. */
  drain(): T[] {
    const out = this.#items.splice(0);
    for (const item of out) this.#slot.set(item, -1);
    return out;
  }

  #up(i: number, item: T): void {
    const items = this.#items;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = items[parentIndex] as T;
      if (!this.#less(item, parent)) break;
      items[i] = parent;
      this.#slot.set(parent, i);
      i = parentIndex;
    }
    items[i] = item;
    this.#slot.set(item, i);
  }

  #down(i: number, item: T): void {
    const items = this.#items;
    const n = items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && this.#less(items[r] as T, items[l] as T) ? r : l;
      const c = items[child] as T;
      if (!this.#less(c, item)) break;
      items[i] = c;
      this.#slot.set(c, i);
      i = child;
    }
    items[i] = item;
    this.#slot.set(item, i);
  }
}
