import { KeyTable } from '../table/key-table.js';

const NONE = -1;

function growInt(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/**
 * Request key → endpoints holding it, with a reference count per cache tier for each (key,
 * endpoint) entry. Entries live in typed arrays (key, owner, next holder, per-tier counts) and are
 * freed when every count is zero.
 * @internal
 */
export class HolderTable {
  readonly table = new KeyTable(1024);
  readonly tiers: number;
  key: Float64Array = new Float64Array(1024);
  owner: Int32Array = new Int32Array(1024);
  next: Int32Array = new Int32Array(1024);
  counts: Int32Array;
  #free = NONE;
  #used = 0;
  #live = 0;

  constructor(tiers: number) {
    this.tiers = tiers;
    this.counts = new Int32Array(1024 * tiers);
  }

  /** Live (key, endpoint) entries. */
  get size(): number {
    return this.#live;
  }

  /** Bytes of the typed arrays. */
  get byteLength(): number {
    return this.table.byteLength + this.key.byteLength + this.owner.byteLength + this.next.byteLength + this.counts.byteLength;
  }

  /** Entry of (key, slot), or -1. */
  find(key: number, slot: number): number {
    for (let e = this.table.get(key); e !== NONE; e = this.next[e] as number) if (this.owner[e] === slot) return e;
    return NONE;
  }

  /** Adds `delta` to the tier count of (key, slot), creating or freeing the entry as needed. */
  adjust(key: number, slot: number, tier: number, delta: number): void {
    const head = this.table.get(key);
    let e = head;
    while (e !== NONE && this.owner[e] !== slot) e = this.next[e] as number;
    if (e === NONE) {
      if (delta <= 0) return;
      e = this.#alloc();
      this.key[e] = key;
      this.owner[e] = slot;
      this.next[e] = head;
      this.table.set(key, e);
      this.#live++;
    }
    const i = e * this.tiers + tier;
    const v = Math.max(0, (this.counts[i] as number) + delta);
    this.counts[i] = v;
    if (v === 0 && this.#empty(e)) this.#remove(e);
  }

  /** Zeroes one tier's count of (key, slot), freeing the entry when nothing else holds it. */
  clearTier(key: number, slot: number, tier: number): void {
    const e = this.find(key, slot);
    if (e === NONE) return;
    this.counts[e * this.tiers + tier] = 0;
    if (this.#empty(e)) this.#remove(e);
  }

  /** Removes every entry owned by `slot` (a full scan: only on endpoint removal and resets). */
  removeOwner(slot: number): void {
    for (let e = 0; e < this.#used; e++) if (this.owner[e] === slot) this.#remove(e);
  }

  /** Weight of an entry: the highest weight among tiers with a non-zero count. */
  weightOf(e: number, weights: Float64Array): number {
    let w = 0;
    const base = e * this.tiers;
    for (let t = 0; t < this.tiers; t++) {
      if ((this.counts[base + t] as number) > 0) {
        const tw = weights[t] as number;
        if (tw > w) w = tw;
      }
    }
    return w;
  }

  #empty(e: number): boolean {
    const base = e * this.tiers;
    for (let t = 0; t < this.tiers; t++) if ((this.counts[base + t] as number) !== 0) return false;
    return true;
  }

  #remove(e: number): void {
    const key = this.key[e] as number;
    const head = this.table.get(key);
    if (head === e) {
      const rest = this.next[e] as number;
      if (rest === NONE) this.table.delete(key);
      else this.table.set(key, rest);
    } else {
      let p = head;
      while (p !== NONE && this.next[p] !== e) p = this.next[p] as number;
      if (p !== NONE) this.next[p] = this.next[e] as number;
    }
    this.counts.fill(0, e * this.tiers, (e + 1) * this.tiers);
    this.owner[e] = NONE;
    this.next[e] = this.#free;
    this.#free = e;
    this.#live--;
  }

  #alloc(): number {
    if (this.#free !== NONE) {
      const e = this.#free;
      this.#free = this.next[e] as number;
      return e;
    }
    if (this.#used === this.key.length) {
      const n = Math.ceil(this.key.length * 1.5);
      const key = new Float64Array(n);
      key.set(this.key);
      this.key = key;
      this.owner = growInt(this.owner, n);
      this.next = growInt(this.next, n);
      this.counts = growInt(this.counts, n * this.tiers);
    }
    return this.#used++;
  }
}
