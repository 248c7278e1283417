export { SchedulerMetrics } from './metrics.js';
export type { SchedulerMetricsOptions, RequestLabel, RequestLabels } from './metrics.js';
