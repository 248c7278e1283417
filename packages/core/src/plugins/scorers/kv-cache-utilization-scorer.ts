import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { arrayScorer } from './scorer-base.js';

/**
 * `kv-cache-utilization-scorer`: prefers free KV cache. Score = `1 − kvCacheUsagePercent`
 * (endpoints without metrics score 1).
 * @public
 */
export const kvCacheUtilizationScorerPlugin = definePlugin({
  type: 'kv-cache-utilization-scorer',
  description: '1 − KV-cache usage fraction.',
  parameters: z.strictObject({}),
  create: (_p, ctx) =>
    arrayScorer('kv-cache-utilization-scorer', ctx.name, (_c, _r, endpoints, out) => {
      for (let i = 0; i < endpoints.length; i++) out[i] = 1 - (endpoints[i]?.metrics?.kvCacheUsagePercent ?? 0);
    }),
});
