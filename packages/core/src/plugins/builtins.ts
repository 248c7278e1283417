import type { PluginDefinition } from '../registry/types.js';
import { requestParserPlugins } from '../request/parser-plugins.js';
import { coreMetricsExtractorPlugin, modelServerProtocolMetricsPlugin } from './data-layer/core-metrics-extractor.js';
import { dcgmDataSourcePlugin } from './data-layer/dcgm-data-source.js';
import { dcgmExtractorPlugin } from './data-layer/dcgm-extractor.js';
import { mmEmbeddingsCacheProducerPlugin } from './producers/mm-embeddings-cache-producer.js';
import { mmEmbeddingsCacheScorerPlugin } from './scorers/mm-embeddings-cache-scorer.js';
import { latencySloAdmitterPlugin } from './admitters/latency-slo-admitter.js';
import { probabilisticAdmitterPlugin } from './admitters/probabilistic-admitter.js';
import { topologyExtractorPlugin } from './data-layer/topology-extractor.js';
import { modelsDataSourcePlugin } from './data-layer/models-data-source.js';
import { mockMetricsSourcePlugin } from './data-layer/mock-metrics-source.js';
import { modelsDataExtractorPlugin } from './data-layer/models-data-extractor.js';
import { modelsResponderPlugin } from './responders/models-responder.js';
import { endpointAttributeFilterPlugin } from './filters/endpoint-attribute-filter.js';
import { endpointAttributeScorerPlugin } from './scorers/endpoint-attribute-scorer.js';
import { agentIdentityPlugin } from './request-headers/agent-identity.js';
import { dpRankHeaderHandlerPlugin } from './profile-handlers/dp-rank-header-handler.js';
import { endpointNotificationSourcePlugin } from './data-layer/endpoint-notification-source.js';
import { metricsDataSourcePlugin } from './data-layer/metrics-data-source.js';
import { alwaysDisaggMultimodalDeciderPlugin } from './deciders/always-disagg-multimodal-decider.js';
import { alwaysDisaggPdDeciderPlugin } from './deciders/always-disagg-pd-decider.js';
import { prefixBasedPdDeciderPlugin } from './deciders/prefix-based-pd-decider.js';
import { decodeFilterPlugin } from './filters/decode-filter.js';
import { encodeFilterPlugin } from './filters/encode-filter.js';
import { byLabelFilterPlugin } from './filters/by-label-filter.js';
import { byLabelSelectorFilterPlugin, labelSelectorFilterPlugin } from './filters/label-selector-filter.js';
import { prefillFilterPlugin } from './filters/prefill-filter.js';
import { sessionAffinityFilterPlugin } from './filters/session-affinity-filter.js';
import { sloHeadroomTierFilterPlugin } from './filters/slo-headroom-tier-filter.js';
import { maxScorePickerPlugin } from './pickers/max-score-picker.js';
import { randomPickerPlugin } from './pickers/random-picker.js';
import { weightedRandomPickerPlugin } from './pickers/weighted-random-picker.js';
import { inFlightLoadProducerPlugin } from './producers/inflight-load-producer.js';
import { predictedLatencyProducerPlugin } from './producers/predicted-latency-producer.js';
import { sessionIdProducerPlugin } from './producers/session-id-producer.js';
import { dataParallelProfileHandlerPlugin } from './profile-handlers/data-parallel.js';
import { disaggHeadersHandlerPlugin, prefillHeaderHandlerPlugin } from './profile-handlers/disagg-headers-handler.js';
import { disaggProfileHandlerPlugin } from './profile-handlers/disagg-profile-handler.js';
import { pdProfileHandlerPlugin } from './profile-handlers/pd-profile-handler.js';
import { singleProfileHandlerPlugin } from './profile-handlers/single-profile-handler.js';
import { activeRequestScorerPlugin } from './scorers/active-request-scorer.js';
import { contextLengthAwarePlugin } from './scorers/context-length-aware.js';
import { kvCacheUtilizationScorerPlugin } from './scorers/kv-cache-utilization-scorer.js';
import { latencyScorerPlugin } from './scorers/latency-scorer.js';
import { loadAwareScorerPlugin } from './scorers/load-aware-scorer.js';
import { loraAffinityScorerPlugin } from './scorers/lora-affinity-scorer.js';
import { queueScorerPlugin } from './scorers/queue-scorer.js';
import { runningRequestsSizeScorerPlugin } from './scorers/running-requests-scorer.js';
import { sessionAffinityScorerPlugin } from './scorers/session-affinity-scorer.js';
import { tokenLoadScorerPlugin } from './scorers/token-load-scorer.js';
import { estimatedTtftScorerPlugin } from './scorers/estimated-ttft-scorer.js';
import { headerBasedTestingFilterPlugin } from './filters/header-based-testing-filter.js';
import { topologyAffinityFilterPlugin } from './filters/topology-affinity-filter.js';
import { utilizationFilterPlugin } from './filters/utilization-filter.js';
import { headerLabelAffinityScorerPlugin } from './scorers/header-label-affinity-scorer.js';
import { topologyAffinityScorerPlugin } from './scorers/topology-affinity-scorer.js';
import { headerProfileHandlerPlugin } from './profile-handlers/header-profile-handler.js';
import { fileDiscoveryPlugin } from './discovery/file-discovery.js';
import { k8sNotificationSourcePlugin } from './data-layer/k8s-notification-source.js';
import { p2pSourceProducerPlugin } from './producers/p2p-source-producer.js';
import { multiclusterFileDiscoveryPlugin } from './discovery/multicluster-file-discovery.js';
import { multiclusterKvCacheUtilizationScorerPlugin, multiclusterQueueScorerPlugin } from './scorers/multicluster-scorers.js';
import { multiclusterSessionAffinityFilterPlugin } from './filters/multicluster-session-affinity-filter.js';
import { destinationEndpointServedVerifierPlugin } from './response-hooks/destination-endpoint-served-verifier.js';
import { requestAttributeReporterPlugin } from './response-hooks/request-attribute-reporter.js';
import { multiclusterMetricsDataSourcePlugin } from './data-layer/multicluster-metrics-data-source.js';
import { multiclusterMetricsExtractorPlugin } from './data-layer/multicluster-metrics-extractor.js';
import { disaggregatedsetRolloutScreenerPlugin } from './screeners/disaggregatedset-rollout-screener.js';

