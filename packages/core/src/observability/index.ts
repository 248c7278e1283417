export { SchedulerMetrics } from './metrics.js';
export type { SchedulerMetricsOptions, RequestLabel } from './metrics.js';
