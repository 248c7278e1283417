import { NotActedOnReasons } from '../plugins/not-acted-on-reasons.js';
import { definePlugin } from '../registry/types.js';
import { CONCURRENCY_DETECTOR_TYPE, concurrencyDetectorParams, createConcurrencyDetector } from './concurrency-detector.js';
import { UTILIZATION_DETECTOR_TYPE, createUtilizationDetector, utilizationDetectorParams } from './utilization-detector.js';

/**
 * `utilization-detector`: saturation from scraped queue depth and KV-cache usage (stale metrics
 * count as saturated); also a fail-open filter. llm-d's default detector.
 * @public
 * @category Saturation detectors
 */
export const utilizationDetectorPlugin = definePlugin({
  type: UTILIZATION_DETECTOR_TYPE,
  parameters: utilizationDetectorParams,
  // The params are already validated and defaulted; re-validation in the factory is idempotent.
  create: (params, ctx) => createUtilizationDetector({ ...params, name: ctx.name }, ctx.clock),
  description: 'Saturation from queue depth and KV-cache utilisation; stale metrics count as saturated; also a fail-open filter.',
});

/**
 * `concurrency-detector`: saturation from in-flight requests, tokens, or both; also a filter
 * without fail-open.
 * @public
 * @category Saturation detectors
 */
export const concurrencyDetectorPlugin = definePlugin({
  type: CONCURRENCY_DETECTOR_TYPE,
  parameters: concurrencyDetectorParams,
  notActedOn: { inFlightLoadProducerName: NotActedOnReasons.inFlightLoadProducer },
  create: (params, ctx) => createConcurrencyDetector({ ...params, name: ctx.name }),
  description: 'Saturation from in-flight requests/tokens with headroom; also a filter (no fail-open).',
});
