import { EventEmitter } from 'eventemitter3';
import type { BlockKeys, EndpointMatch, KeyChain, PrefixIndex, PrefixIndexStats, PrefixMatchResult } from '../api/types.js';
import { EndpointSlots } from '../table/endpoint-slots.js';
import { KeyTable } from '../table/key-table.js';
import { EntrySlab } from './entry-slab.js';

const NONE = -1;

/**
 * llm-d's default per-endpoint capacity of the approximate index, in blocks, when the engine's
 * block count is unknown.
 * @public
 * @category Approximate
 */
export const DEFAULT_LRU_CAPACITY_PER_ENDPOINT = 31250;

/**
 * Options of {@link ApproximatePrefixIndex}.
 * @public
 * @category Approximate
 */
export interface ApproximatePrefixIndexOptions {
  /**
   * Hard capacity (blocks) of an endpoint's LRU, read once when the endpoint's first block is
   * added. Default {@link DEFAULT_LRU_CAPACITY_PER_ENDPOINT}.
   */
  readonly capacityFor?: (endpointId: string) => number;
}

/**
 * Events of an {@link ApproximatePrefixIndex}; a cross-replica syncer listens to `added` and
 * replays it on the other replicas' indexes.
 * @public
 * @category Approximate
 */
export interface ApproximatePrefixIndexEvents {
  /** Keys were recorded for an endpoint. */
  added: [endpointId: string, keys: BlockKeys];
  /** An endpoint was forgotten. */
  endpointRemoved: [endpointId: string];
}

/** Per-endpoint LRU list head/tail and bounds. */
interface EndpointLru {
  mru: number;
  lru: number;
  size: number;
  readonly capacity: number;
}

/**
 * The approximate prefix index: learns which endpoint holds which blocks from routing decisions.
 * Each endpoint has an LRU list with a hard capacity; a reverse map block → holders answers
 * matches and is updated on every eviction, so the two never disagree. Entries live in typed
 * arrays (about 24 bytes each plus the block map), so memory stays bounded by the sum of
 * capacities whatever the traffic.
 *
 * Match semantics (llm-d): walk each chain, stop at the first block no endpoint holds; every
 * endpoint holding the current block gets +1 (not strictly contiguous per endpoint).
 * @public
 * @category Approximate
 */
export class ApproximatePrefixIndex extends EventEmitter<ApproximatePrefixIndexEvents> implements PrefixIndex {
  /** Always `approximate`. */
  readonly kind = 'approximate';
  readonly #table = new KeyTable(1024);
  readonly #slab = new EntrySlab();
  readonly #slots = new EndpointSlots();
  readonly #lrus: (EndpointLru | undefined)[] = [];
  readonly #capacityFor: (endpointId: string) => number;
  #counts = new Int32Array(64);
  #touched = new Int32Array(64);
  #entries = 0;
  #evictions = 0;
  #lookups = 0;

  constructor(options: ApproximatePrefixIndexOptions = {}) {
    super();
    this.#capacityFor = options.capacityFor ?? (() => DEFAULT_LRU_CAPACITY_PER_ENDPOINT);
  }

  /** Indexed (block, endpoint) entries. */
  get size(): number {
    return this.#entries;
  }

  /** Bytes held by the typed arrays (block map + entries), excluding per-endpoint bookkeeping. */
  get byteLength(): number {
    return this.#table.byteLength + this.#slab.byteLength;
  }

