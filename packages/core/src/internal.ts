/**
 * `@switchyard/core/internal`: helpers and structures that Switchyard's own packages share (JSON
 * field readers, response scanners, address parsing, stage partitions).
 * Not part of the public API: names here may change in any release. Applications use the root
 * export.
 * @packageDocumentation
 */
// Request parsing
export {
  selectParser, resolveRequestPath, decodeJsonObject, tryDecodeJsonObject, isJsonObject,
  jsonTypeOf, readModel, readOptionalBoolean, readOptionalString, readOptionalCount,
  readOptionalArray, readFirstCount, utf8ByteLength, exceedsJsonDepth,
} from './request/index.js';
export type { JsonObject } from './request/index.js';

// Response reading (usage, model restore)
export {
  usageFromWire, readUsage, extractUsage, SseUsageScanner, ModelNameRestorer,
} from './response/index.js';

// Model-server metrics
export { formatSampleValue, labelsMatch } from './model-metrics/index.js';

// Endpoints and the pool
export { parseAddress, joinHostPort } from './endpoints/index.js';
export type { ParsedAddress } from './endpoints/index.js';

// Scheduling framework (Filter → Score → Pick)
export { orderProducers, abandonPlugins } from './scheduling/index.js';

// Saturation detectors
export { partitionStages, stageSaturation, poolSaturation } from './saturation/index.js';
export type { StagePartition } from './saturation/index.js';

// Built-in plugins
export {
  requestPromptTokens, producedPromptTokens, uncachedPromptTokens, localInFlightLoad,
  poolInFlightLoad, parseMetricSpec, metricsSourceSettings, engineMappingFromConfig,
  extractorSettings,
} from './plugins/index.js';

// Configuration
export { withScrapePort, poolDiscoveryTarget, formatNotActedOn } from './config/index.js';

// Decision console
export { errorName, findChromium, parseHeaderFlags } from './console/index.js';

// Metrics: llm-d's deprecated twins of our families
export { registerDeprecatedTwin, sameLabels } from './observability/index.js';
export type { TwinLabels } from './observability/index.js';

// Logging
export { formatLogLine } from './logging/index.js';
