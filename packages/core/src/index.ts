/**
 * `@switchyard/core`: contracts, data layer and the Filter → Score → Pick scheduler.
 *
 * The root export is the public API, listed name by name (no `export *`), so that a helper added to
 * a module does not become public by accident. Helpers our other packages share live in
 * `@switchyard/core/internal` and carry no compatibility promise (docs/architecture.md).
 * @packageDocumentation
 */
// Clock and randomness
export { systemClock, sleep, ManualClock, seededRandom } from './clock/index.js';
export type { Clock, TimerHandle } from './clock/index.js';

// Errors and the error contract
export { ERROR_CONTRACT, SwitchyardError, isSwitchyardError, errorToResponse } from './errors/index.js';
export type { ErrorCode, SwitchyardErrorOptions, ErrorResponse } from './errors/index.js';

// Options: one resolve step per options type, errors naming the bad field
export { invalidOption, resolveOptions, optionRules } from './options/index.js';
export type { OptionRule, OptionRules } from './options/index.js';

// Kubernetes label-selector syntax (`app=x,tier in (a,b)`)
export { parseLabelSelector, selectorFromMatchLabels, matchesLabels, formatLabelSelector } from './selectors/label-selector.js';
export type { LabelSelector, LabelRequirement } from './selectors/label-selector.js';

// Header contract
export {
  normalizeHeaders, readClassificationHeader, stripControlHeaders, CONTROL_HEADER_PREFIXES,
  SIDECAR_TRUSTED_HEADERS, isControlHeader, DESTINATION_HEADER, DESTINATION_SERVED_HEADER,
  DESTINATION_SUBSET_KEY, DESTINATION_SCORES_KEY, ENVOY_LB_NAMESPACE, SUBSET_HINT_NAMESPACE, ROUTING_METADATA_NAMESPACE,
  DROPPED_REASON_HEADER, PREFILLER_HEADER, ENCODERS_HEADER, DATA_PARALLEL_HEADER,
  SESSION_TOKEN_HEADER, SESSION_ID_HEADER, REQUEST_ID_HEADER, CLASSIFICATION_HEADERS,
  CONTROL_HEADERS, CONFORMANCE_SERVED_ENDPOINT_HEADER,
} from './headers/index.js';
export type { HeaderInput, ClassificationField } from './headers/index.js';

// Request parsing
export {
  parseRequest, BUILTIN_REQUEST_PARSERS, DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_PATH,
  openAIParser, anthropicParser, vllmHttpParser, sglangHttpParser, vertexAIParser, vllmGrpcParser,
  passthroughParser, requestParserPlugin,
  requestParserPlugins, isRequestParser, estimatePromptTokens, DEFAULT_MAX_JSON_DEPTH,
} from './request/index.js';
export type {
  ApiKind, ChatMessage, PromptView, InferenceRequest, RequestParser, RequestParserInput,
  ParsedRequestBody, RequestInput, ParseOptions,
} from './request/index.js';

// Response reading (usage, model restore)
export { mergeUsage, createResponseBodyReader, responseBodyKind } from './response/index.js';
export type { ResponseBodyKind, ResponseBodyReader, ResponseBodyReaderOptions } from './response/index.js';

// Objectives and model rewrites
export {
  ObjectiveStore, ModelRewriteStore, selectRewriteTarget, resourceFromManifest,
  objectiveFromManifest, modelRewriteFromManifest, loadResources, loadObjectives,
  loadModelRewrites,
} from './objectives/index.js';
export type {
  PoolRef, InferenceObjective, ModelRewriteTarget, ModelRewriteRule, InferenceModelRewrite,
  ObjectiveStoreOptions, ModelRewriteStoreOptions, ModelRewriteMatch, ResourceKind, ParsedResource,
  LoadResourcesOptions, LoadedResources,
} from './objectives/index.js';

// Model-server metrics
export {
  parsePrometheusText, parsePrometheusExposition, formatPrometheusText, indexSamples,
  histogramSeries, ENGINE_METRIC_MAPPINGS, mappingMetricNames, extractEndpointMetrics,
  missingCoreMetrics, createHttpMetricsFetcher, readMetricsTls, logScrapeOutages, MetricsScraper,
  MIN_SCRAPE_INTERVAL_MS, applyStaleness, isStale, validateStaleness, DEFAULT_STALENESS,
} from './model-metrics/index.js';
export type {
  MetricType, Sample, MetricFamily, PrometheusParseResult, PrometheusParseOptions, HistogramSeries,
  MetricSelector, CacheInfoSelector, EngineMetricMapping, SampleIndex, MetricsFetcher,
  HttpMetricsFetcher, HttpMetricsFetcherOptions, MetricsTlsOptions, MetricsScraperOptions,
  MetricsScraperEvents, ScrapeFailureStage, ScrapeStatus, StalenessPolicy, StalenessSettings, StalenessOutcome,
} from './model-metrics/index.js';

