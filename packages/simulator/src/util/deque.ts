/**
 * A growable ring-buffer double-ended queue: O(1) push/pop at both ends, no `Array.shift()`.
 * @public
 */
export class Deque<T> {
  #buf: (T | undefined)[];
  #head = 0;
  #size = 0;

  /** @param capacity - initial capacity (rounded up to a power of two) */
  constructor(capacity = 16) {
    let c = 1;
    while (c < capacity) c <<= 1;
    this.#buf = new Array<T | undefined>(c);
  }

  /** Number of items. */
  get size(): number {
    return this.#size;
  }

  /** Appends at the back. */
  pushBack(item: T): void {
    if (this.#size === this.#buf.length) this.#grow();
    this.#buf[(this.#head + this.#size) & (this.#buf.length - 1)] = item;
    this.#size++;
  }

  /** Inserts at the front. */
  pushFront(item: T): void {
    if (this.#size === this.#buf.length) this.#grow();
    this.#head = (this.#head - 1) & (this.#buf.length - 1);
    this.#buf[this.#head] = item;
    this.#size++;
  }

  /** Removes and returns the front item. */
  popFront(): T | undefined {
    if (this.#size === 0) return undefined;
    const item = this.#buf[this.#head];
    this.#buf[this.#head] = undefined;
    this.#head = (this.#head + 1) & (this.#buf.length - 1);
    this.#size--;
    return item;
  }

  /** The front item, without removing it. */
  peekFront(): T | undefined {
    return this.#size === 0 ? undefined : this.#buf[this.#head];
  }

  /** Item at position `i` from the front. */
  at(i: number): T | undefined {
    return i < 0 || i >= this.#size ? undefined : this.#buf[(this.#head + i) & (this.#buf.length - 1)];
  }

  /** Removes every item. */
  clear(): void {
    this.#buf.fill(undefined);
    this.#head = 0;
    this.#size = 0;
  }

  #grow(): void {
    const old = this.#buf;
    const next = new Array<T | undefined>(old.length * 2);
    for (let i = 0; i < this.#size; i++) next[i] = old[(this.#head + i) & (old.length - 1)];
    this.#buf = next;
    this.#head = 0;
  }
}
