import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes, type InFlightLoadView } from '../../scheduling/attributes.js';
import type { Filter } from '../../scheduling/plugins.js';
import { NotActedOnReasons } from '../not-acted-on-reasons.js';

/**
 * Type of llm-d's utilization filter. @public
 * @category Built-in plugins
 */
export const UTILIZATION_FILTER = 'utilization-filter';

/**
 * Metrics a `utilization-filter` condition can bound (llm-d's names). @public
 * @category Built-in plugins
 */
export const UTILIZATION_METRICS = ['active-requests', 'running-requests', 'waiting-queue', 'kv-cache-utilization'] as const;

/**
 * One of {@link UTILIZATION_METRICS}. @public
 * @category Built-in plugins
 */
export type UtilizationMetric = (typeof UTILIZATION_METRICS)[number];

const condition = z
  .strictObject({ metric: z.enum(UTILIZATION_METRICS), maxValue: z.number().min(0) })
  .refine((c) => c.metric !== 'kv-cache-utilization' || c.maxValue <= 1, { error: 'maxValue: must be at most 1 for kv-cache-utilization (a fraction)', path: ['maxValue'] });

/**
 * Parameters of `utilization-filter` (llm-d's): `conditions` (at least one `{ metric, maxValue }`,
 * `maxValue` required, ≥ 0, ≤ 1 for `kv-cache-utilization`), `fallbackOnEmpty` (default false).
 * `inFlightLoadProducerName` is accepted: the `inflight-load` attribute is read whoever wrote it.
 * @public
 * @category Built-in plugins
 */
export const utilizationFilterParameters = z.strictObject({
  conditions: z.array(condition).min(1),
  fallbackOnEmpty: z.boolean().default(false),
});

/**
 * Current value of `metric` on `endpoint`; missing metrics and attributes read as 0 (llm-d's rule). @public
 * @category Built-in plugins
 */
export function utilizationValue(metric: UtilizationMetric, endpoint: Endpoint, load: InFlightLoadView | undefined): number {
  const m = endpoint.metrics;
  switch (metric) {
    case 'active-requests':
      return load === undefined ? endpoint.inFlightRequests : load.requests(endpoint);
    case 'running-requests':
      return m?.runningRequestsSize ?? 0;
    case 'waiting-queue':
      return m?.waitingQueueSize ?? 0;
    case 'kv-cache-utilization':
      return m?.kvCacheUsagePercent ?? 0;
  }
}

/**
 * `utilization-filter` (llm-d, alpha): drops an endpoint when any condition's value exceeds its
 * `maxValue`; with `fallbackOnEmpty`, an empty result returns every candidate.
 * @public
 * @category Built-in plugins
 */
export const utilizationFilterPlugin = definePlugin({
  type: UTILIZATION_FILTER,
  description: 'Drops endpoints over any utilization bound (active/running requests, waiting queue, KV-cache utilization).',
  parameters: utilizationFilterParameters,
  consumes: [Attributes.inFlightLoad.name],
  notActedOn: { inFlightLoadProducerName: NotActedOnReasons.inFlightLoadProducer },
  create: (p, ctx): Filter => ({
    type: UTILIZATION_FILTER,
    name: ctx.name,
    filter(_c, request, endpoints) {
      const load = request.attributes.get(Attributes.inFlightLoad);
      const kept = endpoints.filter((e) => p.conditions.every((c) => utilizationValue(c.metric, e, load) <= c.maxValue));
      return kept.length === 0 && p.fallbackOnEmpty ? endpoints : kept;
    },
  }),
});