// Endpoints and the pool
export {
  ROLE_LABEL, ENGINE_TYPE_LABEL, ENGINE_TYPE_LABEL_FALLBACK, EndpointPool,
} from './endpoints/index.js';
export type {
  EngineType, EndpointMetrics, EndpointSpec, Endpoint, EndpointPoolEvents, InFlightCounts,
} from './endpoints/index.js';

// Scheduling framework (Filter → Score → Pick)
export {
  attributeKey, AttributeMap, Attributes, prefixMatchAttribute, createSchedulingRequest,
  DEFAULT_FAIRNESS_ID, schedulingResult, TraceRecorder, Scheduler, closePlugins, configPlugins,
} from './scheduling/index.js';
export type {
  AttributeKey, PrefixMatchInfo, RequestMetadata, InFlightLoadView, LatencyPrediction, SchedulingRequest,
  SchedulingRequestInit, CycleContext, Plugin, Filter, ScoreMap, Scorer, ScoredEndpoint, Picker,
  Admitter, Screener, DataProducer, ProfileResult, SchedulingResult, RequestOutcome, Usage,
  ResponseStartInfo, DataPlaneServedReport, ResponseBodyInfo, ResponseMetadata, RequestLifecycle, SchedulingProfile, WeightedScorer, ProfileHandler,
  StageDecider, DecisionTrace, ProfileTrace, ScorerTrace, ExtensionPoint, PluginObserver,
  SchedulerConfig, SchedulerOptions,
} from './scheduling/index.js';

// Admission
export { createLegacyAdmissionController } from './admission/index.js';
export type { AdmissionController, AdmissionGrant, LegacyAdmissionOptions } from './admission/index.js';

// Saturation detectors
export {
  isSaturationDetector, createUtilizationDetector, utilizationDetectorParams,
  UTILIZATION_DETECTOR_TYPE, createConcurrencyDetector, concurrencyDetectorParams,
  CONCURRENCY_DETECTOR_TYPE, utilizationDetectorPlugin, concurrencyDetectorPlugin,
} from './saturation/index.js';
export type {
  SaturationDetector, PendingLoad, UtilizationDetector, UtilizationDetectorInput,
  UtilizationDetectorParams, ConcurrencyDetector, ConcurrencyMode, ConcurrencyDetectorInput,
  ConcurrencyDetectorParams, PoolSaturation,
} from './saturation/index.js';

// Plugin registry and packs
export { definePlugin, PluginRegistry, createDefaultRegistry, renamedPluginDefinition } from './registry/index.js';
export type {
  PluginDefinition, PluginFactoryContext, RegisterOptions, PluginPack, ConfigSections,
  AdmissionFactory, AdmissionFactoryContext,
} from './registry/index.js';

