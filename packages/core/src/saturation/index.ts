export { isSaturationDetector } from './types.js';
export type { SaturationDetector, PendingLoad } from './types.js';
export {
  createUtilizationDetector,
  utilizationDetectorParams,
  UTILIZATION_DETECTOR_TYPE,
} from './utilization-detector.js';
export type {
  UtilizationDetector,
  UtilizationDetectorInput,
  UtilizationDetectorParams,
} from './utilization-detector.js';
export {
  createConcurrencyDetector,
  concurrencyDetectorParams,
  CONCURRENCY_DETECTOR_TYPE,
} from './concurrency-detector.js';
export type {
  ConcurrencyDetector,
  ConcurrencyMode,
  ConcurrencyDetectorInput,
  ConcurrencyDetectorParams,
} from './concurrency-detector.js';
export { partitionStages, stageSaturation, poolSaturation } from './stages.js';
export type { StagePartition, PoolSaturation } from './stages.js';
export { utilizationDetectorPlugin, concurrencyDetectorPlugin } from './plugins.js';
