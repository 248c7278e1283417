/**
 * llm-d-router's plugin types and their parameters (snapshot ebab687, 2026-08-22), written down
 * from the catalogue of that snapshot: one entry per registered type, one probe per parameter.
 * A probe's `parameters` is a complete, valid `parameters` object for the type that sets the
 * probed parameter (to its llm-d default where there is one), so a registry that rejects it
 * rejects a configuration llm-d loads. Test data only; nothing here is exported by the package.
 */

/** What a type does in llm-d's framework (the catalogue's kinds). */
export type CatalogueKind =
  | 'parser' | 'request-header' | 'screener' | 'producer' | 'admitter' | 'filter' | 'scorer' | 'picker'
  | 'profile-handler' | 'decider' | 'request-hook' | 'data-source' | 'discovery' | 'extractor'
  | 'fairness' | 'ordering' | 'saturation-detector' | 'usage-limit' | 'eviction';

/** One parameter of a type, with a parameters object that sets it. */
export interface ParameterProbe {
  readonly parameter: string;
  readonly parameters: Record<string, unknown>;
}

/** One llm-d plugin type. */
export interface CatalogueType {
  readonly type: string;
  readonly kind: CatalogueKind;
  readonly alpha: boolean;
  /** Registered with `RegisterDeprecated` (still loads). */
  readonly deprecated: boolean;
  /** Parameters the type needs to build at all (`{}` when none). */
  readonly required: Record<string, unknown>;
  readonly probes: readonly ParameterProbe[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(a: Json, b: Json): Json {
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObject(v) && isObject(out[k]) ? merge(out[k], v) : v;
  return out;
}

/** `{a: {b: value}}` for the path `a.b`. */
function at(path: string, value: unknown): Json {
  return path.split('.').reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Json;
}

interface Spec {
  readonly kind: CatalogueKind;
  readonly alpha?: boolean;
  readonly deprecated?: boolean;
  readonly required?: Json;
  /** parameter path → sample value (nested paths with dots). */
  readonly params?: Record<string, unknown>;
  /** Probes that need a parameters object of their own (mutually exclusive fields, edge values). */
  readonly extra?: readonly ParameterProbe[];
}

const sessionAffinity = {
  strategy: 'encoded_endpoint_header',
  'encodedEndpointHeaderConfig.header': 'x-session-token',
  'sessionIdConfig.sources': [{ header: 'x-session-id' }],
  'sessionIdConfig.evictionTtlSeconds': 300,
  'sessionIdConfig.evictionSweepSeconds': 10,
  profileName: '',
};
const sessionAffinityExtra: ParameterProbe[] = [
  { parameter: 'sessionIdConfig.sources[].attribute', parameters: { strategy: 'session_id', sessionIdConfig: { sources: [{ attribute: 'agent-identity' }] } } },
  { parameter: 'sessionIdConfig.sources[].producer', parameters: { strategy: 'session_id', sessionIdConfig: { sources: [{ attribute: 'SessionIDDataKey', producer: 'session-id-producer' }] } } },
];

const approxPrefix = { autoTune: true, blockSizeTokens: 16, blockSize: 0, maxPrefixBlocksToMatch: 2048, maxPrefixTokensToMatch: 131072, lruCapacityPerServer: 31250 };

const precisePrefix = {
  'tokenProcessorConfig.blockSizeTokens': 16,
  'tokenProcessorConfig.blockSize': 16,
  'tokenProcessorConfig.hashSeed': '',
  'tokenProcessorConfig.hashAlgorithm': 'cbor-fnv',
  'indexerConfig.kvBlockIndexConfig.inMemoryConfig.size': 100_000_000,
  'indexerConfig.kvBlockIndexConfig.inMemoryConfig.podCacheSize': 10,
  'indexerConfig.kvBlockIndexConfig.redisConfig.address': 'redis://127.0.0.1:6379',
  'indexerConfig.kvBlockIndexConfig.costAwareMemoryConfig.size': '2GiB',
  'indexerConfig.kvBlockIndexConfig.enableMetrics': false,
  'indexerConfig.kvBlockIndexConfig.metricsLoggingInterval': 0,
  'indexerConfig.kvCacheBackendConfigs': [{ name: 'gpu', weight: 1 }, { name: 'cpu', weight: 0.8 }],
  'kvEventsConfig.zmqEndpoint': '',
  'kvEventsConfig.topicFilter': 'kv@',
  'kvEventsConfig.concurrency': 4,
  'kvEventsConfig.engineType': 'vllm',
  'kvEventsConfig.discoverPods': true,
  'kvEventsConfig.podDiscoveryConfig.podLabelSelector': 'llm-d.ai/inference-serving=true',
  'kvEventsConfig.podDiscoveryConfig.podNamespace': '',
  'kvEventsConfig.podDiscoveryConfig.socketPort': 5557,
  'kvEventsConfig.podDiscoveryConfig.replaySocketPort': 0,
  speculativeIndexing: false,
  speculativeTTL: '2s',
};

const tokenProducer = {
  modelName: 'Qwen/Qwen3-0.6B',
  'estimate.image.mode': 'dynamic',
  'estimate.image.defaultResolution': { width: 640, height: 360 },
  'estimate.image.static.staticToken': 256,
  'estimate.image.dynamic.factor': 1024,
  'estimate.video.defaultResolution': { width: 640, height: 360 },
  'estimate.video.defaultDuration': 10,
  'estimate.video.tokensPerFrame.mode': 'dynamic',
  'estimate.video.tokensPerFrame.static.numTokensPerFrame': 64,
  'estimate.video.tokensPerFrame.dynamic.factor': 1024,
  'estimate.video.frames.mode': 'sampled',
  'estimate.video.frames.minFrames': 0,
  'estimate.video.frames.maxFrames': 0,
  'estimate.video.frames.sampled.sampleFPS': 2,
  'estimate.video.frames.sampled.temporalPatchSize': 0,
  'estimate.video.frames.strided.defaultSourceFPS': 24,
  'estimate.video.frames.strided.frameStride': 1,
  'estimate.video.maxVideoTokens': 0,
};
const tokenProducerExtra: ParameterProbe[] = [
  { parameter: 'vllm.url', parameters: { modelName: 'm', vllm: { url: 'http://localhost:8000' } } },
  { parameter: 'vllm.timeout', parameters: { modelName: 'm', vllm: { timeout: '5s' } } },
  { parameter: 'vllm.mmTimeout', parameters: { modelName: 'm', vllm: { mmTimeout: '30s' } } },
  { parameter: 'udsTokenizerConfig', parameters: { modelName: 'm', udsTokenizerConfig: { socketFile: '/run/tokenizer.sock' } } },
];

const httpSource = { scheme: 'http', path: '/metrics', insecureSkipVerify: true, caCertPath: '', clientCertPath: '', clientKeyPath: '', interval: '' };

const engineConfig = (field: string, value: unknown): ParameterProbe => ({
  parameter: `engineConfigs[].${field}`,
  parameters: { engineConfigs: [{ name: 'custom', queuedRequestsSpec: 'q', runningRequestsSpec: 'r', kvUsageSpec: 'kv', [field]: value }] },
});

const picker = { maxNumOfEndpoints: 1 };
const none: Spec['params'] = {};

const SPECS: Record<string, Spec> = {
  // §2.1 parsers
  'openai-parser': { kind: 'parser' },
  'anthropic-parser': { kind: 'parser' },
  'vllmhttp-parser': { kind: 'parser' },
  'sglanghttp-parser': { kind: 'parser' },
  'vllmgrpc-parser': { kind: 'parser' },
  'vertexai-parser': { kind: 'parser' },
  'passthrough-parser': { kind: 'parser' },
  // §2.2–2.3
  'agent-identity': { kind: 'request-header', alpha: true, params: { additionalSessionHeaders: ['x-my-session'] } },
  'disaggregatedset-rollout-screener': {
    kind: 'screener',
    alpha: true,
    required: { scope: { labelSelector: 'app=llm' }, revisionGating: { mode: 'disabled' } },
    params: {
      'scope.labelSelector': 'app=llm,tier in (a,b)',
      headerSelectors: [{ name: 'revision', headerName: 'x-revision', labelKey: 'disaggregatedset.x-k8s.io/revision', mode: 'strict' }],
      'revisionGating.revisionLabelKey': 'disaggregatedset.x-k8s.io/revision',
      'revisionGating.roleLabelKey': 'disaggregatedset.x-k8s.io/role',
      'revisionGating.mode': 'disabled',
    },
    extra: [{ parameter: 'revisionGating.requireRoles.values', parameters: { scope: { labelSelector: 'app=llm' }, revisionGating: { mode: 'sum', requireRoles: { values: ['prefill', 'decode'] } } } }],
  },
  // §2.4 producers
  'approx-prefix-cache-producer': { kind: 'producer', params: approxPrefix },
  'multicluster-approx-prefix-cache-producer': { kind: 'producer', alpha: true, params: approxPrefix },
  'burst-prefix-cache-producer': {
    kind: 'producer',
    alpha: true,
    params: { windowDurationMs: 100, maxPerReplica: -1, blockSizeTokens: 64, maxPrefixTokensToMatch: 0, minColocateBlocks: 0, maxBatchSize: 1000, balanceBy: 'requests' },
  },
  'precise-prefix-cache-producer': { kind: 'producer', params: precisePrefix },
  'inflight-load-producer': {
    kind: 'producer',
    params: { addEstimatedOutputTokens: false, outputRatio: 1.5, maxEstimatedOutputTokens: 4096, prefixMatchInfoProducerName: '', syncCrossReplicaState: true },
  },
  'predicted-latency-producer': {
    kind: 'producer',
    params: {
      sloBufferFactor: 1, contextTTL: 300_000_000_000, streamingMode: false, endpointRoleLabel: '', predictInProduce: true, prefixMatchInfoProducerName: '',
      inFlightLoadProducerName: '', useEncoderCacheFeatures: false, encoderCacheMatchInfoProducerName: '', samplingMean: 1000, maxDecodeTokenSamplesForPrediction: 0,
    },
  },
  'mm-embeddings-cache-producer': { kind: 'producer', params: { cacheSizeInMBPerServer: 4096 } },
  'token-producer': { kind: 'producer', params: tokenProducer, extra: tokenProducerExtra },
  tokenizer: { kind: 'producer', deprecated: true, params: tokenProducer, extra: tokenProducerExtra },
  'session-id-producer': {
    kind: 'producer',
    required: { headerName: 'x-session-id' },
    params: { headerName: 'x-session-id' },
    extra: [{ parameter: 'cookieName', parameters: { cookieName: 'session' } }],
  },
  'p2p-source-producer': { kind: 'producer', alpha: true, params: { prefixMatchInfoProducerName: '', minCachedTokenDelta: 1, prefillProfileName: 'prefill' } },
  // §2.5 admitters
  'latency-slo-admitter': { kind: 'admitter', params: { latencyPredictionInfoProducerName: '' } },
  'probabilistic-admitter': { kind: 'admitter', params: { queueDepthThreshold: 5, kvCacheUtilThreshold: 0.8, power: 5, k: 300 } },
  // §2.6 filters
  'label-selector-filter': { kind: 'filter', params: { matchLabels: { 'llm-d.ai/role': 'decode' }, matchExpressions: [{ key: 'llm-d.ai/role', operator: 'In', values: ['decode'] }] } },
  'by-label-selector': { kind: 'filter', deprecated: true, params: { matchLabels: { 'llm-d.ai/role': 'decode' }, matchExpressions: [{ key: 'llm-d.ai/role', operator: 'Exists' }] } },
  'by-label': {
    kind: 'filter',
    deprecated: true,
    required: { label: 'llm-d.ai/role', validValues: ['decode'] },
    params: { label: 'llm-d.ai/role', validValues: ['decode'], allowsNoLabel: true },
  },
  'decode-filter': { kind: 'filter' },
  'prefill-filter': { kind: 'filter' },
  'encode-filter': { kind: 'filter' },
  'session-affinity-filter': { kind: 'filter', alpha: true, params: sessionAffinity, extra: sessionAffinityExtra },
  'multicluster-session-affinity-filter': { kind: 'filter', alpha: true, params: sessionAffinity, extra: sessionAffinityExtra },
  'endpoint-attribute-filter': {
    kind: 'filter',
    alpha: true,
    required: { attribute: 'gpu-utilization', algorithm: { type: 'threshold', threshold: { operator: 'LessThan', value: 0.9 } } },
    params: {
      attribute: 'gpu-utilization', producer: 'core-metrics-extractor', onMissing: 'Pass', fallbackOnEmpty: false, 'algorithm.type': 'threshold',
      'algorithm.threshold.operator': 'LessThanOrEqual', 'algorithm.threshold.value': 0.9,
    },
  },
  'topology-affinity-filter': { kind: 'filter', alpha: true, params: { minAffinity: 'host', topologyProducerName: '' } },
  'utilization-filter': {
    kind: 'filter',
    alpha: true,
    required: { conditions: [{ metric: 'waiting-queue', maxValue: 10 }] },
    params: { conditions: [{ metric: 'kv-cache-utilization', maxValue: 0.9 }], fallbackOnEmpty: false, inFlightLoadProducerName: '' },
    extra: [{ parameter: 'conditions[].metric', parameters: { conditions: [{ metric: 'active-requests', maxValue: 8 }, { metric: 'running-requests', maxValue: 16 }] } }],
  },
  'prefix-cache-affinity-filter': {
    kind: 'filter',
    params: {
      affinityThreshold: 0.8, explorationProbability: 0, maxTTFTPenaltyMs: 18000, ttftSource: 'prefillThroughput', peakPrefillThroughput: 15928,
      prefixMatchInfoProducerName: '', latencyPredictionInfoProducerName: '', inFlightLoadProducerName: '',
    },
    extra: [{ parameter: 'maxTTFTPenaltyMs: 0 (gate off) with peakPrefillThroughput: 0', parameters: { maxTTFTPenaltyMs: 0, peakPrefillThroughput: 0 } }],
  },
  'slo-headroom-tier-filter': { kind: 'filter', params: { epsilonExploreNeg: 0.01, latencyPredictionInfoProducerName: '' } },
  'header-based-testing-filter': { kind: 'filter' },
  'context-length-aware': { kind: 'filter', params: { label: 'llm-d.ai/context-length-range', enableFiltering: false } },
  // §2.7 scorers
  'queue-scorer': { kind: 'scorer' },
  'kv-cache-utilization-scorer': { kind: 'scorer' },
  'running-requests-size-scorer': { kind: 'scorer' },
  'lora-affinity-scorer': { kind: 'scorer' },
  'load-aware-scorer': { kind: 'scorer', params: { threshold: 128 } },
  'token-load-scorer': { kind: 'scorer', params: { queueThresholdTokens: 4194304, inFlightLoadProducerName: '' } },
  'active-request-scorer': { kind: 'scorer', params: { idleThreshold: 0, maxBusyScore: 1, inFlightLoadProducerName: '', requestTimeout: '2m' } },
  'no-hit-lru-scorer': { kind: 'scorer', params: { lruSize: 1024, prefixMatchInfoProducerName: '', prefixPluginType: '', prefixPluginName: '' } },
  'prefix-cache-scorer': { kind: 'scorer', params: { prefixMatchInfoProducerName: '', matchLengthWeight: 0, matchLengthScaleTokens: 8192 } },
  'multicluster-prefix-cache-scorer': { kind: 'scorer', alpha: true, params: { prefixMatchInfoProducerName: '', matchLengthWeight: 0, matchLengthScaleTokens: 8192 } },
  'multicluster-queue-scorer': { kind: 'scorer', alpha: true },
  'multicluster-kv-cache-utilization-scorer': { kind: 'scorer', alpha: true },
  'precise-prefix-cache-scorer': { kind: 'scorer', params: { ...precisePrefix, 'indexerConfig.tokenizersPoolConfig': {} } },
  'mm-embeddings-cache-scorer': { kind: 'scorer', params: { producerName: '' } },
  'session-affinity-scorer': { kind: 'scorer', alpha: true, params: sessionAffinity, extra: sessionAffinityExtra },
  'header-label-affinity-scorer': { kind: 'scorer', alpha: true, required: { headerName: 'x-revision', labelKey: 'revision' }, params: { headerName: 'x-revision', labelKey: 'revision' } },
  'endpoint-attribute-scorer': {
    kind: 'scorer',
    alpha: true,
    required: { attributeKey: 'gpu-utilization', algorithm: { type: 'linear_lower_is_better' } },
    params: { attributeKey: 'gpu-utilization', producer: 'core-metrics-extractor', 'algorithm.type': 'linear_higher_is_better', 'algorithm.normalization.adaptiveRange': {} },
    extra: [{ parameter: 'algorithm.normalization.fixedRange', parameters: { attributeKey: 'gpu-utilization', algorithm: { type: 'linear_lower_is_better', normalization: { fixedRange: { min: 0, max: 1 } } } } }],
  },
  'topology-affinity-scorer': { kind: 'scorer', alpha: true, params: { topologyProducerName: '' } },
  'latency-scorer': {
    kind: 'scorer',
    params: {
      ttftWeight: 0.8, tpotWeight: 0.2, headroomSelectionStrategy: 'least', compositeKVWeight: 1, compositeQueueWeight: 1, compositePrefixWeight: 1,
      latencyPredictionInfoProducerName: '', prefixMatchInfoProducerName: '',
    },
  },
  // §2.8 pickers
  'max-score-picker': { kind: 'picker', params: picker },
  'random-picker': { kind: 'picker', params: picker },
  'weighted-random-picker': { kind: 'picker', params: picker },
  // §2.9 profile handlers
  'single-profile-handler': { kind: 'profile-handler' },
  'header-profile-handler': { kind: 'profile-handler', alpha: true, params: { headerName: 'EPP-Profile', defaultProfile: 'decode' } },
  'data-parallel-profile-handler': { kind: 'profile-handler', params: { primaryPort: 8000 }, extra: [{ parameter: 'primaryPort: 0', parameters: { primaryPort: 0 } }] },
  'disagg-profile-handler': {
    kind: 'profile-handler',
    params: { stageOrder: 'decode-first', 'profiles.decode': 'decode', 'profiles.prefill': 'prefill', 'profiles.encode': 'encode', 'deciders.prefill': 'prefix-based-pd-decider', 'deciders.encode': 'always-disagg-multimodal-decider' },
    extra: [
      { parameter: 'stageOrder: PrefillFirst', parameters: { stageOrder: 'PrefillFirst' } },
      { parameter: 'stageOrder: DecodeFirst', parameters: { stageOrder: 'DecodeFirst' } },
      { parameter: 'decodeProfile (flat)', parameters: { decodeProfile: 'decode' } },
      { parameter: 'prefillProfile (flat)', parameters: { prefillProfile: 'prefill' } },
      { parameter: 'encodeProfile (flat)', parameters: { encodeProfile: 'encode' } },
      { parameter: 'prefillDeciderPluginName (flat)', parameters: { prefillDeciderPluginName: 'prefix-based-pd-decider' } },
      { parameter: 'encodeDeciderPluginName (flat)', parameters: { encodeDeciderPluginName: 'always-disagg-multimodal-decider' } },
      { parameter: 'deciderPluginName (flat)', parameters: { deciderPluginName: 'prefix-based-pd-decider' } },
      { parameter: 'empty decodeProfile/prefillProfile (flat)', parameters: { decodeProfile: '', prefillProfile: '' } },
    ],
  },
  'pd-profile-handler': {
    kind: 'profile-handler',
    deprecated: true,
    params: { decodeProfile: 'decode', prefillProfile: 'prefill', prefixPluginType: '', prefixPluginName: '', primaryPort: 0, deciderPluginName: 'prefix-based-pd-decider', prefixMatchInfoProducerName: '' },
  },
  // §2.10 deciders
  'always-disagg-pd-decider': { kind: 'decider' },
  'prefix-based-pd-decider': { kind: 'decider', params: { nonCachedTokens: 0, promptTokens: 0 } },
  'always-disagg-multimodal-decider': { kind: 'decider' },
  // §2.11 request-control hooks
  'disagg-headers-handler': { kind: 'request-hook', deprecated: true, params: { prefillProfile: 'prefill', encodeProfile: 'encode' } },
  'prefill-header-handler': { kind: 'request-hook', deprecated: true, params: { prefillProfile: 'prefill', encodeProfile: 'encode' } },
  'request-attribute-reporter': {
    kind: 'request-hook',
    required: { attributes: [{ key: { name: 'cost' }, expression: 'usage.total_tokens' }] },
    params: { attributes: [{ key: { namespace: 'envoy.lb', name: 'cost' }, expression: 'usage.prompt_tokens + usage.completion_tokens', condition: 'usage.total_tokens > 0' }] },
  },
  'destination-endpoint-served-verifier': { kind: 'request-hook' },
  // §2.12 data sources
  'metrics-data-source': { kind: 'data-source', params: { ...httpSource, port: 8000 } },
  'multicluster-metrics-data-source': { kind: 'data-source', alpha: true, params: { ...httpSource, scheme: 'https', insecureSkipVerify: false, port: 9090 } },
  'models-data-source': { kind: 'data-source', params: { ...httpSource, path: '/v1/models' } },
  'dcgm-data-source': { kind: 'data-source', alpha: true, params: { scheme: 'http', path: '/metrics', port: 9400, insecureSkipVerify: true, useNodeAddress: false, interval: '' } },
  'k8s-notification-source': { kind: 'data-source', required: { group: '', version: 'v1', kind: 'Pod' }, params: { group: '', version: 'v1', kind: 'Pod' } },
  'endpoint-notification-source': { kind: 'data-source' },
  // §2.13 discovery
  'file-discovery': { kind: 'discovery', required: { path: 'endpoints.yaml' }, params: { path: 'endpoints.yaml', watchFile: false } },
  'multicluster-file-discovery': { kind: 'discovery', alpha: true, required: { path: 'clusters.yaml' }, params: { path: 'clusters.yaml', watchFile: false } },
  // §2.14 extractors
  'core-metrics-extractor': {
    kind: 'extractor',
    params: { engineLabelKey: 'llm-d.ai/engine-type', defaultEngine: 'vllm' },
    extra: [
      engineConfig('name', 'custom'),
      engineConfig('queuedRequestsSpec', 'my:queue'),
      engineConfig('runningRequestsSpec', 'my:running'),
      engineConfig('kvUsageSpec', 'my:kv'),
      engineConfig('loraSpec', 'my:lora_info'),
      engineConfig('cacheInfoSpec', 'my:cache_info'),
      engineConfig('cacheBlockSizeLabelName', 'block_size'),
      engineConfig('cacheNumBlocksLabelName', 'num_gpu_blocks'),
      engineConfig('cacheBlockSizeSpec', 'my:block_size'),
      engineConfig('cacheNumBlocksSpec', 'my:num_blocks'),
      engineConfig('customMetrics', [{ attributeKey: 'gpu-utilization', metricSpec: 'DCGM_FI_DEV_GPU_UTIL' }]),
    ],
  },
  'multicluster-metrics-extractor': { kind: 'extractor', alpha: true, params: { kvCacheUtilizationMetric: 'llm_d_epp_average_kv_cache_utilization', queueSizeMetric: 'llm_d_epp_average_queue_size' } },
  'models-data-extractor': { kind: 'extractor' },
  'dcgm-extractor': { kind: 'extractor', alpha: true },
  'topology-extractor': {
    kind: 'extractor',
    alpha: true,
    params: { hostname: 'kubernetes.io/hostname', rack: 'topology.kubernetes.io/rack', zone: 'topology.kubernetes.io/zone', region: 'topology.kubernetes.io/region' },
  },
  // §2.15–2.19 flow control
  'global-strict-fairness-policy': { kind: 'fairness' },
  'round-robin-fairness-policy': { kind: 'fairness' },
  'program-aware-fairness': {
    kind: 'fairness',
    params: { strategy: 'las', evictionTtlSeconds: 3600, evictionSweepSeconds: 300, lasWeightService: 0.8, lasWeightHeadWait: 0.2, lasHalfLifeSeconds: 60 },
  },
  'fcfs-ordering-policy': { kind: 'ordering' },
  'edf-ordering-policy': { kind: 'ordering' },
  'slo-deadline-ordering-policy': { kind: 'ordering' },
  'utilization-detector': { kind: 'saturation-detector', params: { queueDepthThreshold: 5, kvCacheUtilThreshold: 0.8, metricsStalenessThreshold: '200ms', headroom: 0 } },
  'concurrency-detector': {
    kind: 'saturation-detector',
    params: { maxConcurrency: 100, headroom: 0, concurrencyMode: 'requests', maxTokenConcurrency: 1000000, inFlightLoadProducerName: '' },
  },
  'static-usage-limit-policy': { kind: 'usage-limit', params: { threshold: 1 } },
  'priority-holdback-policy': { kind: 'usage-limit', alpha: true, required: { minCeiling: 0.5 }, params: { minCeiling: 0.5, maxCeiling: 1, shape: 'linear', domain: 'rank' } },
  'soft-reflective-ceiling-policy': { kind: 'usage-limit', alpha: true },
  'sheddable-eviction-filter': { kind: 'eviction', alpha: true },
  'priority-then-time-eviction-order-policy': { kind: 'eviction', alpha: true },
};

/** Every plugin type llm-d-router registers, with a probe per parameter. */
export const LLM_D_PLUGIN_TYPES: readonly CatalogueType[] = Object.entries(SPECS).map(([type, spec]) => {
  const required = spec.required ?? {};
  const probes: ParameterProbe[] = Object.entries(spec.params ?? none).map(([path, value]) => ({ parameter: path, parameters: merge(required, at(path, value)) }));
  return { type, kind: spec.kind, alpha: spec.alpha === true, deprecated: spec.deprecated === true, required, probes: [...probes, ...(spec.extra ?? [])] };
});
