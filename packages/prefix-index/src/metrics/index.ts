export { createPrefixIndexMetrics } from './prefix-metrics.js';
export type { PrefixIndexMetrics, PrefixIndexMetricsOptions, PrefixIndexerLabel } from './prefix-metrics.js';
export { PrefixIndexerRecorder } from './indexer-recorder.js';
