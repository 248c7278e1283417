/**
 * A small LRU map with a fixed capacity, built on `Map` insertion order (re-inserting on access
 * makes an entry the most recent; the first key is the least recent).
 * @public
 */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();
  readonly #capacity: number;

  /** @param capacity - entries kept (0 disables caching) */
  constructor(capacity: number) {
    this.#capacity = Math.max(0, Math.floor(capacity));
  }

  /** Cached value, refreshed as most recent. */
  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }

  /** Stores a value, evicting the least recent entry when full. */
  set(key: K, value: V): void {
    if (this.#capacity === 0) return;
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#capacity) {
      const oldest = this.#map.keys().next();
      if (oldest.done !== true) this.#map.delete(oldest.value);
    }
  }

  /** Number of entries. */
  get size(): number {
    return this.#map.size;
  }

  /** Removes every entry. */
  clear(): void {
    this.#map.clear();
  }
}
