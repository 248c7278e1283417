import { durationSchema, SwitchyardError } from '@switchyard/core';
import { z } from 'zod';
import type { KvEventDialect } from '../kv-events/types.js';

/** An llm-d settings object accepted by name but not interpreted. */
const ignoredObject = z.looseObject({});

/**
 * llm-d's `tokenProcessorConfig` (llm-d-kv-cache `TokenProcessorConfig`). The block size is used
 * (0 = the default 16, as in llm-d); `hashSeed` and `hashAlgorithm` are accepted and ignored:
 * request keys are recomputed here from token ids on both the event and the request side and
 * never leave the process, so they need not match the engine's or another replica's.
 */
const tokenProcessorShape = z.strictObject({
  /** Tokens per block. */
  blockSizeTokens: z.number().int().min(0).optional(),
  /** Deprecated spelling of `blockSizeTokens`. */
  blockSize: z.number().int().min(0).optional(),
  /** Ignored. */
  hashSeed: z.string().optional(),
  /** Ignored. */
  hashAlgorithm: z.enum(['', 'cbor-fnv', 'xxh64']).optional(),
});

/** llm-d's `kvEventsConfig.podDiscoveryConfig`: ports are used; pods come from the pool, so the selectors are ignored. */
const podDiscoveryShape = z.strictObject({
  /** Ignored: endpoints come from the pool. */
  podLabelSelector: z.string().optional(),
  /** Ignored: endpoints come from the pool. */
  podNamespace: z.string().optional(),
  /** KV-event publisher port (`port`). */
  socketPort: z.number().int().min(1).max(65535).optional(),
  /** Replay port (`replayPort`); 0 or negative disables replay, as in llm-d. */
  replaySocketPort: z.number().int().max(65535).optional(),
});

/** llm-d's `kvEventsConfig` (llm-d `kvevents.Config`). */
const kvEventsShape = z.strictObject({
  /** Central bind address engines connect to: not supported (warning); per-endpoint SUB only. */
  zmqEndpoint: z.string().optional(),
  /** Topic prefix. */
  topicFilter: z.string().optional(),
  /** Ignored: events are applied on the event loop, in order per endpoint. */
  concurrency: z.number().int().min(0).optional(),
  /** Event layout: `vllm` or `sglang` for every endpoint (default: per endpoint, from its engine label). */
  engineType: z.enum(['vllm', 'sglang']).optional(),
  /** Ignored. */
  tracing: z.boolean().optional(),
  /** Subscribe to each endpoint's publisher. */
  discoverPods: z.boolean().optional(),
  /** Ports of the per-endpoint publishers. */
  podDiscoveryConfig: podDiscoveryShape.optional(),
});

/** One llm-d `kvCacheBackendConfigs` entry: the score weight of a storage medium. */
const backendShape = z.strictObject({ name: z.string().min(1), weight: z.number().min(0) });

/**
 * llm-d's `indexerConfig` (llm-d `kvcache.Config`). The medium weights are used; the index
 * backend choice (`kvBlockIndexConfig`: in-memory, cost-aware, Redis) and older llm-d's
 * `prefixStoreConfig` are accepted and ignored (the in-memory precise index is always used);
 * `tokenizersPoolConfig` is rejected, as llm-d's producer rejects it (use a `token-producer`).
 */
const indexerShape = z.strictObject({
  /** Ignored (warning when it selects Redis or the cost-aware index). */
  kvBlockIndexConfig: ignoredObject.optional(),
  /** Score weight per storage medium (`tierWeights`). */
  kvCacheBackendConfigs: z.array(backendShape).optional(),
  /** Weight of media missing from `kvCacheBackendConfigs`. */
  kvCacheDefaultBackendWeight: z.number().min(0).optional(),
  /** Rejected: tokenize with a `token-producer`. */
  tokenizersPoolConfig: ignoredObject.optional(),
  /** Older llm-d: ignored. */
  prefixStoreConfig: ignoredObject.optional(),
  /** Older llm-d placed the token processor here. */
  tokenProcessorConfig: tokenProcessorShape.optional(),
});

/**
 * Parameters of the precise producer, decoded strictly: llm-d's nested shape
 * (`tokenProcessorConfig`, `indexerConfig`, `kvEventsConfig`, `speculativeIndexing`,
 * `speculativeTTL`, plus `sessionManager` and `checkpoint`) and this package's flat one
 * (`blockSizeTokens`, `port`, `replayPort`, `tierWeights`, `subscribe`...). When a setting is
 * given both ways the flat one wins. `sessionManager` is rejected (no session managers here);
 * `checkpoint` is accepted and ignored (the index is not persisted).
 * @public
 * @category Plugins
 */
