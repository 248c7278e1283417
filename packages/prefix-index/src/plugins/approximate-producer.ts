import { Attributes, definePlugin, type CycleContext, type DataProducer, type Endpoint, type EndpointPool, type PluginDefinition, type RequestLifecycle, type SchedulingRequest, type SchedulingResult, type SharedState } from '@switchyard/core';
import { z } from 'zod';
import type { PrefixIndex } from '../api/types.js';
import { ApproximatePrefixIndex, DEFAULT_LRU_CAPACITY_PER_ENDPOINT } from '../approximate/approximate-index.js';
import { effectiveBlockSizeTokens, maxBlocksToMatch, MIN_APPROX_BLOCK_SIZE_TOKENS } from '../hashing/block-size.js';
import type { PrefixHasher } from '../hashing/prefix-hasher.js';
import { encodePromptBytes } from '../hashing/prompt-bytes.js';
import type { PrefixIndexMetrics } from '../metrics/prefix-metrics.js';
import { PrefixIndexerRecorder } from '../metrics/indexer-recorder.js';
import { blockKeysAttribute, matchInfoAttribute, PrefixAttributes } from './attributes.js';
import type { PrefixPluginEnv } from './env.js';
import { publishMatchInfo } from './match-info.js';
import { decodeHistory, encodeHistory } from './shared-history.js';
import { PREFIX_HASHES_FIELD, readPrefixHashes, Uint64KeyInterner } from './metadata-prefix-hashes.js';
import { blockKeys } from '../api/records.js';
import type { BlockKeys } from '../api/types.js';
import type { PrefixIndexLogger } from '../api/logger.js';

/**
 * Where the approximate producer takes a request's block hashes from: `prompt` hashes the prompt
 * bytes itself; `metadata` reads the chain an upstream processor computed, from
 * `llm-d.routing.prefix_hashes` in the request metadata.
 * @public
 * @category Plugins
 */
export const PREFIX_HASH_SOURCES = ['prompt', 'metadata'] as const;

/** Distinct metadata hashes remembered per configured LRU block of one endpoint. */
const INTERNED_HASHES_PER_LRU_BLOCK = 8;

/**
 * Type name of the approximate producer (llm-d's `approximateprefix` data producer). @public
 * @category Plugins
 */
export const APPROX_PREFIX_PRODUCER = 'approx-prefix-cache-producer';

/**
 * Parameters of the approximate producer: exactly llm-d's, decoded strictly (an unknown parameter
 * is a config error). As in llm-d, 0 for `blockSizeTokens` or `lruCapacityPerServer` means the
 * default.
 * @public
 * @category Plugins
 */
export const approximateProducerParameters = z.strictObject({
  /**
   * Configured block size in tokens (0 = 16). Not the size hashed: per request, `autoTune` may
   * replace it with the engine's block size, and the result is raised to at least 64 tokens
   * (`MIN_APPROX_BLOCK_SIZE_TOKENS`), so the default 16 is never effective (as in llm-d).
   */
  blockSizeTokens: z.number().int().min(0).default(16),
  /** Deprecated character-based block size of the original scheme; read as `ceil(blockSize / 4)` tokens. */
  blockSize: z.number().int().min(0).optional(),
  /** Use the engine's block size and block count when known. */
  autoTune: z.boolean().default(true),
  /** Cap on hashed tokens (0 = use `maxPrefixBlocksToMatch`). */
  maxPrefixTokensToMatch: z.number().int().min(0).default(131072),
  /** Cap on hashed blocks when `maxPrefixTokensToMatch` is 0 (0 = no cap). */
  maxPrefixBlocksToMatch: z.number().int().min(0).default(2048),
  /** Per-endpoint capacity in blocks when the engine's block count is unknown (0 = 31250). */
  lruCapacityPerServer: z.number().int().min(0).default(DEFAULT_LRU_CAPACITY_PER_ENDPOINT),
  /** `prompt` (hash the prompt) or `metadata` (read `llm-d.routing.prefix_hashes`). */
  prefixHashSource: z.enum(PREFIX_HASH_SOURCES).default('prompt'),
});

/**
 * Parsed parameters of the approximate producer.
 * @public
 * @category Plugins
 */
