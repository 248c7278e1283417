import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { Endpoint } from '../../endpoints/types.js';
import type { Filter } from '../../scheduling/plugins.js';
import { producerParameter, readScalar, scalarAttributeKey } from '../endpoint-attribute.js';

/**
 * Type of llm-d's endpoint-attribute filter. @public
 * @category Built-in plugins
 */
export const ENDPOINT_ATTRIBUTE_FILTER = 'endpoint-attribute-filter';

/**
 * Comparison operators of `algorithm.threshold.operator` (llm-d's spellings). @public
 * @category Built-in plugins
 */
export const THRESHOLD_OPERATORS = ['LessThan', 'LessThanOrEqual', 'GreaterThan', 'GreaterThanOrEqual', 'Equal', 'NotEqual'] as const;

/**
 * One of {@link THRESHOLD_OPERATORS}. @public
 * @category Built-in plugins
 */
export type ThresholdOperator = (typeof THRESHOLD_OPERATORS)[number];

/**
 * Parameters of `endpoint-attribute-filter`, with llm-d's names and defaults: `attribute`
 * (required), `producer` (see `scalarAttributeKey`), `onMissing` `Pass` | `Fail` (default
 * `Pass`), `fallbackOnEmpty` (default false) and `algorithm` `{ type: threshold, threshold:
 * { operator, value } }` (`threshold` is the only algorithm llm-d has).
 * @public
 * @category Built-in plugins
 */
export const endpointAttributeFilterParameters = z.strictObject({
  attribute: z.string().min(1),
  producer: producerParameter,
  onMissing: z.union([z.literal(''), z.enum(['Pass', 'Fail'])]).default('Pass'),
  fallbackOnEmpty: z.boolean().default(false),
  algorithm: z.strictObject({
    type: z.literal('threshold'),
    threshold: z.strictObject({ operator: z.enum(THRESHOLD_OPERATORS), value: z.number().default(0) }),
  }),
});

/**
 * True when `value <operator> threshold` (llm-d's comparison, exact for `Equal` / `NotEqual`).
 * @public
 * @category Built-in plugins
 */
export function compareThreshold(value: number, operator: ThresholdOperator, threshold: number): boolean {
  switch (operator) {
    case 'LessThan':
      return value < threshold;
    case 'LessThanOrEqual':
      return value <= threshold;
    case 'GreaterThan':
      return value > threshold;
    case 'GreaterThanOrEqual':
      return value >= threshold;
    case 'Equal':
      return value === threshold;
    case 'NotEqual':
      return value !== threshold;
  }
}

/**
 * `endpoint-attribute-filter` (llm-d, alpha): keeps the endpoints whose numeric attribute (a
 * `dcgm-extractor`'s `GPUUtilization/<name>`, or any scalar attribute a producer publishes)
 * satisfies `value <operator> threshold`. Endpoints without the value are kept (`onMissing:
 * Pass`) or dropped (`Fail`); with `fallbackOnEmpty` an empty result returns every candidate.
 * @public
 * @category Built-in plugins
 */
export const endpointAttributeFilterPlugin = definePlugin({
  type: ENDPOINT_ATTRIBUTE_FILTER,
  description: 'Keeps endpoints whose numeric attribute passes a threshold (value <op> threshold).',
  parameters: endpointAttributeFilterParameters,
  create: (p, ctx): Filter => {
    const key = scalarAttributeKey(p.attribute, p.producer);
    const passOnMissing = p.onMissing !== 'Fail';
    const { operator, value: threshold } = p.algorithm.threshold;
    return {
      type: ENDPOINT_ATTRIBUTE_FILTER,
      name: ctx.name,
      filter(_c, request, endpoints) {
        const kept: Endpoint[] = [];
        for (const e of endpoints) {
          const v = readScalar(request, key, e);
          if (v === undefined ? passOnMissing : compareThreshold(v, operator, threshold)) kept.push(e);
        }
        if (kept.length === endpoints.length) return endpoints;
        return kept.length === 0 && p.fallbackOnEmpty ? endpoints : kept;
      },
    };
  },
});
