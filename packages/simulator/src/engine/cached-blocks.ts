import { BlockHashTable } from '../util/hash-table.js';

/**
 * The prefix-cache registry of a block pool: block hash → the blocks holding it. Like vLLM v1's
 * `BlockHashToBlockMap`, it keeps duplicates: when two requests compute the same block (two
 * requests of a cold prefix prefilling side by side, or the last block of a fully cached prompt,
 * which is always recomputed), both blocks are registered, each announced by its own
 * `BlockStored` and each evicted with its own `BlockRemoved`, so an event consumer that counts
 * stores and removals per hash stays exact. Copies of a hash form a chain through `#nextCopy`;
 * lookups return the most recently registered copy.
 * @internal
 */
export class CachedBlocks {
  readonly #table: BlockHashTable;
  readonly #nextCopy: Int32Array;
  #blocks = 0;

  /** @param numBlocks - blocks of the pool */
  constructor(numBlocks: number) {
    this.#table = new BlockHashTable(numBlocks);
    this.#nextCopy = new Int32Array(numBlocks).fill(-1);
  }

  /** Registered blocks, duplicates included. */
  get size(): number {
    return this.#blocks;
  }

  /** A block holding `hash`, or -1. */
  get(hash: number): number {
    return this.#table.get(hash);
  }

  /** Registers `block` under `hash`. */
  add(hash: number, block: number): void {
    const head = this.#table.get(hash);
    this.#nextCopy[block] = head;
    this.#table.set(hash, block);
    this.#blocks++;
  }

  /** Unregisters `block` from `hash` (no-op when it is not registered there). */
  remove(hash: number, block: number): void {
    const head = this.#table.get(hash);
    if (head < 0) return;
    const next = this.#nextCopy;
    if (head === block) {
      const rest = next[block] ?? -1;
      if (rest < 0) this.#table.delete(hash);
      else this.#table.set(hash, rest);
    } else {
      let p = head;
      while (p >= 0 && next[p] !== block) p = next[p] ?? -1;
      if (p < 0) return;
      next[p] = next[block] ?? -1;
    }
    next[block] = -1;
    this.#blocks--;
  }

  /** Blocks registered under `hash` (for invariant checks). */
  copies(hash: number): number[] {
    const out: number[] = [];
    for (let b = this.#table.get(hash); b >= 0; b = this.#nextCopy[b] ?? -1) out.push(b);
    return out;
  }

  /** Forgets everything. */
  clear(): void {
    this.#table.clear();
    this.#nextCopy.fill(-1);
    this.#blocks = 0;
  }
}
