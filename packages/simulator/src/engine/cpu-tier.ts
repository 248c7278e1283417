/**
 * Optional CPU tier of the KV cache: an LRU set of block hashes offloaded when the GPU evicts
 * them. A request whose prefix continues in the CPU tier after its GPU hits loads those blocks
 * over PCIe (priced by the cost model) instead of recomputing them. Map insertion order is the
 * LRU order, so touch and evict are O(1).
 * @internal
 */
export class CpuTier {
  readonly #capacity: number;
  readonly #set = new Map<number, true>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#set.size;
  }

  has(hash: number): boolean {
    return this.#set.has(hash);
  }

  /** Inserts or refreshes a hash, evicting the least recently used one when full. */
  touch(hash: number): void {
    if (this.#set.delete(hash)) {
      this.#set.set(hash, true);
      return;
    }
    if (this.#set.size >= this.#capacity) {
      const oldest = this.#set.keys().next();
      if (oldest.done !== true) this.#set.delete(oldest.value);
    }
    this.#set.set(hash, true);
  }

  clear(): void {
    this.#set.clear();
  }
}
