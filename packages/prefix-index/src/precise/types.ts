import type { Clock } from '@switchyard/core';
import type { PrefixHasher } from '../hashing/prefix-hasher.js';

/**
 * Why the precise index skipped (part of) an event.
 * - `unknown-endpoint`: events for an endpoint that is not in the pool.
 * - `unknown-parent`: BlockStored whose parent block was never stored (missed events).
 * - `unknown-block`: BlockRemoved for a block the endpoint does not hold on that tier.
 * - `token-mismatch`: BlockStored whose token count is not blocks × block size.
 * - `skipped-group`: blocks of a non-full-attention KV group (sliding window, Mamba).
 * - `overflow`: an endpoint exceeded `maxBlocksPerEndpoint` and was cleared.
 * @public
 * @category Precise
 */
export type KvIngestProblem = 'unknown-endpoint' | 'unknown-parent' | 'unknown-block' | 'token-mismatch' | 'skipped-group' | 'overflow';

/**
 * Receives what ingestion did, for metrics and logs. All members optional.
 * @public
 * @category Precise
 */
export interface KvIngestObserver {
  /** Events of one type applied for an endpoint, with the number of blocks they named. */
  applied?(endpointId: string, type: 'BlockStored' | 'BlockRemoved' | 'AllBlocksCleared', events: number, blocks: number): void;
  /** Something was skipped. */
  problem?(cause: KvIngestProblem, endpointId: string, detail: string): void;
}

/**
 * Where a batch came from, when the transport knows more than the payload.
 * @public
 * @category Precise
 */
export interface KvBatchSource {
  /** Model named by the publisher's topic (`kv@<pod>@<model>`), used when no model name is configured. */
  readonly model?: string;
}

/**
 * Options of `PreciseKvIndex`.
 * @public
 * @category Precise
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

/**
 * What `PreciseKvIndex.kvIndexCounters()` returns: llm-d's `kv_cache_index_*` counts since creation.
 * @public
 * @category Precise
 */
export interface PreciseKvIndexCounters {
  /** Blocks named by applied BlockStored events (llm-d counts every key its index is asked to add). */
  readonly admissions: number;
  /** Blocks named by applied BlockRemoved events. */
  readonly evictions: number;
  /** Calls of `match`. */
  readonly lookupRequests: number;
  /** Per lookup, the longest leading run any endpoint holds, summed. */
  readonly maxPodHits: number;
  /** Per lookup, the leading run of the best (tier-weighted) endpoint, summed. */
  readonly lookupHits: number;
}