export type ApproximateProducerParams = z.output<typeof approximateProducerParameters>;

/**
 * Options of {@link ApproximatePrefixProducer}.
 * @public
 * @category Plugins
 */
export interface ApproximatePrefixProducerOptions {
  /**
   * Configured block size in tokens (default 16). The size hashed per request is
   * `max(minBlockSizeTokens, autoTune && engine block size known ? engine block size : this)`:
   * with the default floor of 64 the default 16 is never effective.
   */
  readonly blockSizeTokens?: number | undefined;
  /** Use the engine's block size and block count when known (default true). */
  readonly autoTune?: boolean | undefined;
  /** Cap on hashed tokens (default 131072; 0 = use `maxPrefixBlocksToMatch`). */
  readonly maxPrefixTokensToMatch?: number | undefined;
  /** Cap on hashed blocks when `maxPrefixTokensToMatch` is 0 (default 2048; 0 = no cap). */
  readonly maxPrefixBlocksToMatch?: number | undefined;
  /** Per-endpoint capacity when the engine's block count is unknown (default 31250). */
  readonly lruCapacityPerServer?: number | undefined;
  /** Where block hashes come from (default `prompt`). */
  readonly prefixHashSource?: (typeof PREFIX_HASH_SOURCES)[number] | undefined;
  /** Logs the first request without (or with malformed) metadata hashes, in `metadata` mode. */
  readonly logger?: PrefixIndexLogger | undefined;
  /** Instance name (default `approx-prefix-cache-producer`). */
  readonly name?: string;
  /** Block hasher. */
  readonly hasher: PrefixHasher;
  /** Pool: departed endpoints are purged, and capacities read from engine metrics. */
  readonly pool?: EndpointPool | undefined;
  /** Index to use (default: a new {@link ApproximatePrefixIndex}); the storage seam. */
  readonly index?: PrefixIndex | undefined;
  /** Block-size floor (default 64, llm-d's; tests of the raw scheme lower it). */
  readonly minBlockSizeTokens?: number | undefined;
  /** Metrics. */
  readonly metrics?: PrefixIndexMetrics | undefined;
  /**
   * Shared state: routing decisions are published to the other replicas and theirs are learnt, so
   * a conversation stays warm whichever replica receives its next turn.
   */
  readonly sharedState?: SharedState | undefined;
}

/**
 * The approximate prefix producer: hashes the request's prompt bytes into chained blocks, matches
 * them against an index learnt from earlier decisions, writes per-candidate match info, and after
 * the pick records the blocks for the primary target and the `prefill` profile's target.
 * @public
 * @category Plugins
 */
export class ApproximatePrefixProducer implements DataProducer, RequestLifecycle {
  /** `approx-prefix-cache-producer`. */
  readonly type: string = APPROX_PREFIX_PRODUCER;
  /** Instance name. */
  readonly name: string;
  /** Attributes written. */
  readonly produces: readonly string[];
  /** Attributes read. */
  readonly consumes = [PrefixAttributes.promptBytes.name];
  /** The index. */
  readonly index: PrefixIndex;
  readonly #o: ApproximatePrefixProducerOptions;
  readonly #keysAttr;
  readonly #onRemoved: (e: Endpoint) => void;
  /** This producer's `llm_d_epp_prefix_indexer_*` series, resolved on first use (after a subclass set its `type`). */
  #indexer: PrefixIndexerRecorder | undefined;
  readonly #channel: string;
  readonly #unsubscribe: (() => void) | undefined;
  /** uint64 metadata hashes → 53-bit index keys (`metadata` mode only). */
  readonly #interner: Uint64KeyInterner | undefined;
  #warnedAbsent = false;
  #warnedInvalid = false;

