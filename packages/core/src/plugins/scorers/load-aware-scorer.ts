import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { arrayScorer } from './scorer-base.js';

/**
 * `load-aware-scorer`: an absolute (not min-max) queue score. q = `waitingQueueSize`;
 * q = 0 → 0.5, otherwise `0.5·(1 − min(q, threshold)/threshold)`.
 * @public
 * @category Built-in plugins
 */
export const loadAwareScorerPlugin = definePlugin({
  type: 'load-aware-scorer',
  description: 'Absolute waiting-queue score against a threshold.',
  parameters: z.strictObject({
    /** Queue length at which the score reaches 0. */
    threshold: z.number().int().positive().default(128),
  }),
  create: (p, ctx) =>
    arrayScorer('load-aware-scorer', ctx.name, (_c, _r, endpoints, out) => {
      const t = p.threshold;
      for (let i = 0; i < endpoints.length; i++) {
        const q = endpoints[i]?.metrics?.waitingQueueSize ?? 0;
        out[i] = q === 0 ? 0.5 : 0.5 * (1 - Math.min(q, t) / t);
      }
    }),
});
