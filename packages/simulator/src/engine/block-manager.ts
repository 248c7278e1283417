import type { SimBlockRemovedEvent, SimKvEvent } from './kv-events.js';
import { CpuTier } from './cpu-tier.js';
import { CachedBlocks } from './cached-blocks.js';

/**
 * What the block manager needs from a request holding blocks.
 * @public
 * @category Engine
 */
export interface KvBlockOwner {
  /** GPU block ids held, in order (replaced with a new empty array on release). */
  blockTable: number[];
  /** Blocks of `blockTable` already registered in the prefix cache (or reused from it). */
  numCommitted: number;
  /** Chained hashes of the request's full blocks, at least as far as blocks are committed. */
  readonly hashes: readonly number[];
  /** LoRA adapter, reported in `BlockStored`. */
  readonly adapter: string | undefined;
  /** Token id at a position of prompt + output. */
  tokenAt(i: number): number;
  /** Copies tokens `[start, start + n)` of prompt + output into `out` from index 0. */
  copyTokens(start: number, n: number, out: number[]): void;
}

/** First and largest number of blocks {@link BlockManager.matchPrefix} looks up at once. */
const FIRST_MATCH_BATCH = 8;
const MAX_MATCH_BATCH = 64;

/**
 * Paged KV cache of one engine, as vLLM v1's block pool: a fixed array of blocks with reference
 * counts; full blocks are registered under their chained hash (duplicates too, as vLLM does, so
 * block tables stay append-only); a freed block keeps its hash and
 * goes to the tail of an LRU free list, so it is still a prefix hit until the allocator takes it
 * from the head (that eviction is the only thing that emits `BlockRemoved`). Typed arrays and an
 * intrusive doubly-linked list keep every operation O(1) per block.
 * @public
 * @category Engine
 */
export class BlockManager {
  /** Number of GPU blocks. */
  readonly numBlocks: number;
  /** Tokens per block. */
  readonly blockSize: number;
  readonly #ref: Int32Array;
  readonly #hash: Float64Array;
  readonly #prev: Int32Array;
  readonly #next: Int32Array;
  readonly #inFree: Uint8Array;
  #head = -1;
  #tail = -1;
  #numFree = 0;
  readonly #cached: CachedBlocks;
  /** Blocks found by one batch of {@link BlockManager.matchPrefix}'s lookups. */
  readonly #matchScratch = new Int32Array(MAX_MATCH_BATCH);
  readonly #cpu: CpuTier | undefined;
  #events: SimKvEvent[] | undefined;
  #removed: SimBlockRemovedEvent | undefined;
  #evictions = 0;

  /**
   * @param numBlocks - GPU blocks
   * @param blockSize - tokens per block
   * @param numCpuBlocks - CPU-tier capacity in blocks (0 = no tier)
   */
  constructor(numBlocks: number, blockSize: number, numCpuBlocks = 0) {
    this.numBlocks = numBlocks;
    this.blockSize = blockSize;
    this.#ref = new Int32Array(numBlocks);
    this.#hash = new Float64Array(numBlocks);
    this.#prev = new Int32Array(numBlocks);
    this.#next = new Int32Array(numBlocks);
    this.#inFree = new Uint8Array(numBlocks);
    this.#cached = new CachedBlocks(numBlocks);
    this.#cpu = numCpuBlocks > 0 ? new CpuTier(numCpuBlocks) : undefined;
    for (let b = 0; b < numBlocks; b++) this.#append(b);
  }

  /** Starts recording KV events into `sink` (undefined stops). */
  recordEvents(sink: SimKvEvent[] | undefined): void {
    this.#events = sink;
  }

  /** Blocks on the free list (including free blocks that still hold a cached hash). */
  get numFree(): number {
    return this.#numFree;
  }

  /** Blocks referenced by at least one request. */
  get numUsed(): number {
    return this.numBlocks - this.#numFree;
  }

  /** Blocks registered in the prefix cache (in use or free; duplicate copies count). */
  get numCached(): number {
    return this.#cached.size;
  }