  constructor(options: ApproximatePrefixProducerOptions) {
    this.#o = options;
    if (options.prefixHashSource === 'metadata') {
      this.#interner = new Uint64KeyInterner((options.lruCapacityPerServer ?? DEFAULT_LRU_CAPACITY_PER_ENDPOINT) * INTERNED_HASHES_PER_LRU_BLOCK);
    }
    this.name = options.name ?? APPROX_PREFIX_PRODUCER;
    this.produces = [Attributes.prefixMatch.name, matchInfoAttribute(this.name).name];
    this.#keysAttr = blockKeysAttribute(this.name);
    const pool = options.pool;
    this.index =
      options.index ??
      new ApproximatePrefixIndex({
        capacityFor: (id) => this.#capacityFor(pool?.get(id)),
      });
    this.#onRemoved = (e) => {
      this.index.removeEndpoint(e.id);
    };
    pool?.on('removed', this.#onRemoved);
    this.#channel = `prefix/${this.name}`;
    // Interned metadata keys mean nothing to another replica (each numbers hashes in its own
    // order), so in metadata mode the history is not shared: a foreign key could match falsely.
    const shared = this.#interner === undefined ? options.sharedState : undefined;
    this.#unsubscribe = shared?.subscribe(this.#channel, (data) => {
      const { endpointId, keys } = decodeHistory(data);
      // Another replica may know an endpoint this one does not (yet): its blocks would only take room.
      if (pool !== undefined && pool.get(endpointId) === undefined) return;
      this.index.add(endpointId, keys);
    });
  }

  /** Stops following the pool and the other replicas (the index itself holds no other resources). */
  close(): void {
    this.#o.pool?.off('removed', this.#onRemoved);
    this.#unsubscribe?.();
  }

  /** Hashes, matches and publishes match info for one request. */
  produce(_ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): void {
    const o = this.#o;
    const bs = effectiveBlockSizeTokens(o.blockSizeTokens ?? 16, o.autoTune ?? true, endpoints, o.minBlockSizeTokens ?? MIN_APPROX_BLOCK_SIZE_TOKENS);
    const maxBlocks = maxBlocksToMatch(o.maxPrefixTokensToMatch ?? 131072, o.maxPrefixBlocksToMatch ?? 2048, bs);
    const ids = endpoints.map((e) => e.id);
    if (this.#interner !== undefined) {
      const keys = this.#metadataKeys(request, bs, maxBlocks, this.#interner);
      if (keys !== undefined) request.attributes.set(this.#keysAttr, keys);
      publishMatchInfo(request, this.name, ids, keys === undefined ? { byEndpoint: new Map(), totalBlocks: 0 } : this.index.match(keys, ids), bs);
      return;
    }
    const prompts = request.attributes.get(PrefixAttributes.promptBytes)?.prompts ?? encodePromptBytes(request.request.prompt);
    const keys = o.hasher.hashPrompts(prompts, request.targetModel, request.request.cacheSalt, { blockSizeTokens: bs, maxBlocks });
    request.attributes.set(this.#keysAttr, keys);
    publishMatchInfo(request, this.name, ids, this.index.match(keys, ids), bs);
  }

  /**
   * The request's metadata chain as index keys (capped at `maxBlocks`, 0 = no cap), or undefined
   * when it carries none or a malformed one; each case is logged the first time.
   */
  #metadataKeys(request: SchedulingRequest, bs: number, maxBlocks: number, interner: Uint64KeyInterner): BlockKeys | undefined {
    const read = readPrefixHashes(request.attributes.get(Attributes.requestMetadata));
    if (read.kind === 'absent') {
      if (!this.#warnedAbsent) {
        this.#warnedAbsent = true;
        this.#o.logger?.warn(`${this.name}: prefixHashSource is metadata but a request carries no llm-d.routing.${PREFIX_HASHES_FIELD}; such requests get no prefix affinity (the proxy must forward the llm-d.routing namespace)`);
      }
      return undefined;
    }
    if (read.kind === 'invalid') {
      if (!this.#warnedInvalid) {
        this.#warnedInvalid = true;
        this.#o.logger?.warn(`${this.name}: ignoring malformed prefix hashes: ${read.error}`);
      }
      return undefined;
    }
    const n = maxBlocks > 0 ? Math.min(maxBlocks, read.hashes.length) : read.hashes.length;
    const chain: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) chain[i] = interner.keyOf(read.hashes[i] as string);
    return blockKeys([chain], bs, n);
  }

  /** Learns from the decision: the primary target and the `prefill` profile's target now hold the prompt. */
  preRequest(_ctx: CycleContext, request: SchedulingRequest, result: SchedulingResult): void {
    const keys = request.attributes.get(this.#keysAttr);
    if (keys === undefined) return;
    const indexer = this.#indexerRecorder();
    indexer?.recordChosen(request.attributes.get(matchInfoAttribute(this.name)), result);
    const primary = result.profileResults.get(result.primaryProfileName)?.targets[0];
    const prefill = result.profileResults.get('prefill')?.targets[0];
    const shared = this.#interner === undefined ? this.#o.sharedState : undefined;
    if (primary !== undefined) {
      this.index.add(primary.id, keys);
      shared?.publish(this.#channel, encodeHistory(primary.id, keys));
    }
    if (prefill !== undefined && prefill.id !== primary?.id) {
      this.index.add(prefill.id, keys);
      shared?.publish(this.#channel, encodeHistory(prefill.id, keys));
    }
    indexer?.recordSize(this.index.size);
  }

  #indexerRecorder(): PrefixIndexerRecorder | undefined {
    const metrics = this.#o.metrics;
    if (metrics === undefined) return undefined;
    return (this.#indexer ??= new PrefixIndexerRecorder(metrics, this.name, this.type));
  }

  /**
   * Capacity of an endpoint's LRU: with auto-tune and a known engine block count, the engine's
   * token capacity expressed in our blocks (`num_blocks × engine block size / our block size`;
   * llm-d takes the raw block count, which over-provisions 4× with 16-token engine blocks and
   * 64-token hash blocks); else `lruCapacityPerServer`.
   */
  #capacityFor(endpoint: Endpoint | undefined): number {
    const o = this.#o;
    const fallback = o.lruCapacityPerServer ?? DEFAULT_LRU_CAPACITY_PER_ENDPOINT;
    const m = endpoint?.metrics;
    if ((o.autoTune ?? true) && m !== undefined && m.cacheNumBlocks > 0) {
      const engineBs = m.cacheBlockSize > 0 ? m.cacheBlockSize : (o.blockSizeTokens ?? 16);
      const ours = Math.max(o.minBlockSizeTokens ?? MIN_APPROX_BLOCK_SIZE_TOKENS, engineBs);
      return Math.max(1, Math.ceil((m.cacheNumBlocks * engineBs) / ours));
    }
    return fallback;
  }
}

/**
 * Maps parsed parameters to producer options (the deprecated character `blockSize` becomes
 * `ceil(blockSize / 4)` tokens).
 * @internal
 */
export function approximateOptionsOf(p: ApproximateProducerParams): Omit<ApproximatePrefixProducerOptions, 'hasher'> {
  return {
    blockSizeTokens: p.blockSize === undefined || p.blockSize === 0 ? (p.blockSizeTokens > 0 ? p.blockSizeTokens : 16) : Math.ceil(p.blockSize / 4),
    autoTune: p.autoTune,
    maxPrefixTokensToMatch: p.maxPrefixTokensToMatch,
    maxPrefixBlocksToMatch: p.maxPrefixBlocksToMatch,
    lruCapacityPerServer: p.lruCapacityPerServer > 0 ? p.lruCapacityPerServer : DEFAULT_LRU_CAPACITY_PER_ENDPOINT,
    prefixHashSource: p.prefixHashSource,
  };
}

/**
 * Plugin definition of the approximate producer (default producer of `prefix-match-info`).
 * @public
 * @category Plugins
 */
export function approximateProducerDefinition(env: PrefixPluginEnv): PluginDefinition<ApproximateProducerParams> {
  return definePlugin({
    type: APPROX_PREFIX_PRODUCER,
    description: 'Approximate prefix-cache match info learnt from routing decisions (chained 53-bit block keys, per-endpoint LRU).',
    parameters: approximateProducerParameters,
    consumes: [PrefixAttributes.promptBytes.name],
    produces: [Attributes.prefixMatch.name],
    defaultProducerFor: [Attributes.prefixMatch.name],
    create: (p, ctx) =>
      new ApproximatePrefixProducer({ ...approximateOptionsOf(p), name: ctx.name, hasher: env.hasher, pool: ctx.pool, metrics: env.metrics, sharedState: ctx.sharedState, logger: env.logger }),
  });
}
