import { KeyTable } from '../table/key-table.js';

const NONE = -1;

/**
 * Request key → endpoints holding it, with a reference count per cache tier for each (key,
 * endpoint) entry. An entry is one record of `stride` int32s in `data` (owner slot, next holder,
 * then one count per tier), so walking a key's holders touches one cache line per entry rather
 * than one per field; the entry's key is kept apart (only removal and hints read it). Entries are
 * freed when every count is zero.
 * @internal
 */
export class HolderTable {
  readonly table = new KeyTable(1024);
  readonly tiers: number;
  /** Int32s per entry: owner, next, one count per tier. */
  readonly stride: number;
  /** Entry records: `data[e·stride]` owner slot, `[+1]` next entry of the same key, `[+2+t]` count of tier t. */
  data: Int32Array;
  key: Float64Array = new Float64Array(1024);
  #free = NONE;
  #used = 0;
  #live = 0;
  #version = 0;

  constructor(tiers: number) {
    this.tiers = tiers;
    this.stride = 2 + tiers;
    this.data = new Int32Array(1024 * this.stride);
  }

  /** Live (key, endpoint) entries. */
  get size(): number {
    return this.#live;
  }

  /**
   * Changes whenever an entry is created or freed, the only operations that change which entry
   * heads a key's holder list: a head read at one version is still the head at the same version.
   */
  get version(): number {
    return this.#version;
  }

  /** Bytes of the typed arrays. */
  get byteLength(): number {
    return this.table.byteLength + this.key.byteLength + this.data.byteLength;
  }

  /** Owner slot of entry `e`. */
  ownerOf(e: number): number {
    return this.data[e * this.stride] as number;
  }

  /** Next entry of the same key after `e`, or -1. */
  nextOf(e: number): number {
    return this.data[e * this.stride + 1] as number;
  }

  /** Entry of (key, slot), or -1. */
  find(key: number, slot: number): number {
    const d = this.data;
    const S = this.stride;
    for (let e = this.table.get(key); e !== NONE; e = d[e * S + 1] as number) if (d[e * S] === slot) return e;
    return NONE;
  }

  /**
   * Adds `delta` to the tier count of (key, slot), creating or freeing the entry as needed.
   * @returns the entry of (key, slot) afterwards, or -1 when there is none
   */
  adjust(key: number, slot: number, tier: number, delta: number): number {
    const head = this.table.get(key);
    const S = this.stride;
    let e = head;
    while (e !== NONE && this.data[e * S] !== slot) e = this.data[e * S + 1] as number;
    if (e === NONE) {
      if (delta <= 0) return NONE;
      e = this.#alloc();
      this.key[e] = key;
      this.data[e * S] = slot;
      this.data[e * S + 1] = head;
      this.table.set(key, e);
      this.#live++;
    }
    return this.#add(e, tier, delta);
  }

  /**
   * {@link HolderTable.adjust} given `head`, the head of the key's holder list read at some
   * earlier version (negative: unknown). Entries created since then are linked in front of it and
   * none was freed while the caller only added, so when (key, slot) is found from `head` it is the
   * entry; when it is not, this falls back to the lookup (which also sees entries created since).
   * Only for callers that have checked {@link HolderTable.version} and have not removed entries.
   */
  adjustFrom(head: number, key: number, slot: number, tier: number, delta: number): number {
    const d = this.data;
    const S = this.stride;
    for (let e = head; e >= 0; e = d[e * S + 1] as number) if (d[e * S] === slot) return this.#add(e, tier, delta);
    return this.adjust(key, slot, tier, delta);
  }

  /**
   * {@link HolderTable.adjust} given a hint: `e`, an entry (key, slot) had earlier. Entries are
   * unique per (key, slot), so when `e` still holds (key, slot) it is the entry and no lookup is
   * needed; otherwise (freed, reused by another key) this falls back to the lookup.
   */
  adjustAt(e: number, key: number, slot: number, tier: number, delta: number): number {
    if (this.#holds(e, key, slot)) return this.#add(e, tier, delta);
    return this.adjust(key, slot, tier, delta);
  }

  /** Zeroes one tier's count of (key, slot), freeing the entry when nothing else holds it. */
  clearTier(key: number, slot: number, tier: number): void {
    this.clearTierAt(this.find(key, slot), key, slot, tier);
  }

  /** {@link HolderTable.clearTier} given a hint entry, as {@link HolderTable.adjustAt}. */
  clearTierAt(hint: number, key: number, slot: number, tier: number): void {
    const e = this.#holds(hint, key, slot) ? hint : this.find(key, slot);
    if (e === NONE) return;
    this.data[e * this.stride + 2 + tier] = 0;
    if (this.#empty(e)) this.#remove(e);
  }

  /** Removes every entry owned by `slot` (a full scan: only on endpoint removal and resets). */
  removeOwner(slot: number): void {
    for (let e = 0; e < this.#used; e++) if (this.data[e * this.stride] === slot) this.#remove(e);
  }

  /** Weight of an entry: the highest weight among tiers with a non-zero count. */
  weightOf(e: number, weights: Float64Array): number {
    let w = 0;
    const base = e * this.stride + 2;
    for (let t = 0; t < this.tiers; t++) {
      if ((this.data[base + t] as number) > 0) {
        const tw = weights[t] as number;
        if (tw > w) w = tw;
      }
    }
    return w;
  }

  #holds(e: number, key: number, slot: number): boolean {
    return e >= 0 && this.data[e * this.stride] === slot && this.key[e] === key;
  }

  #add(e: number, tier: number, delta: number): number {
    const i = e * this.stride + 2 + tier;
    const v = Math.max(0, (this.data[i] as number) + delta);
    this.data[i] = v;
    if (v === 0 && this.#empty(e)) {
      this.#remove(e);
      return NONE;
    }
    return e;
  }

  #empty(e: number): boolean {
    const base = e * this.stride + 2;
    for (let t = 0; t < this.tiers; t++) if ((this.data[base + t] as number) !== 0) return false;
    return true;
  }

  #remove(e: number): void {
    const d = this.data;
    const S = this.stride;
    const key = this.key[e] as number;
    const head = this.table.get(key);
    if (head === e) {
      const rest = d[e * S + 1] as number;
      if (rest === NONE) this.table.delete(key);
      else this.table.set(key, rest);
    } else {
      let p = head;
      while (p !== NONE && d[p * S + 1] !== e) p = d[p * S + 1] as number;
      if (p !== NONE) d[p * S + 1] = d[e * S + 1] as number;
    }
    d.fill(0, e * S + 2, (e + 1) * S);
    d[e * S] = NONE;
    d[e * S + 1] = this.#free;
    this.#free = e;
    this.#live--;
    this.#version++;
  }

  #alloc(): number {
    this.#version++;
    if (this.#free !== NONE) {
      const e = this.#free;
      this.#free = this.data[e * this.stride + 1] as number;
      return e;
    }
    if (this.#used === this.key.length) {
      const n = Math.ceil(this.key.length * 1.5);
      const key = new Float64Array(n);
      key.set(this.key);
      this.key = key;
      const data = new Int32Array(n * this.stride);
      data.set(this.data);
      this.data = data;
    }
    return this.#used++;
  }
}
