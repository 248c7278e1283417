/**
 * `@switchyard/prefix-index`: KV-cache prefix indexes (approximate and KV-event precise) and prefix-aware scheduling plugins for Switchyard.
 *
 * The root export lists its public names one by one (no `export *`), grouped by module.
 * @packageDocumentation
 */
// api
export { silentLogger, consoleLogger, OncePerCauseLogger } from './api/index.js';
export type {
  BlockKeys, KeyChain, EndpointMatch, PrefixMatchResult, PrefixIndexStats, PrefixIndex, PrefixIndexLogger,
} from './api/index.js';

// hashing
export {
  PrefixHasher, createPrefixHasher, encodePromptBytes, tokensToBytes, bytesToTokens,
  pseudoTokenCount, effectiveBlockSizeTokens, maxBlocksToMatch, MIN_APPROX_BLOCK_SIZE_TOKENS,
} from './hashing/index.js';
export type { ChainOptions } from './hashing/index.js';

// approximate
export { ApproximatePrefixIndex, DEFAULT_LRU_CAPACITY_PER_ENDPOINT } from './approximate/index.js';
export type { ApproximatePrefixIndexOptions, ApproximatePrefixIndexEvents } from './approximate/index.js';

// kv-events
export {
  decodeKvEventBatch, encodeVllmEventBatch, foldHashBytes, toEngineHash, engineHashHandle,
  DEFAULT_KV_DECODE_LIMITS,
} from './kv-events/index.js';
export type {
  EngineBlockHash, BlockStoredEvent, BlockRemovedEvent, AllBlocksClearedEvent, KvEvent,
  KvEventBatch, KvEventDialect, KvDecodeErrorCause, KvDecodeError, KvDecodeResult, KvDecodeOptions,
  KvEncodeOptions, KvDecodeLimits,
} from './kv-events/index.js';

// precise
export { PreciseKvIndex, DEFAULT_TIER_WEIGHTS } from './precise/index.js';
export type {
  KvIngestProblem, KvIngestObserver, KvBatchSource, PreciseKvIndexCounters, PreciseKvIndexOptions,
} from './precise/index.js';

// metrics
export { createPrefixIndexMetrics } from './metrics/index.js';
export type { PrefixIndexMetrics, PrefixIndexMetricsOptions, PrefixIndexerLabel } from './metrics/index.js';

// subscriber
export {
  KvEventSubscriber, DEFAULT_KV_EVENTS_PORT, requestReplay, encodeSeq, decodeSeq, topicModel,
  REPLAY_END_SEQ, loadZeromq,
} from './subscriber/index.js';
export type {
  KvEventSubscriberOptions, KvEventSubscriberEvents, KvSubscriptionStatus, KvEndpointAddress,
  KvEventSink, ReplayRequest, ReplayOutcome, ZmqModule, ZmqSocketLike, ZmqSubscriberLike,
  ZmqDealerLike, KvEventBudgetOptions,
} from './subscriber/index.js';

// tokenizer
export {
  functionTokenizer, VllmRenderTokenizer, readTokenIds, createLocalTokenizer,
} from './tokenizer/index.js';
export type {
  Tokenizer, TokenizeFunction, VllmRenderTokenizerOptions, LocalTokenizerOptions,
} from './tokenizer/index.js';

// plugins
export {
  PrefixAttributes, matchInfoAttribute, blockKeysAttribute, readMatchInfo, matchInfoConsumes,
  publishMatchInfo, TokenProducer, tokenProducerDefinition, legacyTokenizerDefinition,
  TOKEN_PRODUCER, tokenProducerParameters, ApproximatePrefixProducer,
  approximateProducerDefinition, approximateProducerParameters, APPROX_PREFIX_PRODUCER,
  PREFIX_HASH_SOURCES, PREFIX_HASHES_FIELD, canonicalUint64, readPrefixHashes, Uint64KeyInterner,
  MAX_SHARED_BLOCKS, PrecisePrefixProducer, preciseProducerDefinition, PRECISE_PREFIX_PRODUCER,
  preciseProducerParameters, createPrefixCacheScorer, prefixCacheScore,
  prefixCacheScorerDefinition, prefixCacheScorerParameters, PREFIX_CACHE_SCORER, NoHitLruScorer,
  noHitLruScorerDefinition, noHitLruScorerParameters, NO_HIT_LRU_SCORER, lmetricScorerDefinition,
  lmetricScorerParameters, lmetricCost, createLmetricScorer, LMETRIC_SCORER, createAffinityFilter,
  affinityFilterDefinition, affinityFilterParameters, PREFIX_CACHE_AFFINITY_FILTER,
  loadPrefixIndexPlugins, registerPrefixIndexPlugins, prefixIndexPack, prefixIndexConsoleSource,
} from './plugins/index.js';
export type {
  PromptBytes, PrefixPluginEnv, PrefixHashesRead, TokenProducerParams, ApproximatePrefixProducerOptions,
  ApproximateProducerParams, PrecisePrefixProducerOptions, PreciseProducerParams,
  PrefixCacheScorerParams, NoHitLruScorerParams, AffinityFilterOptions, AffinityFilterParams,
  PrefixIndexPluginOptions,
} from './plugins/index.js';

// profiles/switchyard
export { routingProfileConfig, SWITCHYARD_PROFILE_YAML, ROUTING_PROFILES } from './profiles/switchyard.js';
export type { RoutingProfileName } from './profiles/switchyard.js';
