const EMPTY = -1;
const MIN_CAPACITY = 16;

/** Spreads a 53-bit integer key over 32 bits (the low word may be weak for non-random keys). */
function mix(key: number): number {
  const lo = key >>> 0;
  const hi = (key / 4294967296) >>> 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
}

/**
 * Open-addressing hash map from a non-negative 53-bit integer key to a non-negative int32 value.
 * Each slot is 16 bytes of one `ArrayBuffer`, the float64 key then the int32 value (seen through
 * two views), so a lookup touches one cache line instead of one in each of two arrays: at the
 * sizes a precise index reaches (hundreds of thousands of keys) almost every lookup misses the
 * cache, and that miss is most of its cost. Load factor between 1/8 and 1/2. Linear probing with
 * backward-shift deletion, so there are no tombstones and lookups stay short after many
 * deletions. No per-entry objects, so the garbage collector never scans the contents.
 * @public
 */
export class KeyTable {
  /** Slot `i`'s key is `#keys[2i]`. */
  #keys: Float64Array;
  /** Slot `i`'s value is `#values[4i + 2]` (same buffer as `#keys`). */
  #values: Int32Array;
  #mask: number;
  #size = 0;

  /** @param initialCapacity - slots to start with (rounded up to a power of two) */
  constructor(initialCapacity = MIN_CAPACITY) {
    let cap = MIN_CAPACITY;
    while (cap < initialCapacity) cap *= 2;
    [this.#keys, this.#values] = slots(cap);
    this.#mask = cap - 1;
  }

  /** Number of keys. */
  get size(): number {
    return this.#size;
  }

  /** Bytes held by the backing arrays. */
  get byteLength(): number {
    return this.#keys.byteLength;
  }

  /** Value of `key`, or -1 when absent. */
  get(key: number): number {
    return this.#values[4 * this.#slot(key) + 2] as number;
  }

  /** Sets `key` to `value` (value must be ≥ 0). */
  set(key: number, value: number): void {
    if ((this.#size + 1) * 2 > this.#mask + 1) this.#resize((this.#mask + 1) * 2);
    const i = this.#slot(key);
    if (this.#values[4 * i + 2] === EMPTY) this.#size++;
    this.#keys[2 * i] = key;
    this.#values[4 * i + 2] = value;
  }

  /** Removes `key`; returns whether it was present. */
  delete(key: number): boolean {
    const keys = this.#keys;
    const values = this.#values;
    const mask = this.#mask;
    const i = this.#slot(key);
    if (values[4 * i + 2] === EMPTY) return false;
    // Backward-shift: move later members of the probe run into the hole when that keeps them
    // reachable from their home slot.
    let hole = i;
    let j = (i + 1) & mask;
    for (;;) {
      const v = values[4 * j + 2] as number;
      if (v === EMPTY) break;
      const k = keys[2 * j] as number;
      const home = mix(k) & mask;
      const dist = (j - home) & mask;
      const holeDist = (j - hole) & mask;
      if (dist >= holeDist) {
        keys[2 * hole] = k;
        values[4 * hole + 2] = v;
        hole = j;
      }
      j = (j + 1) & mask;
    }
    values[4 * hole + 2] = EMPTY;
    this.#size--;
    const cap = this.#mask + 1;
    if (cap > MIN_CAPACITY && this.#size * 8 < cap) this.#resize(cap / 2);
    return true;
  }

  /** Removes every key. */
  clear(): void {
    [this.#keys, this.#values] = slots(MIN_CAPACITY);
    this.#mask = MIN_CAPACITY - 1;
    this.#size = 0;
  }

  /** Calls `fn` for every (key, value). Do not mutate the table inside `fn`. */
  forEach(fn: (key: number, value: number) => void): void {
    const keys = this.#keys;
    const values = this.#values;
    for (let i = 0; i <= this.#mask; i++) {
      const v = values[4 * i + 2] as number;
      if (v !== EMPTY) fn(keys[2 * i] as number, v);
    }
  }

  /** The slot holding `key`, or the empty slot that ends its probe run (linear probing). */
  #slot(key: number): number {
    const keys = this.#keys;
    const values = this.#values;
    const mask = this.#mask;
    let i = mix(key) & mask;
    while (values[4 * i + 2] !== EMPTY && keys[2 * i] !== key) i = (i + 1) & mask;
    return i;
  }

  #resize(capacity: number): void {
    const oldKeys = this.#keys;
    const oldValues = this.#values;
    const oldCap = this.#mask + 1;
    const [keys, values] = slots(capacity);
    const mask = capacity - 1;
    for (let j = 0; j < oldCap; j++) {
      const v = oldValues[4 * j + 2] as number;
      if (v === EMPTY) continue;
      const k = oldKeys[2 * j] as number;
      let i = mix(k) & mask;
      while (values[4 * i + 2] !== EMPTY) i = (i + 1) & mask;
      keys[2 * i] = k;
      values[4 * i + 2] = v;
    }
    this.#keys = keys;
    this.#values = values;
    this.#mask = mask;
  }
}

/** `capacity` empty slots: one buffer seen as float64 keys and int32 values. */
function slots(capacity: number): [Float64Array, Int32Array] {
  const buffer = new ArrayBuffer(capacity * 16);
  const values = new Int32Array(buffer);
  for (let i = 0; i < capacity; i++) values[4 * i + 2] = EMPTY;
  return [new Float64Array(buffer), values];
}