// Built-in plugins
export {
  builtinPlugins, sessionStrategySchema, encodeSessionToken, decodeSessionToken, sessionEndpointOf,
  decodeFilterPlugin, prefillFilterPlugin, encodeFilterPlugin, labelSelectorFilterPlugin,
  byLabelSelectorFilterPlugin, matchesLabelSelector, labelSelectorRequirementSchema,
  byLabelFilterPlugin, sessionAffinityFilterPlugin, sloHeadroomTierFilterPlugin, arrayScorer,
  queueScorerPlugin, runningRequestsSizeScorerPlugin, kvCacheUtilizationScorerPlugin,
  loadAwareScorerPlugin, tokenLoadScorerPlugin, activeRequestScorerPlugin,
  loraAffinityScorerPlugin, sessionAffinityScorerPlugin, latencyScorerPlugin,
  latencyScorerParametersSchema, contextLengthAwarePlugin, CONTEXT_LENGTH_RANGE_LABEL,
  estimatedTtftScorerPlugin, createEstimatedTtftScorer, estimatedTtftScorerParameters,
  ESTIMATED_TTFT_SCORER, estimateTtftMs, kvTokensOf, arrayPicker, pickerParametersSchema,
  maxScorePickerPlugin, randomPickerPlugin, weightedRandomPickerPlugin, singleProfileHandlerPlugin,
  createSingleProfileHandler, SINGLE_PROFILE_HANDLER, disaggProfileHandlerPlugin,
  pdProfileHandlerPlugin, disaggHeadersHandlerPlugin, prefillHeaderHandlerPlugin,
  dataParallelProfileHandlerPlugin, inFlightLoadProducerPlugin, sessionIdProducerPlugin,
  predictedLatencyProducerPlugin, createPredictedLatencyProducer, createEwmaLatencyPredictor,
  prefixBasedPdDeciderPlugin, prefixBasedPdDeciderParameters, createPrefixBasedPdDecider,
  PREFIX_BASED_PD_DECIDER, alwaysDisaggPdDeciderPlugin, alwaysDisaggMultimodalDeciderPlugin,
  metricsDataSourcePlugin, metricsDataSourceParameters, isMetricsDataSource, METRICS_DATA_SOURCE, countScrapeErrors,
  coreMetricsExtractorPlugin, modelServerProtocolMetricsPlugin, coreMetricsExtractorParameters,
  engineConfigParameters, isMetricsExtractor, CORE_METRICS_EXTRACTOR,
  MODEL_SERVER_PROTOCOL_METRICS, endpointNotificationSourcePlugin, ENDPOINT_NOTIFICATION_SOURCE,
  dcgmDataSourcePlugin, dcgmDataSourceParameters, createDcgmDataSource, isDcgmDataSource,
  DCGM_DATA_SOURCE, dcgmExtractorPlugin, gpuUtilizationAttribute, gpuUtilizationOf,
  isDcgmExtractor, DCGM_EXTRACTOR, DCGM_GPU_UTIL_METRIC, topologyExtractorPlugin,
  topologyExtractorParameters, topologyAttribute, isTopologyExtractor, TOPOLOGY_EXTRACTOR,
  probabilisticAdmitterPlugin, probabilisticAdmitterParameters, createProbabilisticAdmitter,
  latencySloAdmitterPlugin, createLatencySloAdmitter, LATENCY_SLO_ADMITTER,
  admitterSaturation, rejectionProbability, PROBABILISTIC_ADMITTER, mmEmbeddingsCacheProducerPlugin,
  mmEmbeddingsCacheProducerParameters, encoderCacheAttribute, multimodalItems, MM_EMBEDDINGS_CACHE_PRODUCER,
  mmEmbeddingsCacheScorerPlugin, endpointAttributeFilterPlugin, endpointAttributeFilterParameters,
  compareThreshold, ENDPOINT_ATTRIBUTE_FILTER, THRESHOLD_OPERATORS, endpointAttributeScorerPlugin,
  endpointAttributeScorerParameters, endpointAttributeScores, ENDPOINT_ATTRIBUTE_SCORER,
  scalarAttributeKey, readScalar, modelsDataSourcePlugin, modelsDataSourceParameters,
  createModelsDataSource, isModelsDataSource, MODELS_DATA_SOURCE, modelsDataExtractorPlugin,
  modelsAttribute, parseModelsList, isModelsDataExtractor, MODELS_DATA_EXTRACTOR, isResponder,
  localResponse, modelsResponderPlugin, aggregateModels, MODELS_RESPONDER, isRequestHeaderProcessor,
  agentIdentityPlugin, agentIdentityParameters, agentIdentityAttribute, firstSessionHeader,
  AGENT_IDENTITY, AGENT_SESSION_HEADERS, dpRankHeaderHandlerPlugin, dpRankFor,
  dpWinningRanksAttribute, DP_RANK_HEADER_HANDLER, DATA_PARALLEL_RANK_HEADER, mockMetricsSourcePlugin,
  createMockMetricsSource, isMockMetricsSource, MOCK_METRICS_SOURCE,
  headerBasedTestingFilterPlugin, endpointsNamedBy, HEADER_BASED_TESTING_FILTER,
  TEST_ENDPOINT_SELECTION_HEADER, topologyAffinityFilterPlugin, topologyAffinityFilterParameters,
  TOPOLOGY_AFFINITY_FILTER, utilizationFilterPlugin, utilizationFilterParameters, utilizationValue,
  UTILIZATION_FILTER, UTILIZATION_METRICS, headerLabelAffinityScorerPlugin,
  headerLabelAffinityScorerParameters, HEADER_LABEL_AFFINITY_SCORER, topologyAffinityScorerPlugin,
  topologyAffinityScorerParameters, TOPOLOGY_AFFINITY_SCORER, TOPOLOGY_AFFINITY_SCORES,
  headerProfileHandlerPlugin, headerProfileHandlerParameters, createHeaderProfileHandler,
  HEADER_PROFILE_HANDLER, TOPOLOGY_LEVELS, topologyAffinity, isEndpointDiscovery, startDiscovery,
  parseEndpointsFile, endpointSpecOf, MAX_ENDPOINTS_FILE_BYTES, fileDiscoveryPlugin,
  fileDiscoveryParameters, createFileDiscovery, FILE_DISCOVERY, FILE_WATCH_POLL_MS,
  k8sNotificationSourcePlugin, k8sNotificationSourceParameters, isK8sNotificationSource,
  K8S_NOTIFICATION_SOURCE, p2pSourceProducerPlugin, p2pSourceProducerParameters, bestMatchAttribute,
  chooseKvSource, P2P_SOURCE_PRODUCER, KV_CACHE_SOURCE_HEADER, multiclusterFileDiscoveryPlugin,
  clusterEndpointSpecOf, MULTICLUSTER_FILE_DISCOVERY, METRICS_PORT_LABEL, multiclusterQueueScorerPlugin,
  multiclusterKvCacheUtilizationScorerPlugin, MULTICLUSTER_ATTRIBUTES, multiclusterSessionAffinityFilterPlugin,
  destinationEndpointServedVerifierPlugin, servedEndpointVerdict, DESTINATION_ENDPOINT_SERVED_VERIFIER,
  requestAttributeReporterPlugin, requestAttributeReporterParameters, compileUsageExpression, usageCelValue,
  REQUEST_ATTRIBUTE_REPORTER,
  METRICS_ADDRESS_LABEL, multiclusterMetricsDataSourcePlugin, multiclusterMetricsDataSourceParameters,
  createMulticlusterMetricsDataSource, isMulticlusterMetricsDataSource, MULTICLUSTER_METRICS_DATA_SOURCE,
  multiclusterMetricsExtractorPlugin, multiclusterMetricsExtractorParameters, isMulticlusterMetricsExtractor,
  selectGaugeValue, MULTICLUSTER_METRICS_EXTRACTOR, disaggregatedsetRolloutScreenerPlugin,
  disaggregatedsetRolloutScreenerParameters, revisionDistribution, DISAGGREGATEDSET_ROLLOUT_SCREENER,
} from './plugins/index.js';
export type {
  DiscoveryTarget, EndpointDiscovery, FileEndpoint, EndpointsFileHosts, DiscoveredEndpoint,
  FileDiscovery, FileDiscoveryDeps, EndpointsFileReader, K8sNotificationSource,
  NotificationExtractor, ObjectNotification,
  SessionStrategy, LabelSelectorRequirement, ScoreIntoFn, LatencyScorerParameters,
  EstimatedTtftScorer, EstimatedTtftScorerParams, TtftEstimateDetail, TtftModel, TtftInputs,
  PickFromFn, PickerParameters, DisaggDecisionType, DisaggProfileHandler,
  PredictedLatencyProducerOptions, LatencyPredictor, LatencySample, EwmaLatencyPredictorOptions,
  PrefixBasedPdDeciderParams, PrefixBasedPdDeciderOptions, MetricsDataSource,
  MetricsDataSourceParams, MetricsSourceSettings, CoreMetricsExtractorParams, EngineConfigParams,
  ExtractorSettings, MetricsExtractor, PolledPageSource, DcgmDataSource, DcgmExtractor, Topology, TopologyView,
  TopologyExtractor, ProbabilisticAdmitterParams, EncoderCacheMatch, ThresholdOperator,
  ScalarAttribute, ModelsDataSource, ModelData, ModelsView, ModelsDataExtractor, RequestLine,
  LocalResponse, Responder, RequestHeaderProcessor, MockMetricsSource, UtilizationMetric,
  TopologyLevel, MulticlusterMetricsDataSource, MulticlusterMetricsExtractor, RevisionDistribution,
  UsageExpression,
} from './plugins/index.js';

