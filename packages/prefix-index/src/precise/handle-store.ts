import { KeyTable } from '../table/key-table.js';

const NONE = -1;

/**
 * What one engine block stands for on the request side: the request keys that end inside it and
 * the chain state after it (last complete request key + tokens since that boundary), so a child
 * block naming it as parent continues the chain.
 * @internal
 */
export interface HandleRecordInit {
  /** Request keys completed inside this engine block (usually exactly one). */
  readonly keys: Float64Array;
  /** Last complete request key at the end of this block (or the root/parent's). */
  readonly chainKey: number;
  /** Tokens after the last request-block boundary (empty when aligned). */
  readonly pending: Uint32Array | undefined;
}

function growInt(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

function growFloat(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}

/**
 * Per-endpoint map engine-hash handle → record, with per-tier reference counts (engines may
 * store and remove the same hash twice). Records live in typed arrays; the common 1:1 case (one
 * request key per engine block, no pending tokens) needs no object at all.
 * @internal
 */
export class HandleStore {
  readonly #table = new KeyTable(256);
  readonly #tiers: number;
  #chainKey: Float64Array = new Float64Array(256);
  #key: Float64Array = new Float64Array(256);
  #extra: Int32Array = new Int32Array(256);
  #refs: Int32Array;
  #free: number[] = [];
  #used = 0;
  readonly #extras: (HandleRecordInit | undefined)[] = [];
  readonly #extraFree: number[] = [];

  constructor(tiers: number) {
    this.#tiers = tiers;
    this.#refs = new Int32Array(256 * tiers);
  }

  /** Number of records. */
  get size(): number {
    return this.#table.size;
  }

  /** Record index of a handle, or -1. */
  find(handle: number): number {
    return this.#table.get(handle);
  }

  /**
   * Creates a record for `handle` (which must be absent) owning `keys[from..from + count)`. The
   * common case (one key, no pending tokens) is stored without allocating.
   */
  create(handle: number, keys: Float64Array, from: number, count: number, chainKey: number, pending: Uint32Array | undefined): number {
    const r = this.#alloc();
    this.#chainKey[r] = chainKey;
    this.#refs.fill(0, r * this.#tiers, (r + 1) * this.#tiers);
    if (count === 1 && pending === undefined) {
      this.#key[r] = keys[from] as number;
      this.#extra[r] = NONE;
    } else {
      this.#key[r] = Number.NaN;
      const slot = this.#extraFree.pop() ?? this.#extras.length;
      this.#extras[slot] = { keys: keys.slice(from, from + count), chainKey, pending };
      this.#extra[r] = slot;
    }
    this.#table.set(handle, r);
    return r;
  }

  /** Deletes the record of `handle`. */
  delete(handle: number, r: number): void {
    this.#table.delete(handle);
    const x = this.#extra[r] as number;
    if (x !== NONE) {
      this.#extras[x] = undefined;
      this.#extraFree.push(x);
    }
    this.#free.push(r);
  }

  /** Chain key after record `r`. */
  chainKey(r: number): number {
    return this.#chainKey[r] as number;
  }

  /** Pending tokens after record `r`. */
  pending(r: number): Uint32Array | undefined {
    const x = this.#extra[r] as number;
    return x === NONE ? undefined : this.#extras[x]?.pending;
  }

  /** Number of request keys owned by record `r`. */
  keyCount(r: number): number {
    const x = this.#extra[r] as number;
    return x === NONE ? 1 : (this.#extras[x]?.keys.length ?? 0);
  }

  /** The `i`-th request key owned by record `r`. */
  keyAt(r: number, i: number): number {
    const x = this.#extra[r] as number;
    return x === NONE ? (this.#key[r] as number) : (this.#extras[x]?.keys[i] ?? Number.NaN);
  }

  /** Adds `delta` to the tier count of record `r`; returns the new count. */
  addRef(r: number, tier: number, delta: number): number {
    const i = r * this.#tiers + tier;
    const v = (this.#refs[i] as number) + delta;
    this.#refs[i] = v;
    return v;
  }

  /** True when no tier references record `r`. */
  unreferenced(r: number): boolean {
    const base = r * this.#tiers;
    for (let t = 0; t < this.#tiers; t++) if ((this.#refs[base + t] as number) > 0) return false;
    return true;
  }

  #alloc(): number {
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    if (this.#used === this.#key.length) {
      const n = Math.ceil(this.#key.length * 1.5);
      this.#chainKey = growFloat(this.#chainKey, n);
      this.#key = growFloat(this.#key, n);
      this.#extra = growInt(this.#extra, n);
      this.#refs = growInt(this.#refs, n * this.#tiers);
    }
    return this.#used++;
  }
}
