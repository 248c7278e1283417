const EMPTY = -1;
const MIN_CAPACITY = 16;

/** Spreads a 53-bit integer key over 32 bits (the low word may be weak for non-random keys). */
function mix(key: number): number {
  const lo = key >>> 0;
  const hi = (key / 4294967296) >>> 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
}

/**
 * Open-addressing hash map from a non-negative 53-bit integer key to a non-negative int32 value,
 * stored in two typed arrays (12 bytes per slot, load factor between 1/8 and 1/2). Linear probing
 * with backward-shift deletion, so there are no tombstones and lookups stay short after many
 * deletions. No per-entry objects, so the garbage collector never scans the contents.
 * @public
 */
export class KeyTable {
  #keys: Float64Array;
  #values: Int32Array;
  #mask: number;
  #size = 0;

  /** @param initialCapacity - slots to start with (rounded up to a power of two) */
  constructor(initialCapacity = MIN_CAPACITY) {
    let cap = MIN_CAPACITY;
    while (cap < initialCapacity) cap *= 2;
    this.#keys = new Float64Array(cap);
    this.#values = new Int32Array(cap).fill(EMPTY);
    this.#mask = cap - 1;
  }

  /** Number of keys. */
  get size(): number {
    return this.#size;
  }

  /** Bytes held by the backing arrays. */
  get byteLength(): number {
    return this.#keys.byteLength + this.#values.byteLength;
  }

  /** Value of `key`, or -1 when absent. */
  get(key: number): number {
    return this.#values[this.#slot(key)] as number;
  }

  /** Sets `key` to `value` (value must be ≥ 0). */
  set(key: number, value: number): void {
    if ((this.#size + 1) * 2 > this.#mask + 1) this.#resize((this.#mask + 1) * 2);
    const i = this.#slot(key);
    if (this.#values[i] === EMPTY) this.#size++;
    this.#keys[i] = key;
    this.#values[i] = value;
  }

  /** Removes `key`; returns whether it was present. */
  delete(key: number): boolean {
    const keys = this.#keys;
    const values = this.#values;
    const mask = this.#mask;
    const i = this.#slot(key);
    if (values[i] === EMPTY) return false;
    // Backward-shift: move later members of the probe run into the hole when that keeps them
    // reachable from their home slot.
    let hole = i;
    let j = (i + 1) & mask;
    for (;;) {
      const v = values[j] as number;
      if (v === EMPTY) break;
      const k = keys[j] as number;
      const home = mix(k) & mask;
      const dist = (j - home) & mask;
      const holeDist = (j - hole) & mask;
      if (dist >= holeDist) {
        keys[hole] = k;
        values[hole] = v;
        hole = j;
      }
      j = (j + 1) & mask;
    }
    values[hole] = EMPTY;
    this.#size--;
    const cap = this.#mask + 1;
    if (cap > MIN_CAPACITY && this.#size * 8 < cap) this.#resize(cap / 2);
    return true;
  }

  /** Removes every key. */
  clear(): void {
    this.#keys = new Float64Array(MIN_CAPACITY);
    this.#values = new Int32Array(MIN_CAPACITY).fill(EMPTY);
    this.#mask = MIN_CAPACITY - 1;
    this.#size = 0;
  }

  /** Calls `fn` for every (key, value). Do not mutate the table inside `fn`. */
  forEach(fn: (key: number, value: number) => void): void {
    const keys = this.#keys;
    const values = this.#values;
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (v !== EMPTY) fn(keys[i] as number, v);
    }
  }

  /** The slot holding `key`, or the empty slot that ends its probe run (linear probing). */
  #slot(key: number): number {
    const keys = this.#keys;
    const values = this.#values;
    const mask = this.#mask;
    let i = mix(key) & mask;
    while (values[i] !== EMPTY && keys[i] !== key) i = (i + 1) & mask;
    return i;
  }

  #resize(capacity: number): void {
    const oldKeys = this.#keys;
    const oldValues = this.#values;
    const keys = new Float64Array(capacity);
    const values = new Int32Array(capacity).fill(EMPTY);
    const mask = capacity - 1;
    for (let j = 0; j < oldValues.length; j++) {
      const v = oldValues[j] as number;
      if (v === EMPTY) continue;
      const k = oldKeys[j] as number;
      let i = mix(k) & mask;
      while (values[i] !== EMPTY) i = (i + 1) & mask;
      keys[i] = k;
      values[i] = v;
    }
    this.#keys = keys;
    this.#values = values;
    this.#mask = mask;
  }
}