  /** Entries held for one endpoint. */
  endpointSize(endpointId: string): number {
    const slot = this.#slots.get(endpointId);
    return slot < 0 ? 0 : (this.#lrus[slot]?.size ?? 0);
  }

  /**
   * Records that `endpointId` holds `keys`. Blocks are inserted tail first so the head of the
   * prompt ends up most recently used: evicting the head first would destroy the whole prefix
   * match (llm-d #2661).
   */
  add(endpointId: string, keys: BlockKeys): void {
    if (keys.totalBlocks === 0) return;
    const slot = this.#slots.acquire(endpointId);
    let lru = this.#lrus[slot];
    if (lru === undefined) {
      const cap = Math.max(1, Math.floor(this.#capacityFor(endpointId)));
      lru = { mru: NONE, lru: NONE, size: 0, capacity: cap };
      this.#lrus[slot] = lru;
    }
    for (let c = keys.chains.length - 1; c >= 0; c--) {
      const chain = keys.chains[c] as KeyChain;
      for (let i = chain.length - 1; i >= 0; i--) this.#touch(chain[i] as number, slot, lru);
    }
    if (this.listenerCount('added') > 0) this.emit('added', endpointId, keys);
  }

  /** Matches `keys`; see the class description. */
  match(keys: BlockKeys, endpointIds?: readonly string[]): PrefixMatchResult {
    this.#ensureScratch();
    const counts = this.#counts;
    const touched = this.#touched;
    const table = this.#table;
    const owner = this.#slab.owner;
    const next = this.#slab.next;
    let nTouched = 0;
    for (const chain of keys.chains) {
      for (let i = 0; i < chain.length; i++) {
        this.#lookups++;
        let e = table.get(chain[i] as number);
        if (e === NONE) break;
        while (e !== NONE) {
          const s = owner[e] as number;
          if (counts[s] === 0) touched[nTouched++] = s;
          counts[s] = (counts[s] as number) + 1;
          e = next[e] as number;
        }
      }
    }
    const byEndpoint = new Map<string, EndpointMatch>();
    if (endpointIds === undefined) {
      for (let t = 0; t < nTouched; t++) {
        const s = touched[t] as number;
        const id = this.#slots.idOf(s);
        const n = counts[s] as number;
        if (id !== undefined) byEndpoint.set(id, { weightedBlocks: n, cachedBlocks: n });
      }
    } else {
      for (const id of endpointIds) {
        const s = this.#slots.get(id);
        const n = s < 0 ? 0 : (counts[s] as number);
        if (n > 0) byEndpoint.set(id, { weightedBlocks: n, cachedBlocks: n });
      }
    }
    for (let t = 0; t < nTouched; t++) counts[touched[t] as number] = 0;
    return { byEndpoint, totalBlocks: keys.totalBlocks };
  }

  /** Forgets an endpoint and all its entries. */
  removeEndpoint(endpointId: string): void {
    const slot = this.#slots.get(endpointId);
    if (slot < 0) return;
    const lru = this.#lrus[slot];
    if (lru !== undefined) {
      while (lru.lru !== NONE) this.#evict(lru.lru, lru, false);
    }
    this.#lrus[slot] = undefined;
    this.#slots.release(endpointId);
    if (this.listenerCount('endpointRemoved') > 0) this.emit('endpointRemoved', endpointId);
  }

  /** Forgets everything. */
  clear(): void {
    for (const id of [...this.#slots.ids()]) this.removeEndpoint(id);
    this.#table.clear();
    this.#slab.reset();
  }

  /** Counters and sizes. */
  stats(): PrefixIndexStats {
    return {
      entries: this.#entries,
      blocks: this.#table.size,
      endpoints: this.#slots.size,
      evictions: this.#evictions,
      lookups: this.#lookups,
    };
  }

  /** Ids of the endpoints holding `key` (for tests and debugging). */
  holders(key: number): string[] {
    const out: string[] = [];
    for (let e = this.#table.get(key); e !== NONE; e = this.#slab.next[e] as number) {
      const id = this.#slots.idOf(this.#slab.owner[e] as number);
      if (id !== undefined) out.push(id);
    }
    return out;
  }

  #touch(key: number, slot: number, lru: EndpointLru): void {
    const slab = this.#slab;
    const head = this.#table.get(key);
    for (let e = head; e !== NONE; e = slab.next[e] as number) {
      if (slab.owner[e] === slot) {
        this.#moveToMru(e, lru);
        return;
      }
    }
    const e = slab.alloc();
    slab.key[e] = key;
    slab.owner[e] = slot;
    slab.next[e] = head;
    this.#table.set(key, e);
    slab.lruPrev[e] = NONE;
    slab.lruNext[e] = lru.mru;
    if (lru.mru !== NONE) slab.lruPrev[lru.mru] = e;
    lru.mru = e;
    if (lru.lru === NONE) lru.lru = e;
    lru.size++;
    this.#entries++;
    if (lru.size > lru.capacity) this.#evict(lru.lru, lru, true);
  }

  #moveToMru(e: number, lru: EndpointLru): void {
    if (lru.mru === e) return;
    const slab = this.#slab;
    const prev = slab.lruPrev[e] as number;
    const next = slab.lruNext[e] as number;
    // e is not the MRU, so it has a predecessor.
    slab.lruNext[prev] = next;
    if (next !== NONE) slab.lruPrev[next] = prev;
    else lru.lru = prev;
    slab.lruPrev[e] = NONE;
    slab.lruNext[e] = lru.mru;
    slab.lruPrev[lru.mru] = e;
    lru.mru = e;
  }

  #evict(e: number, lru: EndpointLru, counted: boolean): void {
    const slab = this.#slab;
    const prev = slab.lruPrev[e] as number;
    const next = slab.lruNext[e] as number;
    if (prev !== NONE) slab.lruNext[prev] = next;
    else lru.mru = next;
    if (next !== NONE) slab.lruPrev[next] = prev;
    else lru.lru = prev;
    lru.size--;
    const key = slab.key[e] as number;
    const head = this.#table.get(key);
    if (head === e) {
      const rest = slab.next[e] as number;
      if (rest === NONE) this.#table.delete(key);
      else this.#table.set(key, rest);
    } else {
      let p = head;
      while (p !== NONE && slab.next[p] !== e) p = slab.next[p] as number;
      if (p !== NONE) slab.next[p] = slab.next[e] as number;
    }
    slab.release(e);
    this.#entries--;
    if (counted) this.#evictions++;
  }

  #ensureScratch(): void {
    const need = this.#slots.capacity;
    if (this.#counts.length < need) {
      this.#counts = new Int32Array(need * 2);
      this.#touched = new Int32Array(need * 2);
    }
  }
}
