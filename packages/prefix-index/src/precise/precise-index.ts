import { systemClock, type Clock } from '@switchyard/core';
import type { BlockKeys, PrefixIndex, PrefixIndexStats, PrefixMatchResult } from '../api/types.js';
import type { PrefixHasher } from '../hashing/prefix-hasher.js';
import { engineHashHandle } from '../kv-events/hash-value.js';
import type { BlockRemovedEvent, BlockStoredEvent, KvEventBatch } from '../kv-events/types.js';
import { EndpointSlots } from '../table/endpoint-slots.js';
import { HandleStore } from './handle-store.js';
import { HolderTable } from './holder-table.js';
import { Speculations } from './speculative-ring.js';
import { DEFAULT_TIER_WEIGHTS, TierTable } from './tiers.js';
import type { KvBatchSource, KvIngestProblem, PreciseKvIndexCounters, PreciseKvIndexOptions } from './types.js';
import { isFullAttention, RootKeyCache, saltOf } from './event-rules.js';
import { LongestPrefixMatcher } from './prefix-matcher.js';
import { blockKeys } from '../api/records.js';

/** Per-endpoint state: its slot in the holder table and its engine-hash records. */
type EndpointState = { readonly slot: number; handles: HandleStore };

/**
 * The precise prefix index, fed by engine KV events. It recomputes its own request-side keys from
 * each BlockStored's `token_ids` (chained from the parent block's keys, rooted at the LoRA name or
 * model and the cache salt), and keeps engine hashes only as handles to find those keys again on
 * BlockRemoved. So no hash seed or algorithm has to match the engine's, and engine and request
 * block sizes may differ. Duplicate stores and removals are reference-counted per tier;
 * AllBlocksCleared forgets the endpoint. A match counts, per endpoint, the longest run of leading
 * blocks it holds, each weighted by its best tier (gpu 1.0, cpu 0.8).
 * @public
 * @category Precise
 */
export class PreciseKvIndex implements PrefixIndex {
  /** Always `precise`. */
  readonly kind = 'precise';
  /** Request-side block size in tokens. */
  readonly blockSizeTokens: number;
  readonly #hasher: PrefixHasher;
  readonly #tiers: TierTable;
  readonly #holders: HolderTable;
  readonly #slots = new EndpointSlots();
  readonly #states = new Map<string, EndpointState>();
  readonly #gens: number[] = [];
  readonly #spec: Speculations;
  readonly #matcher = new LongestPrefixMatcher();
  readonly #options: PreciseKvIndexOptions;
  readonly #clock: Clock;
  readonly #maxBlocks: number;
  /** Reused buffers of event ingestion: request-block tokens and their keys. */
  #wordScratch = new Uint32Array(256);
  #keyScratch = new Float64Array(16);
  /** Reused buffers of event ingestion: each engine block's record, each request key's holder-list head. */
  #recordScratch = new Int32Array(16);
  #headScratch = new Int32Array(16);
  readonly #roots: RootKeyCache;
  #lookups = 0;
  #overflows = 0;
  // llm-d's kv_cache_index_* counters: plain numbers, read at scrape time (see kvIndexCounters).
  #admissions = 0;
  #evictions = 0;
  #lookupRequests = 0;
  #maxPodHits = 0;
  #bestPodHits = 0;

  constructor(options: PreciseKvIndexOptions) {
    this.#options = options;
    this.#hasher = options.hasher;
    this.#roots = new RootKeyCache(options.hasher);
    this.blockSizeTokens = options.blockSizeTokens ?? 16;
    if (!(this.blockSizeTokens >= 1)) throw new RangeError(`blockSizeTokens must be ≥ 1, got ${this.blockSizeTokens}`);
    this.#tiers = new TierTable(options.tierWeights ?? DEFAULT_TIER_WEIGHTS, options.otherTierWeight ?? 0.8, options.speculativeWeight ?? 1);
    this.#holders = new HolderTable(this.#tiers.size);
    this.#spec = new Speculations(this.#holders, this.#tiers.speculativeSlot, options.speculativeTtlMs ?? 2000, this.#gens);
    this.#clock = options.clock ?? systemClock;
    this.#maxBlocks = options.maxBlocksPerEndpoint ?? 2_000_000;
  }

  /** Live (block, endpoint) entries. */
  get size(): number {
    return this.#holders.size;
  }

  /** Bytes of the request-key tables (engine handle records excluded). */
  get byteLength(): number {
    return this.#holders.byteLength;
  }

