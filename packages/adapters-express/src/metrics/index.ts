export { mergeExpositions } from './merge.js';
export { FastCounter, FastGauge, FastHistogram, FastCounterChild, FastGaugeChild, FastHistogramChild } from './fast-metrics.js';
export type { FastMetricOptions, FastMetricSample, FastMetricValues } from './fast-metrics.js';
