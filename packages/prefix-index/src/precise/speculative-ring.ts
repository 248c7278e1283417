import type { HolderTable } from './holder-table.js';

/**
 * FIFO of speculative entries (key, endpoint slot, slot generation, expiry, and the holder-table
 * entry it counted in, as a hint that spares the lookup on expiry), as a growable ring buffer:
 * entries expire in insertion order because the TTL is constant.
 * @internal
 */
export class SpeculativeRing {
  #keys = new Float64Array(256);
  #slots = new Int32Array(256);
  #gens = new Int32Array(256);
  #expires = new Float64Array(256);
  #entries = new Int32Array(256);
  #head = 0;
  #size = 0;

  /** Queued entries. */
  get size(): number {
    return this.#size;
  }

  /** Appends an entry. */
  push(key: number, slot: number, gen: number, expiresAt: number, entry: number): void {
    if (this.#size === this.#keys.length) this.#grow();
    const i = (this.#head + this.#size) % this.#keys.length;
    this.#keys[i] = key;
    this.#slots[i] = slot;
    this.#gens[i] = gen;
    this.#expires[i] = expiresAt;
    this.#entries[i] = entry;
    this.#size++;
  }

  /** Pops entries that expired at `now` (or all beyond `maxSize`), calling `fn` for each. */
  expire(now: number, maxSize: number, fn: (key: number, slot: number, gen: number, entry: number) => void): void {
    const cap = this.#keys.length;
    while (this.#size > 0) {
      const i = this.#head;
      if ((this.#expires[i] as number) > now && this.#size <= maxSize) break;
      fn(this.#keys[i] as number, this.#slots[i] as number, this.#gens[i] as number, this.#entries[i] as number);
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
    const entries = new Int32Array(n);
    for (let k = 0; k < this.#size; k++) {
      const i = (this.#head + k) % cap;
      keys[k] = this.#keys[i] as number;
      slots[k] = this.#slots[i] as number;
      gens[k] = this.#gens[i] as number;
      expires[k] = this.#expires[i] as number;
      entries[k] = this.#entries[i] as number;
    }
    this.#keys = keys;
    this.#slots = slots;
    this.#gens = gens;
    this.#expires = expires;
    this.#entries = entries;
    this.#head = 0;
  }
}

/**
 * Speculative entries of a precise index: keys a pick predicts an endpoint will hold, counted in
 * the holder table's speculative tier until the engine confirms them with a BlockStored or their
 * TTL expires. Entries of an endpoint cleared since (older generation) expire without effect.
 * @internal
 */
export class Speculations {
  readonly #ring = new SpeculativeRing();
  readonly #holders: HolderTable;
  readonly #tier: number;
  readonly #ttl: number;
  readonly #gens: readonly number[];
  /** Undoes one expired entry (created once: expiry runs on every match). */
  readonly #undo = (key: number, slot: number, gen: number, entry: number): void => {
    if ((this.#gens[slot] ?? 0) === gen) this.#holders.adjustAt(entry, key, slot, this.#tier, -1);
  };

  constructor(holders: HolderTable, tier: number, ttlMs: number, gens: readonly number[]) {
    this.#holders = holders;
    this.#tier = tier;
    this.#ttl = ttlMs;
    this.#gens = gens;
  }

  /** Whether any speculation is live. */
  get active(): boolean {
    return this.#ring.size > 0;
  }

  /**
   * Counts `key` as held by `slot` until `now + ttl` (or confirmation). `head`: the key's holder
   * list head at the table's current version, when known (see {@link HolderTable.adjustFrom}).
   */
  add(key: number, slot: number, now: number, head = -1): void {
    const entry = head >= 0 ? this.#holders.adjustFrom(head, key, slot, this.#tier, 1) : this.#holders.adjust(key, slot, this.#tier, 1);
    this.#ring.push(key, slot, this.#gens[slot] ?? 0, now + this.#ttl, entry);
  }

  /** The engine confirmed `key` on `slot` (`entry`: its holder entry, a hint): its events alone decide from now on. */
  confirm(key: number, slot: number, entry = -1): void {
    this.#holders.clearTierAt(entry, key, slot, this.#tier);
  }

  /** Drops speculations whose TTL ended by `now`. */
  expire(now: number): void {
    if (this.#ring.size === 0) return;
    this.#ring.expire(now, 1_000_000, this.#undo);
  }
}