  /**
   * Request-side keys of tokenized prompts: full blocks only, rooted at (model, cache salt).
   * Use the same `model` the engine's events name (LoRA name, else the base model).
   */
  keysFor(prompts: readonly (readonly number[])[], model: string, cacheSalt?: string, maxBlocks = 0): BlockKeys {
    const root = this.#hasher.rootKey(model, cacheSalt);
    const opts = { blockSizeTokens: this.blockSizeTokens, includePartial: false, maxBlocks };
    let totalBlocks = 0;
    const chains = prompts.map((p) => {
      const c = this.#hasher.chainTokens(p, root, opts);
      totalBlocks += c.length;
      return c;
    });
    return blockKeys(chains, this.blockSizeTokens, totalBlocks);
  }

  /** Applies one decoded batch of an endpoint's events (the push API; the ZMQ subscriber uses it too). */
  ingest(endpointId: string, batch: KvEventBatch, source: KvBatchSource = {}): void {
    const known = this.#options.isKnownEndpoint;
    if (known !== undefined && !known(endpointId)) {
      this.#problem('unknown-endpoint', endpointId, `${batch.events.length} events for an endpoint not in the pool`);
      return;
    }
    const model = this.#options.modelName ?? source.model ?? '';
    // Plain locals, not a destructured array: this runs once per batch, and an array per call is garbage.
    let stored = 0;
    let storedBlocks = 0;
    let removed = 0;
    let removedBlocks = 0;
    let cleared = 0;
    for (const event of batch.events) {
      if (event.type === 'BlockStored') {
        stored++;
        storedBlocks += event.blockHashes.length;
        this.#stored(this.#state(endpointId), endpointId, event, model);
      } else if (event.type === 'BlockRemoved') {
        removed++;
        removedBlocks += event.blockHashes.length;
        const state = this.#states.get(endpointId);
        if (state === undefined) this.#problem('unknown-block', endpointId, 'BlockRemoved before any BlockStored');
        else this.#removed(state, endpointId, event);
      } else {
        cleared++;
        this.clearEndpoint(endpointId);
      }
    }
    this.#admissions += storedBlocks;
    this.#evictions += removedBlocks;
    const obs = this.#options.observer;
    if (obs?.applied !== undefined) {
      if (stored > 0) obs.applied(endpointId, 'BlockStored', stored, storedBlocks);
      if (removed > 0) obs.applied(endpointId, 'BlockRemoved', removed, removedBlocks);
      if (cleared > 0) obs.applied(endpointId, 'AllBlocksCleared', cleared, 0);
    }
  }

  /**
   * Records `keys` for an endpoint speculatively: each counts as held until the engine confirms
   * it with a BlockStored (then the engine's events alone decide) or the TTL expires, so a TTL
   * long enough to cover engine queueing never outlives the engine's removals. (An expiry of a
   * confirmed speculation may cut a newer one of the same key short: never a phantom block.)
   */
  add(endpointId: string, keys: BlockKeys): void {
    const now = this.#clock.now();
    this.#spec.expire(now);
    const slot = this.#state(endpointId).slot;
    // After a match of these keys (a pick), its holder-list heads spare each key a table lookup.
    const heads = this.#matcher.headsFor(keys, this.#holders.version);
    let k = 0;
    for (const chain of keys.chains) {
      for (let i = 0; i < chain.length; i++, k++) this.#spec.add(chain[i] as number, slot, now, heads === undefined ? -1 : heads[k]);
    }
  }

  /** Longest-prefix match per endpoint, tier-weighted; see the class description. */
  match(keys: BlockKeys, endpointIds?: readonly string[]): PrefixMatchResult {
    if (this.#spec.active) this.#spec.expire(this.#clock.now());
    this.#lookups += keys.totalBlocks;
    const result = this.#matcher.match(this.#holders, this.#tiers.weights, this.#slots, keys, endpointIds);
    this.#countLookup(result);
    return result;
  }

  /**
   * llm-d's `kv_cache_index_*` counts since creation: blocks admitted (named by applied
   * BlockStored events) and evicted (named by applied BlockRemoved events), lookups, and per
   * lookup the longest per-endpoint prefix run (`maxPodHits`) and the run of the best-scored
   * endpoint (`lookupHits`), summed.
   */
  kvIndexCounters(): PreciseKvIndexCounters {
    return {
      admissions: this.#admissions,
      evictions: this.#evictions,
      lookupRequests: this.#lookupRequests,
      maxPodHits: this.#maxPodHits,
      lookupHits: this.#bestPodHits,
    };
  }

  #countLookup(result: PrefixMatchResult): void {
    this.#lookupRequests++;
    let longest = 0;
    let bestWeight = -1;
    let bestBlocks = 0;
    for (const m of result.byEndpoint.values()) {
      if (m.cachedBlocks > longest) longest = m.cachedBlocks;
      if (m.weightedBlocks > bestWeight) {
        bestWeight = m.weightedBlocks;
        bestBlocks = m.cachedBlocks;
      }
    }
    this.#maxPodHits += longest;
    this.#bestPodHits += bestBlocks;
  }

