/**
 * FIFO of speculative entries (key, endpoint slot, slot generation, expiry), as a growable ring
 * buffer: entries expire in insertion order because the TTL is constant.
 * @internal
 */
export class SpeculativeRing {
  #keys = new Float64Array(256);
  #slots = new Int32Array(256);
  #gens = new Int32Array(256);
  #expires = new Float64Array(256);
  #head = 0;
  #size = 0;

  /** Queued entries. */
  get size(): number {
    return this.#size;
  }

  /** Appends an entry. */
  push(key: number, slot: number, gen: number, expiresAt: number): void {
    if (this.#size === this.#keys.length) this.#grow();
    const i = (this.#head + this.#size) % this.#keys.length;
    this.#keys[i] = key;
    this.#slots[i] = slot;
    this.#gens[i] = gen;
    this.#expires[i] = expiresAt;
    this.#size++;
  }

  /** Pops entries that expired at `now` (or all beyond `maxSize`), calling `fn` for each. */
  expire(now: number, maxSize: number, fn: (key: number, slot: number, gen: number) => void): void {
    const cap = this.#keys.length;
    while (this.#size > 0) {
      const i = this.#head;
      if ((this.#expires[i] as number) > now && this.#size <= maxSize) break;
      fn(this.#keys[i] as number, this.#slots[i] as number, this.#gens[i] as number);
      this.#head = (i + 1) % cap;
      this.#size--;
    }
  }

  #grow(): void {
    const cap = this.#keys.length;
    const n = cap * 2;
    const keys = new Float64Array(n);
    const slots = new Int32Array(n);
    const gens = new Int32Array(n);
    const expires = new Float64Array(n);
    for (let k = 0; k < this.#size; k++) {
      const i = (this.#head + k) % cap;
      keys[k] = this.#keys[i] as number;
      slots[k] = this.#slots[i] as number;
      gens[k] = this.#gens[i] as number;
      expires[k] = this.#expires[i] as number;
    }
    this.#keys = keys;
    this.#slots = slots;
    this.#gens = gens;
    this.#expires = expires;
    this.#head = 0;
  }
}
