import { systemClock, type Clock } from '@switchyard/core';
import type { BlockKeys, EndpointMatch, PrefixIndex, PrefixIndexStats, PrefixMatchResult } from '../api/types.js';
import { tokensToBytes } from '../hashing/prompt-bytes.js';
import type { PrefixHasher } from '../hashing/prefix-hasher.js';
import { engineHashHandle } from '../kv-events/hash-value.js';
import type { BlockRemovedEvent, BlockStoredEvent, KvEventBatch } from '../kv-events/types.js';
import { EndpointSlots } from '../table/endpoint-slots.js';
import { HandleStore } from './handle-store.js';
import { HolderTable } from './holder-table.js';
import { SpeculativeRing } from './speculative-ring.js';
import { DEFAULT_TIER_WEIGHTS, TierTable } from './tiers.js';
import type { KvBatchSource, KvIngestObserver, KvIngestProblem } from './types.js';

/**
 * Options of {@link PreciseKvIndex}.
 * @public
 */
export interface PreciseKvIndexOptions {
  /** Block hasher (from `createPrefixHasher()`). */
  readonly hasher: PrefixHasher;
  /** Block size of the request-side keys, in tokens (partial tails dropped). Default 16. */
  readonly blockSizeTokens?: number;
  /** Base model name: the chain root of events without a LoRA name. Default: the topic's model, else ''. */
  readonly modelName?: string;
  /** Weight per storage medium. Default `{ gpu: 1.0, cpu: 0.8 }`. */
  readonly tierWeights?: Readonly<Record<string, number>>;
  /** Weight of media missing from `tierWeights`. Default 0.8. */
  readonly otherTierWeight?: number;
  /** Lifetime of entries added by {@link PreciseKvIndex.add} before the engine confirms them. Default 2000 ms. */
  readonly speculativeTtlMs?: number;
  /** Weight of speculative entries. Default 1. */
  readonly speculativeWeight?: number;
  /** Engine blocks one endpoint may hold before it is cleared as misbehaving. Default 2,000,000. */
  readonly maxBlocksPerEndpoint?: number;
  /** Time source for speculative entries. */
  readonly clock?: Clock;
  /** When given, events for endpoints it rejects are dropped (`unknown-endpoint`). */
  readonly isKnownEndpoint?: (endpointId: string) => boolean;
  /** Metrics / logging hooks. */
  readonly observer?: KvIngestObserver;
}

interface EndpointState {
  readonly slot: number;
  handles: HandleStore;
}

const FULL_ATTENTION = /full|mla/i;

/** The salt vLLM appends to the first block's extra keys: its last string that is not the LoRA name. */
function saltOf(event: BlockStoredEvent): string | undefined {
  if (event.cacheSalt !== undefined) return event.cacheSalt;
  const first = event.extraKeys?.[0];
  if (!Array.isArray(first)) return undefined;
  for (let i = first.length - 1; i >= 0; i--) {
    const v: unknown = first[i];
    if (typeof v === 'string' && v !== event.loraName) return v;
  }
  return undefined;
}

