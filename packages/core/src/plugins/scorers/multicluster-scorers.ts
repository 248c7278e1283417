import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { scalarAttributeKey, type ScalarAttribute } from '../endpoint-attribute.js';
import { arrayScorer } from './scorer-base.js';
import type { AttributeKey } from '../../scheduling/attributes.js';

/**
 * Producer-agnostic attributes a `multicluster-metrics-extractor` publishes per cluster endpoint,
 * from the remote EPP's pool gauges (llm-d's keys).
 * @public
 * @category Built-in plugins
 */
export const MULTICLUSTER_ATTRIBUTES = {
  /** The cluster pool's average KV-cache utilization, a fraction. */
  kvCacheUtilization: scalarAttributeKey('llm-d.ai/multicluster-kv-cache-utilization', ''),
  /** The cluster pool's average waiting-queue size. */
  queueSize: scalarAttributeKey('llm-d.ai/multicluster-queue-size', ''),
} as const;

function attributeScorer(type: string, description: string, key: AttributeKey<ScalarAttribute>, score: (v: number, min: number, max: number) => number) {
  return definePlugin({
    type,
    description,
    parameters: z.strictObject({}).prefault({}),
    create: (_p, ctx) =>
      arrayScorer(type, ctx.name, (_c, request, endpoints, out) => {
        const values = request.attributes.get(key);
        let min = Infinity;
        let max = -Infinity;
        for (const e of endpoints) {
          const v = values?.get(e.id);
          if (v === undefined || Number.isNaN(v)) continue;
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
        // Endpoints without the attribute are left out of the scores (0), as llm-d omits them.
        for (let i = 0; i < endpoints.length; i++) {
          const v = values?.get(endpoints[i]?.id ?? '');
          out[i] = v === undefined || Number.isNaN(v) ? 0 : score(v, min, max);
        }
      }),
  });
}

/**
 * `multicluster-queue-scorer` (llm-d, alpha): min-max over the candidates' cluster queue size
 * (`llm-d.ai/multicluster-queue-size`), shorter is better, 1 for all when equal; a candidate
 * without the attribute scores 0.
 * @public
 * @category Built-in plugins
 */
export const multiclusterQueueScorerPlugin = attributeScorer(
  'multicluster-queue-scorer',
  'Min-max normalised cluster queue size (llm-d.ai/multicluster-queue-size), shorter is better.',
  MULTICLUSTER_ATTRIBUTES.queueSize,
  (v, min, max) => (max === min ? 1 : (max - v) / (max - min)),
);

/**
 * `multicluster-kv-cache-utilization-scorer` (llm-d, alpha): `1 − llm-d.ai/multicluster-kv-cache-utilization`
 * of each candidate cluster; a candidate without the attribute scores 0.
 * @public
 * @category Built-in plugins
 */
export const multiclusterKvCacheUtilizationScorerPlugin = attributeScorer(
  'multicluster-kv-cache-utilization-scorer',
  'One minus the cluster pool\'s KV-cache utilization (llm-d.ai/multicluster-kv-cache-utilization).',
  MULTICLUSTER_ATTRIBUTES.kvCacheUtilization,
  (v) => Math.min(1, Math.max(0, 1 - v)),
);