/**
 * Every plugin definition core ships that needs no prefix index: filters, scorers, pickers,
 * profile handlers, stage deciders, data producers and the data-layer plugins
 * (`metrics-data-source`, `core-metrics-extractor`, `endpoint-notification-source`), the request
 * parsers (`openai-parser`, `anthropic-parser`, `vllmhttp-parser`, `passthrough-parser`), plus the
 * deprecated llm-d names older configs still use (`by-label`, `by-label-selector`,
 * `pd-profile-handler`, `data-parallel-profile-handler`, `disagg-headers-handler`,
 * `prefill-header-handler`).
 * `createDefaultRegistry()` registers them (plus the saturation detectors).
 * @public
 * @category Built-in plugins
 */
export const builtinPlugins: readonly PluginDefinition[] = [
  decodeFilterPlugin,
  prefillFilterPlugin,
  encodeFilterPlugin,
  labelSelectorFilterPlugin,
  byLabelSelectorFilterPlugin,
  byLabelFilterPlugin,
  sessionAffinityFilterPlugin,
  sloHeadroomTierFilterPlugin,
  queueScorerPlugin,
  runningRequestsSizeScorerPlugin,
  kvCacheUtilizationScorerPlugin,
  loadAwareScorerPlugin,
  tokenLoadScorerPlugin,
  estimatedTtftScorerPlugin,
  activeRequestScorerPlugin,
  loraAffinityScorerPlugin,
  sessionAffinityScorerPlugin,
  latencyScorerPlugin,
  contextLengthAwarePlugin,
  maxScorePickerPlugin,
  randomPickerPlugin,
  weightedRandomPickerPlugin,
  singleProfileHandlerPlugin,
  disaggProfileHandlerPlugin,
  pdProfileHandlerPlugin,
  dataParallelProfileHandlerPlugin,
  disaggHeadersHandlerPlugin,
  prefillHeaderHandlerPlugin,
  prefixBasedPdDeciderPlugin,
  alwaysDisaggPdDeciderPlugin,
  alwaysDisaggMultimodalDeciderPlugin,
  inFlightLoadProducerPlugin,
  sessionIdProducerPlugin,
  predictedLatencyProducerPlugin,
  metricsDataSourcePlugin,
  coreMetricsExtractorPlugin,
  modelServerProtocolMetricsPlugin,
  endpointNotificationSourcePlugin,
  dcgmDataSourcePlugin,
  dcgmExtractorPlugin,
  topologyExtractorPlugin,
  probabilisticAdmitterPlugin,
  latencySloAdmitterPlugin,
  mmEmbeddingsCacheProducerPlugin,
  mmEmbeddingsCacheScorerPlugin,
  modelsDataSourcePlugin,
  modelsDataExtractorPlugin,
  modelsResponderPlugin,
  endpointAttributeFilterPlugin,
  endpointAttributeScorerPlugin,
  agentIdentityPlugin,
  dpRankHeaderHandlerPlugin,
  mockMetricsSourcePlugin,
  headerBasedTestingFilterPlugin,
  topologyAffinityFilterPlugin,
  utilizationFilterPlugin,
  headerLabelAffinityScorerPlugin,
  topologyAffinityScorerPlugin,
  headerProfileHandlerPlugin,
  fileDiscoveryPlugin,
  k8sNotificationSourcePlugin,
  p2pSourceProducerPlugin,
  multiclusterFileDiscoveryPlugin,
  multiclusterQueueScorerPlugin,
  multiclusterKvCacheUtilizationScorerPlugin,
  multiclusterSessionAffinityFilterPlugin,
  destinationEndpointServedVerifierPlugin,
  requestAttributeReporterPlugin,
  multiclusterMetricsDataSourcePlugin,
  multiclusterMetricsExtractorPlugin,
  disaggregatedsetRolloutScreenerPlugin,
  ...requestParserPlugins,
];