/**
 * The precise prefix index, fed by engine KV events. It recomputes its own request-side keys from
 * each BlockStored's `token_ids` (chained from the parent block's keys, rooted at the LoRA name or
 * model and the cache salt), and keeps engine hashes only as handles to find those keys again on
 * BlockRemoved. So no hash seed or algorithm has to match the engine's, and engine and request
 * block sizes may differ. Duplicate stores and removals are reference-counted per tier;
 * AllBlocksCleared forgets the endpoint. A match counts, per endpoint, the longest run of leading
 * blocks it holds, each weighted by its best tier (gpu 1.0, cpu 0.8).
 * @public
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
  readonly #ring = new SpeculativeRing();
  readonly #options: PreciseKvIndexOptions;
  readonly #clock: Clock;
  readonly #maxBlocks: number;
  readonly #ttl: number;
  #keyScratch = new Float64Array(8);
  readonly #roots = new Map<string, number>();
  readonly #blockWords: Uint32Array;
  readonly #blockBytes: Uint8Array;
  #run = new Int32Array(64);
  #cached = new Int32Array(64);
  #weighted = new Float64Array(64);
  #touched = new Int32Array(64);
  #lookups = 0;
  #overflows = 0;

  constructor(options: PreciseKvIndexOptions) {
    this.#options = options;
    this.#hasher = options.hasher;
    this.blockSizeTokens = options.blockSizeTokens ?? 16;
    if (!(this.blockSizeTokens >= 1)) throw new RangeError(`blockSizeTokens must be ≥ 1, got ${this.blockSizeTokens}`);
    this.#tiers = new TierTable(options.tierWeights ?? DEFAULT_TIER_WEIGHTS, options.otherTierWeight ?? 0.8, options.speculativeWeight ?? 1);
    this.#holders = new HolderTable(this.#tiers.size);
    this.#clock = options.clock ?? systemClock;
    this.#maxBlocks = options.maxBlocksPerEndpoint ?? 2_000_000;
    this.#ttl = options.speculativeTtlMs ?? 2000;
    this.#blockWords = new Uint32Array(this.blockSizeTokens);
    this.#blockBytes = tokensToBytes(this.#blockWords);
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
    return { chains, blockSizeTokens: this.blockSizeTokens, totalBlocks };
  }

  /** Applies one decoded batch of an endpoint's events (the push API; the ZMQ subscriber uses it too). */
  ingest(endpointId: string, batch: KvEventBatch, source: KvBatchSource = {}): void {
    const known = this.#options.isKnownEndpoint;
    if (known !== undefined && !known(endpointId)) {
      this.#problem('unknown-endpoint', endpointId, `${batch.events.length} events for an endpoint not in the pool`);
      return;
    }
    const model = this.#options.modelName ?? source.model ?? '';
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
    const obs = this.#options.observer;
    if (obs?.applied !== undefined) {
      if (stored > 0) obs.applied(endpointId, 'BlockStored', stored, storedBlocks);
      if (removed > 0) obs.applied(endpointId, 'BlockRemoved', removed, removedBlocks);
      if (cleared > 0) obs.applied(endpointId, 'AllBlocksCleared', cleared, 0);
    }
  }

  /** Records `keys` for an endpoint speculatively (they expire unless the engine confirms them). */
  add(endpointId: string, keys: BlockKeys): void {
    const now = this.#clock.now();
    this.#expire(now);
    const state = this.#state(endpointId);
    const gen = this.#gens[state.slot] ?? 0;
    const tier = this.#tiers.speculativeSlot;
    for (const chain of keys.chains) {
      for (const key of chain) {
        this.#holders.adjust(key, state.slot, tier, 1);
        this.#ring.push(key, state.slot, gen, now + this.#ttl);
      }
    }
  }

  /** Longest-prefix match per endpoint, tier-weighted; see the class description. */
  match(keys: BlockKeys, endpointIds?: readonly string[]): PrefixMatchResult {
    if (this.#ring.size > 0) this.#expire(this.#clock.now());
    this.#ensureScratch();
    const holders = this.#holders;
    const weights = this.#tiers.weights;
    const run = this.#run;
    const cached = this.#cached;
    const weighted = this.#weighted;
    const touched = this.#touched;
    let nTouched = 0;
    for (const chain of keys.chains) {
      for (let i = 0; i < chain.length; i++) {
        this.#lookups++;
        let advanced = false;
        for (let e = holders.table.get(chain[i] as number); e !== -1; e = holders.next[e] as number) {
          const s = holders.owner[e] as number;
          if (run[s] !== i) continue;
          if (cached[s] === 0) touched[nTouched++] = s;
          run[s] = i + 1;
          cached[s] = (cached[s] as number) + 1;
          weighted[s] = (weighted[s] as number) + holders.weightOf(e, weights);
          advanced = true;
        }
        if (!advanced) break;
      }
      for (let t = 0; t < nTouched; t++) run[touched[t] as number] = 0;
    }
    const byEndpoint = new Map<string, EndpointMatch>();
    const emit = (s: number, id: string): void => {
      const c = cached[s] as number;
      if (c > 0) byEndpoint.set(id, { weightedBlocks: weighted[s] as number, cachedBlocks: c });
    };
    if (endpointIds === undefined) {
      for (let t = 0; t < nTouched; t++) {
        const s = touched[t] as number;
        const id = this.#slots.idOf(s);
        if (id !== undefined) emit(s, id);
      }
    } else {
      for (const id of endpointIds) {
        const s = this.#slots.get(id);
        if (s >= 0) emit(s, id);
      }
    }
    for (let t = 0; t < nTouched; t++) {
      const s = touched[t] as number;
      cached[s] = 0;
      weighted[s] = 0;
    }
    return { byEndpoint, totalBlocks: keys.totalBlocks };
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
    const state = this.#states.get(endpointId);
    if (state === undefined) return;
    this.#holders.removeOwner(state.slot);
    this.#gens[state.slot] = (this.#gens[state.slot] ?? 0) + 1;
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
    if (event.kvCacheSpecKind !== undefined && !FULL_ATTENTION.test(event.kvCacheSpecKind)) {
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
    let chainKey: number;
    let pending: Uint32Array | undefined;
    if (event.parentBlockHash === undefined) {
      chainKey = this.#root(event.loraName ?? model, saltOf(event));
    } else {
      const p = handles.find(engineHashHandle(event.parentBlockHash));
      if (p < 0) {
        this.#problem('unknown-parent', endpointId, 'BlockStored names a parent block that was never stored');
        return;
      }
      chainKey = handles.chainKey(p);
      pending = handles.pending(p);
    }
    const P = pending?.length ?? 0;
    const tokens = event.tokenIds;
    const B = this.blockSizeTokens;
    const tier = this.#tiers.slotOf(event.medium);
    const holders = this.#holders;
    const slot = state.slot;
    const perBlock = Math.ceil(E / B) + 1;
    if (this.#keyScratch.length < perBlock) this.#keyScratch = new Float64Array(perBlock);
    const keys = this.#keyScratch;
    // Request blocks are assembled in one reused buffer (pending tokens of the parent, then this
    // event's tokens), so hashing allocates nothing per block.
    const blockWords = this.#blockWords;
    const blockBytes = this.#blockBytes;
    let boundary = 0;
    for (let j = 0; j < n; j++) {
      const end = P + (j + 1) * E;
      let count = 0;
      while (boundary + B <= end) {
        for (let k = 0; k < B; k++) {
          const t = boundary + k;
          blockWords[k] = t < P ? (pending as Uint32Array)[t] as number : (tokens[t - P] as number) >>> 0;
        }
        chainKey = this.#hasher.blockKey(chainKey, blockBytes);
        keys[count++] = chainKey;
        boundary += B;
      }
      let rest: Uint32Array | undefined;
      if (end > boundary) {
        rest = new Uint32Array(end - boundary);
        for (let t = boundary; t < end; t++) rest[t - boundary] = t < P ? (pending as Uint32Array)[t] as number : (tokens[t - P] as number) >>> 0;
      }
      const handle = engineHashHandle(event.blockHashes[j] as bigint | number);
      let r = handles.find(handle);
      if (r < 0) r = handles.create(handle, keys, count, chainKey, rest);
      if (handles.addRef(r, tier, 1) === 1) {
        const owned = handles.keyCount(r);
        for (let k = 0; k < owned; k++) holders.adjust(handles.keyAt(r, k), slot, tier, 1);
      }
    }
    if (handles.size > this.#maxBlocks) {
      this.#overflows++;
      this.#problem('overflow', endpointId, `more than ${this.#maxBlocks} engine blocks; endpoint cleared`);
      this.clearEndpoint(endpointId);
    }
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

  /** Root key of (model, salt), cached: every prompt's first BlockStored needs one. */
  #root(model: string, salt: string | undefined): number {
    const id = salt === undefined ? model : `${model}\u0000${salt}`;
    let key = this.#roots.get(id);
    if (key === undefined) {
      key = this.#hasher.rootKey(model, salt);
      if (this.#roots.size >= 4096) this.#roots.clear();
      this.#roots.set(id, key);
    }
    return key;
  }

  #expire(now: number): void {
    const tier = this.#tiers.speculativeSlot;
    this.#ring.expire(now, 1_000_000, (key, slot, gen) => {
      if ((this.#gens[slot] ?? 0) === gen) this.#holders.adjust(key, slot, tier, -1);
    });
  }

  #problem(cause: KvIngestProblem, endpointId: string, detail: string): void {
    this.#options.observer?.problem?.(cause, endpointId, detail);
  }

  #ensureScratch(): void {
    const need = this.#slots.capacity;
    if (this.#run.length < need) {
      this.#run = new Int32Array(need * 2);
      this.#cached = new Int32Array(need * 2);
      this.#weighted = new Float64Array(need * 2);
      this.#touched = new Int32Array(need * 2);
    }
  }
}
