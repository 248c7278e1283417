export { createPrefixIndexMetrics } from './prefix-metrics.js';
export type { PrefixIndexMetrics, PrefixIndexMetricsOptions } from './prefix-metrics.js';
