export { SchedulerMetrics } from './metrics.js';
export type { SchedulerMetricsOptions, RequestLabel } from './metrics.js';
export { FastMetric, OVERFLOW_LABEL_VALUE } from './fast-metric.js';
export type { FastMetricOptions, FastMetricSample, FastMetricSeries, FastMetricValues } from './fast-metric.js';
export { FastCounter, FastCounterChild, FastGauge, FastGaugeChild, FastHistogram, FastHistogramChild } from './fast-metrics.js';
export type { FastHistogramOptions } from './fast-metrics.js';
export type { RequestSeries } from './request-series.js';
export { recordNotActedOn, NOT_ACTED_ON_METRIC } from './not-acted-on-metric.js';
export { llmdErrorCode } from './error-code.js';
