export { PreciseKvIndex } from './precise-index.js';
export { DEFAULT_TIER_WEIGHTS } from './tiers.js';
export type { KvIngestProblem, KvIngestObserver, KvBatchSource, PreciseKvIndexCounters, PreciseKvIndexOptions } from './types.js';