  /** Forgets an endpoint's cache state but keeps tracking it ("cache unknown", AllBlocksCleared). */
  clearEndpoint(endpointId: string): void {
    const state = this.#states.get(endpointId);
    if (state === undefined) return;
    this.#holders.removeOwner(state.slot);
    state.handles = new HandleStore(this.#tiers.size);
    this.#gens[state.slot] = (this.#gens[state.slot] ?? 0) + 1;
  }

  /** Forgets an endpoint entirely (it left the pool). */
  removeEndpoint(endpointId: string): void {
    if (!this.#states.has(endpointId)) return;
    this.clearEndpoint(endpointId);
    this.#states.delete(endpointId);
    this.#slots.release(endpointId);
  }

  /** Engine blocks currently tracked for an endpoint. */
  engineBlocks(endpointId: string): number {
    return this.#states.get(endpointId)?.handles.size ?? 0;
  }

  /** Counters and sizes (`evictions` counts endpoints cleared for overflowing). */
  stats(): PrefixIndexStats {
    return {
      entries: this.#holders.size,
      blocks: this.#holders.table.size,
      endpoints: this.#states.size,
      evictions: this.#overflows,
      lookups: this.#lookups,
    };
  }

  #state(endpointId: string): EndpointState {
    let state = this.#states.get(endpointId);
    if (state === undefined) {
      state = { slot: this.#slots.acquire(endpointId), handles: new HandleStore(this.#tiers.size) };
      this.#states.set(endpointId, state);
    }
    return state;
  }

  #stored(state: EndpointState, endpointId: string, event: BlockStoredEvent, model: string): void {
    if (!isFullAttention(event)) {
      this.#problem('skipped-group', endpointId, `kv_cache_spec_kind ${event.kvCacheSpecKind}`);
      return;
    }
    const n = event.blockHashes.length;
    const E = event.blockSize;
    if (event.tokenIds.length !== n * E) {
      this.#problem('token-mismatch', endpointId, `${event.tokenIds.length} tokens for ${n} blocks of ${E}`);
      return;
    }
    const handles = state.handles;
    const holders = this.#holders;
    // Every table lookup of the event is issued in a tight loop before any result is used: at
    // fleet scale nearly every lookup misses the CPU cache, and independent lookups let the CPU
    // overlap those misses instead of waiting for each in turn. Applying a BlockStored deletes
    // nothing, so a record found stays valid, and a holder-list head read now still leads to
    // every entry that existed then (see HolderTable.adjustFrom).
    const found = this.#recordBuffer(n + 1);
    const parentRecord = event.parentBlockHash === undefined ? -1 : handles.find(engineHashHandle(event.parentBlockHash));
    for (let j = 0; j < n; j++) found[j] = handles.find(engineHashHandle(event.blockHashes[j] as bigint | number));
    let chainKey: number;
    let pending: Uint32Array | undefined;
    if (event.parentBlockHash === undefined) {
      chainKey = this.#roots.get(event.loraName ?? model, saltOf(event));
    } else {
      if (parentRecord < 0) {
        this.#problem('unknown-parent', endpointId, 'BlockStored names a parent block that was never stored');
        return;
      }
      chainKey = handles.chainKey(parentRecord);
      pending = handles.pending(parentRecord);
    }
    const P = pending?.length ?? 0;
    const tokens = event.tokenIds;
    const B = this.blockSizeTokens;
    const tier = this.#tiers.slotOf(event.medium);
    const slot = state.slot;
    const speculating = this.#spec.active;
    // The parent's pending tokens, then this event's tokens, cut into request blocks: every full
    // request block of the event is hashed in one pass over one reused buffer (nothing is
    // allocated per block), then each engine block takes the keys whose blocks end inside it.
    const total = P + n * E;
    const nKeys = Math.floor(total / B);
    const words = this.#wordBuffer(nKeys * B);
    const keys = this.#keyBuffer(nKeys);
    const head = Math.min(P, nKeys * B);
    for (let t = 0; t < head; t++) words[t] = (pending as Uint32Array)[t] as number;
    for (let t = head; t < nKeys * B; t++) words[t] = (tokens[t - P] as number) >>> 0;
    this.#hasher.chainWordsInto(words, chainKey, B, keys, nKeys);
    const heads = this.#headBuffer(nKeys);
    const table = holders.table;
    for (let q = 0; q < nKeys; q++) heads[q] = table.get(keys[q] as number);
    let k = 0;
    // Whether this event has created a record yet: only then can a block not found before the
    // event have been created since (by an earlier block of the event with the same hash), so
    // only then is a second lookup needed.
    let created = false;
    for (let j = 0; j < n; j++) {
      const end = P + (j + 1) * E;
      const first = k;
      while ((k + 1) * B <= end) k++;
      if (k > first) chainKey = keys[k - 1] as number;
      const boundary = k * B;
      let rest: Uint32Array | undefined;
      if (end > boundary) {
        rest = new Uint32Array(end - boundary);
        for (let t = boundary; t < end; t++) rest[t - boundary] = t < P ? (pending as Uint32Array)[t] as number : (tokens[t - P] as number) >>> 0;
      }
      let r = found[j] as number;
      if (r < 0) {
        // Not there before the event; an earlier block of this event may have had the same hash.
        const handle = engineHashHandle(event.blockHashes[j] as bigint | number);
        if (created) r = handles.find(handle);
        if (r < 0) {
          r = handles.create(handle, keys, first, k - first, chainKey, rest);
          created = true;
        }
      }
      if (handles.addRef(r, tier, 1) === 1) {
        const owned = handles.keyCount(r);
        // The head read above belongs to this record's key only when the record owns this event's keys.
        const own = owned === k - first;
        if (owned === 1) {
          const key = handles.keyAt(r, 0);
          const e = holders.adjustFrom(own && key === keys[first] ? (heads[first] as number) : -1, key, slot, tier, 1);
          // Confirmed: a later BlockRemoved must not be masked by a speculation still alive.
          if (speculating) this.#spec.confirm(key, slot, e);
        } else {
          for (let q = 0; q < owned; q++) {
            const key = handles.keyAt(r, q);
            holders.adjustFrom(own && key === keys[first + q] ? (heads[first + q] as number) : -1, key, slot, tier, 1);
          }
          if (speculating) for (let q = 0; q < owned; q++) this.#spec.confirm(handles.keyAt(r, q), slot);
        }
      }
    }
    if (handles.size > this.#maxBlocks) {
      this.#overflows++;
      this.#problem('overflow', endpointId, `more than ${this.#maxBlocks} engine blocks; endpoint cleared`);
      this.clearEndpoint(endpointId);
    }
  }

  #recordBuffer(n: number): Int32Array {
    if (this.#recordScratch.length < n) this.#recordScratch = new Int32Array(Math.max(n, this.#recordScratch.length * 2));
    return this.#recordScratch;
  }

  #headBuffer(n: number): Int32Array {
    if (this.#headScratch.length < n) this.#headScratch = new Int32Array(Math.max(n, this.#headScratch.length * 2));
    return this.#headScratch;
  }

  #wordBuffer(n: number): Uint32Array {
    if (this.#wordScratch.length < n) this.#wordScratch = new Uint32Array(Math.max(n, this.#wordScratch.length * 2));
    return this.#wordScratch;
  }

  #keyBuffer(n: number): Float64Array {
    if (this.#keyScratch.length < n) this.#keyScratch = new Float64Array(Math.max(n, this.#keyScratch.length * 2));
    return this.#keyScratch;
  }

  #removed(state: EndpointState, endpointId: string, event: BlockRemovedEvent): void {
    const handles = state.handles;
    const tier = this.#tiers.slotOf(event.medium);
    const holders = this.#holders;
    let unknown = 0;
    for (const hash of event.blockHashes) {
      const handle = engineHashHandle(hash);
      const r = handles.find(handle);
      if (r < 0) {
        unknown++;
        continue;
      }
      const v = handles.addRef(r, tier, -1);
      if (v < 0) {
        // Removed from a tier the block is not on: undo, and count it as unknown.
        handles.addRef(r, tier, 1);
        unknown++;
        continue;
      }
      if (v === 0) {
        const owned = handles.keyCount(r);
        for (let k = 0; k < owned; k++) holders.adjust(handles.keyAt(r, k), state.slot, tier, -1);
        if (handles.unreferenced(r)) handles.delete(handle, r);
      }
    }
    if (unknown > 0) this.#problem('unknown-block', endpointId, `${unknown} removed blocks were not held on ${event.medium}`);
  }

  #problem(cause: KvIngestProblem, endpointId: string, detail: string): void {
    this.#options.observer?.problem?.(cause, endpointId, detail);
  }
}
