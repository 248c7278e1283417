import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { arrayScorer } from './scorer-base.js';

/**
 * `kv-cache-utilization-scorer`: prefers free KV cache. Score = `1 − kvCacheUsagePercent`
 * (endpoints without metrics score 1).
 * @public
 * @category Built-in plugins
 */
export const kvCacheUtilizationScorerPlugin = definePlugin({
  type: 'kv-cache-utilization-scorer',
  description: '1 − KV-cache usage fraction.',
  parameters: z.strictObject({}),
  create: (_p, ctx) =>
    arrayScorer('kv-cache-utilization-scorer', ctx.name, (_c, _r, endpoints, out) => {
      for (let i = 0; i < endpoints.length; i++) {
        // Not `?.`/`??`: merging the 0 literal with a double boxes a number per endpoint in V8.
        const m = (endpoints[i] as Endpoint).metrics;
        out[i] = m === undefined ? 1 : 1 - m.kvCacheUsagePercent;
      }
    }),
});
