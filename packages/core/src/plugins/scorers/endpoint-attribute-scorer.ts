import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { Endpoint } from '../../endpoints/types.js';
import { producerParameter, readScalar, scalarAttributeKey } from '../endpoint-attribute.js';
import { arrayScorer } from './scorer-base.js';

/**
 * Type of llm-d's endpoint-attribute scorer. @public
 * @category Built-in plugins
 */
export const ENDPOINT_ATTRIBUTE_SCORER = 'endpoint-attribute-scorer';

/**
 * Parameters of `endpoint-attribute-scorer`, with llm-d's names: `attributeKey` (required),
 * `producer` (see `scalarAttributeKey`), `algorithm.type` `linear_lower_is_better` |
 * `linear_higher_is_better` and `algorithm.normalization` with at most one of `fixedRange
 * { min, max }` (min < max) and `adaptiveRange {}` (the default).
 * @public
 * @category Built-in plugins
 */
export const endpointAttributeScorerParameters = z
  .strictObject({
    attributeKey: z.string().min(1),
    producer: producerParameter,
    algorithm: z.strictObject({
      type: z.enum(['linear_lower_is_better', 'linear_higher_is_better']),
      normalization: z
        .strictObject({
          fixedRange: z.strictObject({ min: z.number().default(0), max: z.number().default(0) }).optional(),
          adaptiveRange: z.strictObject({}).optional(),
        })
        .prefault({}),
    }),
  })
  .superRefine((p, ctx) => {
    const n = p.algorithm.normalization;
    if (n.fixedRange !== undefined && n.adaptiveRange !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['algorithm', 'normalization'], message: 'give at most one of fixedRange and adaptiveRange' });
    }
    if (n.fixedRange !== undefined && !(n.fixedRange.min < n.fixedRange.max)) {
      ctx.addIssue({ code: 'custom', path: ['algorithm', 'normalization', 'fixedRange'], message: `min must be below max, got min ${n.fixedRange.min}, max ${n.fixedRange.max}` });
    }
  });

/**
 * Scores of an attribute's values (`values[i]` of `endpoints[i]`, undefined = no value → 0):
 * with a fixed range, `clamp((v − min)/(max − min), 0, 1)`; adaptive, min-max over the
 * candidates that have a value (all equal → 1); inverted when lower is better.
 * @public
 * @category Built-in plugins
 */
export function endpointAttributeScores(values: readonly (number | undefined)[], lowerIsBetter: boolean, fixedRange: { readonly min: number; readonly max: number } | undefined, out: Float64Array): void {
  let min = fixedRange?.min ?? Infinity;
  let max = fixedRange?.max ?? -Infinity;
  if (fixedRange === undefined) {
    for (const v of values) {
      if (v === undefined) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) {
      out[i] = 0;
      continue;
    }
    if (fixedRange === undefined && max === min) {
      out[i] = 1; // every candidate with a value has the same one: neutral
      continue;
    }
    const n = Math.min(1, Math.max(0, (v - min) / (max - min)));
    out[i] = lowerIsBetter ? 1 - n : n;
  }
}

/**
 * `endpoint-attribute-scorer` (llm-d, alpha): scores endpoints linearly by a numeric attribute
 * (e.g. `GPUUtilization/dcgm-extractor`), against a fixed range or the candidates' own range.
 * @public
 * @category Built-in plugins
 */
export const endpointAttributeScorerPlugin = definePlugin({
  type: ENDPOINT_ATTRIBUTE_SCORER,
  description: 'Linear score of a numeric endpoint attribute (fixed or adaptive range).',
  parameters: endpointAttributeScorerParameters,
  create: (p, ctx) => {
    const key = scalarAttributeKey(p.attributeKey, p.producer);
    const lower = p.algorithm.type === 'linear_lower_is_better';
    const fixed = p.algorithm.normalization.fixedRange;
    return arrayScorer(ENDPOINT_ATTRIBUTE_SCORER, ctx.name, (_c, request, endpoints, out) => {
      const values = endpoints.map((e: Endpoint) => readScalar(request, key, e));
      endpointAttributeScores(values, lower, fixed, out);
    });
  },
});