  /** Blocks evicted (cached hash dropped on reuse) since creation. */
  get evictions(): number {
    return this.#evictions;
  }

  /** Hashes held by the CPU tier (0 without a tier). */
  get numCpuCached(): number {
    return this.#cpu?.size ?? 0;
  }

  /** Reference count of a block. */
  refCount(block: number): number {
    return this.#ref[block] ?? 0;
  }

  /** Cached hash of a block (0 = none). */
  hashOf(block: number): number {
    return this.#hash[block] ?? 0;
  }

  /** Whether a block is on the free list. */
  isFree(block: number): boolean {
    return this.#inFree[block] === 1;
  }

  /** A block holding `hash` in the GPU cache, if any. */
  lookup(hash: number): number | undefined {
    const b = this.#cached.get(hash);
    return b < 0 ? undefined : b;
  }

  /** Every block registered under `hash` (duplicates included). */
  copiesOf(hash: number): number[] {
    return this.#cached.copies(hash);
  }

  /** Free-list order, head (next to evict) first. */
  freeList(): number[] {
    const out: number[] = [];
    for (let b = this.#head; b !== -1; b = this.#next[b] ?? -1) out.push(b);
    return out;
  }

  /**
   * Length of the cached prefix of `hashes` (at most `maxBlocks`): `gpu` leading blocks found in
   * the GPU cache, then `cpu` further blocks found in the CPU tier; `evictable` counts GPU hits that
   * sit on the free list (taking them uses up free blocks).
   */
  matchPrefix(hashes: readonly number[], maxBlocks: number): { gpu: number; cpu: number; evictable: number } {
    const limit = Math.min(maxBlocks, hashes.length);
    const found = this.#matchScratch;
    let gpu = 0;
    let evictable = 0;
    let batch = FIRST_MATCH_BATCH;
    // The lookups of a batch are independent, so they run in a tight loop before any result is
    // used: nearly every one misses the CPU cache, and the CPU overlaps those misses instead of
    // waiting for each in turn. Batches grow from 8 to 64 blocks, so a prompt that stops hitting
    // early looks few blocks up in vain. Lookups change nothing, so the result is the same.
    walk: while (gpu < limit) {
      const start = gpu;
      const end = Math.min(start + batch, limit);
      for (let i = start; i < end; i++) found[i - start] = this.#cached.get(hashes[i] ?? 0);
      for (; gpu < end; gpu++) {
        const block = found[gpu - start] as number;
        if (block < 0) break walk;
        if (this.#inFree[block] === 1) evictable++;
      }
      if (batch < MAX_MATCH_BATCH) batch *= 2;
    }
    let cpu = 0;
    if (this.#cpu !== undefined) while (gpu + cpu < limit && this.#cpu.has(hashes[gpu + cpu] ?? 0)) cpu++;
    return { gpu, cpu, evictable };
  }

  /**
   * Admits a waiting sequence: takes its `gpuHits` cached blocks and allocates fresh ones up to
   * `totalTokens`. CPU-tier hits (`cpuHits`, right after the GPU hits) get fresh blocks registered
   * under their hashes at once, as if loaded. Returns false (changing nothing) when free blocks
   * do not suffice.
   */
  admit(seq: KvBlockOwner, gpuHits: number, evictable: number, cpuHits: number, totalTokens: number): boolean {
    const needed = Math.ceil(totalTokens / this.blockSize) - gpuHits;
    if (needed + evictable > this.#numFree) return false;
    const table = seq.blockTable;
    for (let i = 0; i < gpuHits; i++) {
      const block = this.#cached.get(seq.hashes[i] ?? 0);
      if (this.#inFree[block] === 1) this.#unlink(block);
      this.#ref[block] = (this.#ref[block] ?? 0) + 1;
      table.push(block);
    }
    // Refresh CPU hits before allocating: evictions below push hashes into the CPU LRU.
    for (let i = gpuHits; i < gpuHits + cpuHits; i++) this.#cpu?.touch(seq.hashes[i] ?? 0);
    for (let i = 0; i < needed; i++) table.push(this.#take());
    seq.numCommitted = gpuHits;
    if (cpuHits > 0) this.commit(seq, gpuHits + cpuHits);
    this.#flushRemoved();
    return true;
  }

  /** Grows a running sequence's table to hold `totalTokens`; false (no change) when blocks run out. */
  grow(seq: KvBlockOwner, totalTokens: number): boolean {
    const needed = Math.ceil(totalTokens / this.blockSize) - seq.blockTable.length;
    if (needed <= 0) return true;
    if (needed > this.#numFree) return false;
    for (let i = 0; i < needed; i++) seq.blockTable.push(this.#take());
    this.#flushRemoved();
    return true;
  }

  /**
   * Registers the sequence's full blocks `[numCommitted, upTo)` in the prefix cache and records one
   * `BlockStored` for them. A block whose hash another block already holds is registered as a
   * duplicate, as vLLM does: every stored block is later evicted with its own `BlockRemoved`.
   */
  commit(seq: KvBlockOwner, upTo: number): void {
    const from = seq.numCommitted;
    if (upTo <= from) return;
    for (let b = from; b < upTo; b++) {
      const block = seq.blockTable[b] ?? -1;
      if (block < 0) continue;
      const h = seq.hashes[b] ?? 0;
      this.#hash[block] = h;
      this.#cached.add(h, block);
    }
    seq.numCommitted = upTo;
    const events = this.#events;
    if (events !== undefined) {
      const bs = this.blockSize;
      const tokenIds: number[] = new Array<number>((upTo - from) * bs);
      seq.copyTokens(from * bs, tokenIds.length, tokenIds);
      events.push({
        type: 'BlockStored',
        blockHashes: seq.hashes.slice(from, upTo),
        parentBlockHash: from === 0 ? null : (seq.hashes[from - 1] ?? null),
        tokenIds,
        blockSize: bs,
        loraName: seq.adapter ?? null,
        medium: 'GPU',
      });
    }
  }

  /** Releases a sequence's blocks, last block first (so its tail is evicted before its head). */
  release(seq: KvBlockOwner): void {
    const table = seq.blockTable;
    for (let i = table.length - 1; i >= 0; i--) {
      const block = table[i] ?? -1;
      const r = (this.#ref[block] ?? 0) - 1;
      this.#ref[block] = r;
      if (r === 0) this.#append(block);
    }
    seq.blockTable = [];
    seq.numCommitted = 0;
  }

  /** Drops every cached hash (vLLM `reset_prefix_cache`) and records `AllBlocksCleared`. */
  reset(): void {
    this.#hash.fill(0);
    this.#cached.clear();
    this.#cpu?.clear();
    this.#events?.push({ type: 'AllBlocksCleared' });
  }

  #take(): number {
    const block = this.#head;
    this.#unlink(block);
    const h = this.#hash[block] ?? 0;
    if (h !== 0) {
      this.#hash[block] = 0;
      this.#cached.remove(h, block);
      this.#evictions++;
      this.#cpu?.touch(h);
      if (this.#events !== undefined) {
        this.#removed ??= { type: 'BlockRemoved', blockHashes: [], medium: 'GPU' };
        (this.#removed.blockHashes as number[]).push(h);
      }
    }
    this.#ref[block] = 1;
    return block;
  }

  #flushRemoved(): void {
    if (this.#removed === undefined) return;
    this.#events?.push(this.#removed);
    this.#removed = undefined;
  }

  #append(block: number): void {
    this.#prev[block] = this.#tail;
    this.#next[block] = -1;
    if (this.#tail === -1) this.#head = block;
    else this.#next[this.#tail] = block;
    this.#tail = block;
    this.#inFree[block] = 1;
    this.#numFree++;
  }

  #unlink(block: number): void {
    const p = this.#prev[block] ?? -1;
    const n = this.#next[block] ?? -1;
    if (p === -1) this.#head = n;
    else this.#next[p] = n;
    if (n === -1) this.#tail = p;
    else this.#prev[n] = p;
    this.#inFree[block] = 0;
    this.#numFree--;
  }
}
