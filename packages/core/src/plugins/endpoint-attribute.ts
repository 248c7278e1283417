import { z } from 'zod';
import type { Endpoint } from '../endpoints/types.js';
import { attributeKey, type AttributeKey } from '../scheduling/attributes.js';
import type { SchedulingRequest } from '../scheduling/request.js';

/**
 * Per-endpoint numeric values a data-layer extractor publishes to each request (llm-d's
 * `ScalarMetricValue` attributes), by endpoint id: `dcgm-extractor` publishes
 * `GPUUtilization/<name>` this way, `multicluster-metrics-extractor` its pool aggregates.
 * @public
 * @category Built-in plugins
 */
export type ScalarAttribute = ReadonlyMap<string, number>;

/** The producer llm-d assumes when `producer` is omitted. */
const DEFAULT_PRODUCER = 'core-metrics-extractor';

/**
 * The data key an `endpoint-attribute-filter` / `-scorer` reads, from its `attribute` (or
 * `attributeKey`) and optional `producer`: `producer` given → `<attribute>/<producer>` (`""` →
 * the producer-agnostic `<attribute>`, as the catalogue's llm-d did); omitted → the attribute as
 * a full key when it already names its producer (`GPUUtilization/dcgm-extractor`, what newer
 * llm-d takes) and `<attribute>/core-metrics-extractor` otherwise.
 * @public
 * @category Built-in plugins
 */
export function scalarAttributeKey(attribute: string, producer?: string): AttributeKey<ScalarAttribute> {
  if (producer !== undefined) return attributeKey(producer === '' ? attribute : `${attribute}/${producer}`);
  return attributeKey(attribute.includes('/') ? attribute : `${attribute}/${DEFAULT_PRODUCER}`);
}

/**
 * The value of `endpoint` under `key` for this request, or undefined when no producer published
 * one (the attribute is an optional dependency, as in llm-d: a missing one never fails a load).
 * @public
 * @category Built-in plugins
 */
export function readScalar(request: SchedulingRequest, key: AttributeKey<ScalarAttribute>, endpoint: Endpoint): number | undefined {
  const v = request.attributes.get(key)?.get(endpoint.id);
  return v === undefined || Number.isNaN(v) ? undefined : v;
}

/** `producer` as both plugins take it (llm-d's `*string`: omitted and `""` differ). @internal */
export const producerParameter = z.string().optional();
