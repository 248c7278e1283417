export { FlowControlMetrics } from './flow-metrics.js';
export type { FlowControlMetricsOptions, FlowControlMetricsSource, QueueOutcome } from './flow-metrics.js';
export { jainsIndex } from './jain.js';