// Configuration
export {
  createSchedulerConfig, isFilter, isScorer, isPicker, isProfileHandler, isDataProducer,
  isStageDecider, isAdmitter, durationSchema, durationOrError, parseDuration, loadConfig,
  endpointPickerConfigSchema, pluginSpecSchema, profilePluginSchema, profileDocumentSchema,
  CONFIG_API_VERSIONS, KNOWN_FEATURE_GATES, defaultScorerWeights, PREFIX_CACHE_SCORER,
  DEFAULT_PICKER, DATA_LAYER_TICK_MS, dataLayerSchema, parsePluginParameters,
} from './config/index.js';
export type {
  ProfileSpec, SchedulerConfigOptions, LoadConfigOptions, LoadedConfig,
  EndpointPickerConfigDocument, PluginSpec, ProfileDocument, DataLayerSettings,
  MetricsScrapeSettings, NotActedOnParameter, ParsedParameters,
} from './config/index.js';

// Metrics of our own
export {
  SchedulerMetrics, FastMetric, OVERFLOW_LABEL_VALUE, FastCounter, FastCounterChild, FastGauge,
  FastGaugeChild, FastHistogram, FastHistogramChild, recordNotActedOn, NOT_ACTED_ON_METRIC, llmdErrorCode,
} from './observability/index.js';
export type {
  SchedulerMetricsOptions, RequestLabel, DecisionLabel, FastMetricOptions, FastMetricSample, FastMetricSeries,
  FastMetricValues, FastHistogramOptions, RequestSeries,
} from './observability/index.js';

