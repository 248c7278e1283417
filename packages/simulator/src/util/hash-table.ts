/**
 * An open-addressing hash table from block hashes (53-bit positive integers, never 0) to
 * non-negative int32 values, with linear probing and backward-shift deletion. It replaces a
 * `Map<number, number>` on the engine's hottest path: Maps hash non-Smi doubles slowly, while here a
 * lookup is one multiply and a few typed-array reads. Each slot is 16 bytes of one buffer (float64
 * key, then int32 value, seen through two views), so a lookup that misses the CPU cache misses it
 * once, not once per array.
 * @public
 */
export class BlockHashTable {
  /** Slot `i`'s key is `#keys[2i]`. */
  #keys: Float64Array;
  /** Slot `i`'s value is `#vals[4i + 2]` (same buffer). */
  #vals: Int32Array;
  #mask: number;
  #shift: number;
  #size = 0;

  /** @param expected - number of entries the table should hold without growing */
  constructor(expected = 1024) {
    let cap = 16;
    while (cap < expected * 2) cap <<= 1;
    [this.#keys, this.#vals] = slots(cap);
    this.#mask = cap - 1;
    this.#shift = 32 - Math.log2(cap);
  }

  /** Entries. */
  get size(): number {
    return this.#size;
  }

  #slot(key: number): number {
    const lo = key >>> 0;
    const hi = (key / 4294967296) >>> 0;
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.#shift;
  }

  /** Value stored under `key`, or -1. */
  get(key: number): number {
    const keys = this.#keys;
    const mask = this.#mask;
    for (let i = this.#slot(key); ; i = (i + 1) & mask) {
      const k = keys[2 * i] ?? 0;
      if (k === key) return this.#vals[4 * i + 2] ?? -1;
      if (k === 0) return -1;
    }
  }

  /** Whether `key` is present. */
  has(key: number): boolean {
    return this.get(key) !== -1;
  }

  /** Stores `value` (>= 0) under `key` (> 0), replacing any previous value. */
  set(key: number, value: number): void {
    if ((this.#size + 1) * 2 > this.#mask + 1) this.#grow();
    const keys = this.#keys;
    const mask = this.#mask;
    for (let i = this.#slot(key); ; i = (i + 1) & mask) {
      const k = keys[2 * i] ?? 0;
      if (k === 0 || k === key) {
        if (k === 0) this.#size++;
        keys[2 * i] = key;
        this.#vals[4 * i + 2] = value;
        return;
      }
    }
  }

  /** Removes `key`; returns whether it was present. */
  delete(key: number): boolean {
    const keys = this.#keys;
    const vals = this.#vals;
    const mask = this.#mask;
    let i = this.#slot(key);
    for (;;) {
      const k = keys[2 * i] ?? 0;
      if (k === 0) return false;
      if (k === key) break;
      i = (i + 1) & mask;
    }
    // Backward-shift: pull later entries of the probe run into the hole so lookups never stop early.
    let hole = i;
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const k = keys[2 * j] ?? 0;
      if (k === 0) break;
      const home = this.#slot(k);
      const distHole = (hole - home) & mask;
      const distJ = (j - home) & mask;
      if (distHole <= distJ) {
        keys[2 * hole] = k;
        vals[4 * hole + 2] = vals[4 * j + 2] ?? 0;
        hole = j;
      }
    }
    keys[2 * hole] = 0;
    this.#size--;
    return true;
  }

  /** Removes everything. */
  clear(): void {
    this.#keys.fill(0);
    this.#size = 0;
  }

  #grow(): void {
    const oldKeys = this.#keys;
    const oldVals = this.#vals;
    const oldCap = this.#mask + 1;
    const cap = oldCap * 2;
    [this.#keys, this.#vals] = slots(cap);
    this.#mask = cap - 1;
    this.#shift = 32 - Math.log2(cap);
    this.#size = 0;
    for (let i = 0; i < oldCap; i++) {
      const k = oldKeys[2 * i] ?? 0;
      if (k !== 0) this.set(k, oldVals[4 * i + 2] ?? 0);
    }
  }
}

/** `capacity` empty slots (key 0): one buffer seen as float64 keys and int32 values. */
function slots(capacity: number): [Float64Array, Int32Array] {
  const buffer = new ArrayBuffer(capacity * 16);
  return [new Float64Array(buffer), new Int32Array(buffer)];
}
