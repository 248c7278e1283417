import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { arrayScorer, lowerIsBetter } from './scorer-base.js';

const running = (e: Endpoint): number => e.metrics?.runningRequestsSize ?? 0;

/**
 * `running-requests-size-scorer`: prefers endpoints running fewer requests. Same min-max formula
 * as `queue-scorer`, on `runningRequestsSize`.
 * @public
 * @category Built-in plugins
 */
export const runningRequestsSizeScorerPlugin = definePlugin({
  type: 'running-requests-size-scorer',
  description: 'Min-max normalised running-request count, fewer is better.',
  parameters: z.strictObject({}),
  create: (_p, ctx) =>
    arrayScorer('running-requests-size-scorer', ctx.name, (_c, _r, endpoints, out) => {
      lowerIsBetter(endpoints, out, running);
    }),
});
