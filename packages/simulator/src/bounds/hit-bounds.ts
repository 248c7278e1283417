import type { RequestBlocks } from './block-streams.js';

/**
 * Unlimited-cache hit bound: for each request (in arrival order), the blocks of the longest
 * leading run of its queryable blocks that appeared in any earlier request's prompt or output.
 * No policy on any fleet can reuse more, since a block must be computed once before it can be
 * reused. Returns hit blocks per request.
 * @public
 * @category Bounds
 */
export function unlimitedCacheHits(streams: readonly RequestBlocks[]): Int32Array {
  const seen = new Set<number>();
  const hits = new Int32Array(streams.length);
  streams.forEach((s, i) => {
    let k = 0;
    while (k < s.queryable && seen.has(s.hashes[k] ?? 0)) k++;
    hits[i] = k;
    for (const h of s.hashes) seen.add(h);
  });
  return hits;
}

/** A binary max-heap of (key, hash) pairs with lazy deletion, for Belady's eviction. */
class MaxHeap {
  keys: Float64Array = new Float64Array(1024);
  vals: Float64Array = new Float64Array(1024);
  size = 0;

  push(key: number, val: number): void {
    if (this.size === this.keys.length) {
      const k = new Float64Array(this.size * 2);
      const v = new Float64Array(this.size * 2);
      k.set(this.keys);
      v.set(this.vals);
      this.keys = k;
      this.vals = v;
    }
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((this.keys[p] ?? 0) >= key) break;
      this.keys[i] = this.keys[p] ?? 0;
      this.vals[i] = this.vals[p] ?? 0;
      i = p;
    }
    this.keys[i] = key;
    this.vals[i] = val;
  }

  /** Removes the top; returns its [key, val] in the out array. */
  pop(out: [number, number]): void {
    out[0] = this.keys[0] ?? 0;
    out[1] = this.vals[0] ?? 0;
    const n = --this.size;
    const key = this.keys[n] ?? 0;
    const val = this.vals[n] ?? 0;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && (this.keys[c + 1] ?? 0) > (this.keys[c] ?? 0)) c++;
      if ((this.keys[c] ?? 0) <= key) break;
      this.keys[i] = this.keys[c] ?? 0;
      this.vals[i] = this.vals[c] ?? 0;
      i = c;
    }
    this.keys[i] = key;
    this.vals[i] = val;
  }
}

/** Keys order blocks for eviction: later next use first, and among equals the deeper block. */
const DEPTH_SPAN = 1 << 20;

/**
 * Capacity-aware hit bound: Belady's optimal (farthest next use) eviction over the merged block
 * stream of the whole fleet, treated as one cache of `capacityBlocks` blocks, on the arrival
 * order. Splitting the cache over pods, pinning running requests' blocks and not knowing the
 * future can only lose hits, so no policy reaches more. Blocks are only kept for a later *lookup*
 * (being regenerated as output does not count as a use). Returns hit blocks per request.
 * @param capacityBlocks - total KV blocks of the fleet (pods × GPU blocks, plus CPU-tier blocks)
 * @public
 * @category Bounds
 */
export function beladyHits(streams: readonly RequestBlocks[], capacityBlocks: number): Int32Array {
  const n = streams.length;
  // next[i][b]: index of the next request after i that looks block b up (Infinity if none).
  const next: Float64Array[] = new Array<Float64Array>(n);
  const nextQuery = new Map<number, number>();
  for (let i = n - 1; i >= 0; i--) {
    const s = streams[i] as RequestBlocks;
    const nx = new Float64Array(s.hashes.length);
    for (let b = 0; b < s.hashes.length; b++) nx[b] = nextQuery.get(s.hashes[b] ?? 0) ?? Infinity;
    next[i] = nx;
    for (let b = 0; b < s.queryable; b++) nextQuery.set(s.hashes[b] ?? 0, i);
  }
  nextQuery.clear();
  const cache = new Map<number, number>(); // hash -> heap key of its live entry
  const heap = new MaxHeap();
  const top: [number, number] = [0, 0];
  const hits = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = streams[i] as RequestBlocks;
    let k = 0;
    while (k < s.queryable && cache.has(s.hashes[k] ?? 0)) k++;
    hits[i] = k;
    const nx = next[i] as Float64Array;
    for (let b = 0; b < s.hashes.length; b++) {
      const h = s.hashes[b] ?? 0;
      const use = nx[b] ?? Infinity;
      if (use === Infinity) {
        cache.delete(h); // never looked up again: keeping it cannot help
        continue;
      }
      const key = use * DEPTH_SPAN + Math.min(b, DEPTH_SPAN - 1);
      cache.set(h, key);
      heap.push(key, h);
    }
    while (cache.size > capacityBlocks && heap.size > 0) {
      heap.pop(top);
      if (cache.get(top[1]) === top[0]) cache.delete(top[1]);
    }
    next[i] = new Float64Array(0); // free as we go
  }
  return hits;
}