export const preciseProducerParameters = z.strictObject({
  /** llm-d: block hashing settings. */
  tokenProcessorConfig: tokenProcessorShape.optional(),
  /** llm-d: index settings. */
  indexerConfig: indexerShape.optional(),
  /** llm-d: KV-event subscription settings. */
  kvEventsConfig: kvEventsShape.optional(),
  /** Record the chosen endpoints' blocks before the engine confirms them. */
  speculativeIndexing: z.boolean().default(false),
  /** llm-d: lifetime of speculative entries (duration; default 2 s). */
  speculativeTTL: durationSchema.optional(),
  /** llm-d: session-cache manager plugin: not supported (config error). */
  sessionManager: z.string().optional(),
  /** llm-d: durable index snapshots: accepted, ignored. */
  checkpoint: ignoredObject.optional(),
  /** Request-side block size in tokens (default 16). */
  blockSizeTokens: z.number().int().min(1).optional(),
  /** Accepted for llm-d compatibility and ignored, like `tokenProcessorConfig.hashSeed`. */
  hashSeed: z.string().optional(),
  /** Base model name used as chain root of events without a LoRA name (default: the topic's model). */
  modelName: z.string().optional(),
  /** Weights per storage medium (default gpu 1, cpu 0.8). */
  tierWeights: z.record(z.string(), z.number().min(0)).optional(),
  /** Same as `speculativeTTL`. */
  speculativeTtl: durationSchema.optional(),
  /** Cap on matched blocks (0 = none). */
  maxPrefixBlocksToMatch: z.number().int().min(0).default(0),
  /** Subscribe to endpoints' KV-event publishers over ZMQ (false: push API only; default true). */
  subscribe: z.boolean().optional(),
  /** llm-d's `discoverPods` (same as `subscribe`). */
  discoverPods: z.boolean().optional(),
  /** Publisher port (vLLM default 5557; + data-parallel rank). */
  port: z.number().int().min(1).max(65535).optional(),
  /** Replay port (vLLM `replay_endpoint`); gaps are only counted without it. */
  replayPort: z.number().int().min(1).max(65535).optional(),
  /** Topic prefix (default `kv@`). */
  topicFilter: z.string().optional(),
});

/**
 * Parsed parameters of the precise producer.
 * @public
 * @category Plugins
 */
export type PreciseProducerParams = z.output<typeof preciseProducerParameters>;

/**
 * What the precise producer runs with once both parameter shapes are merged.
 * @internal
 */
export interface ResolvedPreciseParameters {
  readonly blockSizeTokens: number;
  readonly tierWeights: Readonly<Record<string, number>> | undefined;
  readonly otherTierWeight: number | undefined;
  readonly speculativeTtlMs: number;
  readonly subscribe: boolean;
  readonly port: number;
  readonly replayPort: number | undefined;
  readonly topicFilter: string;
  readonly dialect: KvEventDialect | undefined;
  /** Accepted settings that change nothing here and deserve a warning. */
  readonly unsupported: readonly string[];
}

const positive = (n: number | undefined): number | undefined => (n !== undefined && n > 0 ? n : undefined);

/**
 * Merges llm-d's nested parameters with the flat ones (flat wins).
 * @throws SwitchyardError `CONFIG_INVALID` for `sessionManager` and `indexerConfig.tokenizersPoolConfig`
 * @internal
 */
export function resolvePreciseParameters(p: PreciseProducerParams): ResolvedPreciseParameters {
  if (p.sessionManager !== undefined) throw new SwitchyardError('CONFIG_INVALID', `sessionManager "${p.sessionManager}": session-cache managers are not supported; remove it to match on token ids`);
  const ix = p.indexerConfig;
  if (ix?.tokenizersPoolConfig !== undefined) throw new SwitchyardError('CONFIG_INVALID', 'indexerConfig.tokenizersPoolConfig is not supported (llm-d rejects it too); configure a token-producer instead');
  const tp = p.tokenProcessorConfig ?? ix?.tokenProcessorConfig;
  const kv = p.kvEventsConfig;
  const pods = kv?.podDiscoveryConfig;
  const unsupported: string[] = [];
  if (kv?.zmqEndpoint !== undefined) unsupported.push('kvEventsConfig.zmqEndpoint (central bind) is not supported; subscribing to each endpoint instead');
  const index = ix?.kvBlockIndexConfig;
  for (const k of ['redisConfig', 'valkeyConfig', 'costAwareMemoryConfig']) {
    if (index?.[k] !== undefined) unsupported.push(`indexerConfig.kvBlockIndexConfig.${k} is not supported; using the in-memory index`);
  }
  if (p.checkpoint !== undefined) unsupported.push('checkpoint is not supported; the index is rebuilt from KV events after a restart');
  const backends = ix?.kvCacheBackendConfigs;
  return {
    blockSizeTokens: p.blockSizeTokens ?? positive(tp?.blockSizeTokens) ?? positive(tp?.blockSize) ?? 16,
    tierWeights: p.tierWeights ?? (backends === undefined ? undefined : Object.fromEntries(backends.map((b) => [b.name.toLowerCase(), b.weight]))),
    otherTierWeight: ix?.kvCacheDefaultBackendWeight,
    speculativeTtlMs: p.speculativeTtl ?? p.speculativeTTL ?? 2000,
    subscribe: p.subscribe ?? p.discoverPods ?? kv?.discoverPods ?? true,
    port: p.port ?? pods?.socketPort ?? 5557,
    replayPort: p.replayPort ?? positive(pods?.replaySocketPort),
    topicFilter: p.topicFilter ?? kv?.topicFilter ?? 'kv@',
    dialect: kv?.engineType,
    unsupported,
  };
}
