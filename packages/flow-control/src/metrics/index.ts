export { FlowControlMetrics, QUEUE_OUTCOMES } from './flow-metrics.js';
export { ModelOutcomeCache } from './model-outcome-cache.js';
export type { FlowControlMetricsOptions, FlowControlMetricsSource, QueueOutcome, EnqueueOutcome, OutcomeSeriesCache } from './flow-metrics.js';
export { SeriesHistogram, SeriesHistogramChild } from './series-histogram.js';
export type { SeriesHistogramOptions } from './series-histogram.js';
export { jainsIndex } from './jain.js';
