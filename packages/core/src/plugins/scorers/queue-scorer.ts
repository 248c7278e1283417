import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { arrayScorer, lowerIsBetter } from './scorer-base.js';

const waiting = (e: Endpoint): number => e.metrics?.waitingQueueSize ?? 0;

/**
 * `queue-scorer`: prefers short engine queues. Score = `(max − q)/(max − min)` over the
 * candidates' `waitingQueueSize` q; every candidate gets 1 when all queues are equal.
 * Endpoints without metrics count as q = 0.
 * @public
 * @category Built-in plugins
 */
export const queueScorerPlugin = definePlugin({
  type: 'queue-scorer',
  description: 'Min-max normalised waiting-queue length, shorter is better.',
  parameters: z.strictObject({}),
  create: (_p, ctx) =>
    arrayScorer('queue-scorer', ctx.name, (_c, _r, endpoints, out) => {
      lowerIsBetter(endpoints, out, waiting);
    }),
});