// EndpointPicker façade
export {
  EndpointPicker, HeaderRecord, prefersIfAvailable, ifAvailableSectionSchema, PICKER_DEFAULTS,
} from './picker/index.js';
export type {
  Classification, PickOptions, ParseTiming, Decision, RequestScheduler, EndpointPickerOptions,
  ObjectiveLookup, ModelRewriteResolver, ModelRewriteDecision, IfAvailableMode, IfAvailableOptions,
} from './picker/index.js';

// Decision console
export {
  DecisionLog, recordDecisions, DECISION_TRACE_HEADER, formatCompactTrace, buildConsoleSnapshot, consoleEndpoint, decisionSummary, poolSource,
  CONSOLE_PATH, createConsoleHandler, consoleSettingsSchema, splitConsoleSection,
  applyPoolRecording, parsePoolRecording, poolRecordingSchema, formatExplanation, explainPick,
  readPoolRecording,
} from './console/index.js';
export type {
  DecisionLogOptions, DecisionOutcome, DecisionRecord, DecisionListener, RecordDecisionsOptions, CompactTraceOptions,
  ConsoleOptions, ConsolePoolSource, ConsoleHandler, ConsoleSettings, PoolRecording,
  ExplainOptions, EndpointHealth, ConsoleEndpoint, ConsolePool, ConsoleFlow, ConsoleBand,
  ConsoleFlowControl, ConsolePrefixIndex, ConsoleDecisionSummary, ConsoleSnapshot,
} from './console/index.js';

// Logging
export { LOG_LEVELS, createLogger, parseLogLevel, requestLogger } from './logging/index.js';
export type { LogLevel, LogSink, Logger, LoggerOptions } from './logging/index.js';

// Config to picker assembly
export { createPickerFromConfig } from './assembly/index.js';
export type { PickerFromConfigOptions, PickerFromConfig } from './assembly/index.js';

// Tracing
export { loadOpenTelemetry, openTelemetryDecisionTracer } from './tracing/index.js';
export type {
  OpenTelemetryApi, SpanAttributes, SpanLike, TracerLike, DecisionTracer,
  OpenTelemetryTracerOptions, RequestSpans,
} from './tracing/index.js';

// Shared state across replicas
export {
  ReplicaSync, DEFAULT_SYNC_INTERVAL_MS, InMemoryStateHub, SharedStateMetrics,
  resolveSharedStateSettings, sharedStateSectionSchema, sharedStateSettingsOf,
  switchyardSectionSchema,
} from './state/index.js';
export type {
  ReplicaSyncOptions, InMemoryStateHubOptions, RecordDirection, ExchangeReply, ExchangeRequest,
  PeerSnapshot, ReceivedRecord, RecordHandler, ReplicaLoad, SharedRecord, SharedState,
  SharedStateStatus, SharedStateTransport, SwitchyardSection, SharedStateSettings,
  SharedStateSettingsInput,
} from './state/index.js';
