const NONE = -1;

function growInt(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/**
 * Typed-array storage of (block, endpoint) entries of the approximate index: per entry its block
 * key, owning endpoint slot, the next holder of the same block, and LRU links within the owner's
 * list (24 bytes). Freed entries are chained through `next` and reused; arrays grow by half.
 * @internal
 */
export class EntrySlab {
  key: Float64Array;
  owner: Int32Array;
  next: Int32Array;
  lruPrev: Int32Array;
  lruNext: Int32Array;
  #free = NONE;
  #used = 0;

  constructor(initial = 1024) {
    this.key = new Float64Array(initial);
    this.owner = new Int32Array(initial);
    this.next = new Int32Array(initial);
    this.lruPrev = new Int32Array(initial);
    this.lruNext = new Int32Array(initial);
  }

  /** Allocated entries (live + free). */
  get capacity(): number {
    return this.key.length;
  }

  /** Bytes of the backing arrays. */
  get byteLength(): number {
    return this.key.length * 24;
  }

  /** A fresh entry index. */
  alloc(): number {
    if (this.#free !== NONE) {
      const e = this.#free;
      this.#free = this.next[e] as number;
      return e;
    }
    if (this.#used === this.key.length) this.#grow();
    return this.#used++;
  }

  /** Returns an entry to the free list. */
  release(e: number): void {
    this.next[e] = this.#free;
    this.owner[e] = NONE;
    this.#free = e;
  }

  /** Forgets every entry and shrinks back to `initial`. */
  reset(initial = 1024): void {
    this.key = new Float64Array(initial);
    this.owner = new Int32Array(initial);
    this.next = new Int32Array(initial);
    this.lruPrev = new Int32Array(initial);
    this.lruNext = new Int32Array(initial);
    this.#free = NONE;
    this.#used = 0;
  }

  #grow(): void {
    const n = Math.max(1024, Math.ceil(this.key.length * 1.5));
    const key = new Float64Array(n);
    key.set(this.key);
    this.key = key;
    this.owner = growInt(this.owner, n);
    this.next = growInt(this.next, n);
    this.lruPrev = growInt(this.lruPrev, n);
    this.lruNext = growInt(this.lruNext, n);
  }
}
