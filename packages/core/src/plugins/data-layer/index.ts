export { parseMetricSpec } from './metric-spec.js';
export { metricsDataSourcePlugin, metricsDataSourceParameters, metricsSourceSettings, isMetricsDataSource, METRICS_DATA_SOURCE } from './metrics-data-source.js';
export type { MetricsDataSource, MetricsDataSourceParams, MetricsSourceSettings } from './metrics-data-source.js';
export {
  coreMetricsExtractorPlugin,
  modelServerProtocolMetricsPlugin,
  coreMetricsExtractorParameters,
  engineConfigParameters,
  engineMappingFromConfig,
  extractorSettings,
  isMetricsExtractor,
  CORE_METRICS_EXTRACTOR,
  MODEL_SERVER_PROTOCOL_METRICS,
} from './core-metrics-extractor.js';
export type { CoreMetricsExtractorParams, EngineConfigParams, ExtractorSettings, MetricsExtractor } from './core-metrics-extractor.js';
export { endpointNotificationSourcePlugin, ENDPOINT_NOTIFICATION_SOURCE } from './endpoint-notification-source.js';
export { dcgmDataSourcePlugin, dcgmDataSourceParameters, createDcgmDataSource, isDcgmDataSource, DCGM_DATA_SOURCE } from './dcgm-data-source.js';
export type { DcgmDataSource } from './dcgm-data-source.js';
export type { PolledPageSource } from './page-poller.js';
export { dcgmExtractorPlugin, gpuUtilizationAttribute, gpuUtilizationOf, isDcgmExtractor, DCGM_EXTRACTOR, DCGM_GPU_UTIL_METRIC } from './dcgm-extractor.js';
export type { DcgmExtractor } from './dcgm-extractor.js';
export {
  multiclusterMetricsDataSourcePlugin,
  multiclusterMetricsDataSourceParameters,
  createMulticlusterMetricsDataSource,
  isMulticlusterMetricsDataSource,
  MULTICLUSTER_METRICS_DATA_SOURCE,
} from './multicluster-metrics-data-source.js';
export type { MulticlusterMetricsDataSource } from './multicluster-metrics-data-source.js';
export {
  multiclusterMetricsExtractorPlugin,
  multiclusterMetricsExtractorParameters,
  isMulticlusterMetricsExtractor,
  selectGaugeValue,
  MULTICLUSTER_METRICS_EXTRACTOR,
} from './multicluster-metrics-extractor.js';
export type { MulticlusterMetricsExtractor } from './multicluster-metrics-extractor.js';
export { topologyExtractorPlugin, topologyExtractorParameters, topologyAttribute, isTopologyExtractor, TOPOLOGY_EXTRACTOR } from './topology-extractor.js';
export type { Topology, TopologyView, TopologyExtractor } from './topology-extractor.js';
export { modelsDataSourcePlugin, modelsDataSourceParameters, createModelsDataSource, isModelsDataSource, MODELS_DATA_SOURCE } from './models-data-source.js';
export type { ModelsDataSource } from './models-data-source.js';
export { modelsDataExtractorPlugin, modelsAttribute, parseModelsList, isModelsDataExtractor, MODELS_DATA_EXTRACTOR } from './models-data-extractor.js';
export type { ModelData, ModelsView, ModelsDataExtractor } from './models-data-extractor.js';
export { mockMetricsSourcePlugin, createMockMetricsSource, isMockMetricsSource, MOCK_METRICS_SOURCE } from './mock-metrics-source.js';
export type { MockMetricsSource } from './mock-metrics-source.js';
export { countScrapeErrors } from './scrape-errors.js';
export { k8sNotificationSourcePlugin, k8sNotificationSourceParameters, isK8sNotificationSource, K8S_NOTIFICATION_SOURCE } from './k8s-notification-source.js';
export type { K8sNotificationSource, NotificationExtractor, ObjectNotification } from './k8s-notification-source.js';
