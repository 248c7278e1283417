import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import type { Admitter, CycleContext } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * Type of llm-d's probabilistic admitter. @public
 * @category Built-in plugins
 */
export const PROBABILISTIC_ADMITTER = 'probabilistic-admitter';

/**
 * Parameters of `probabilistic-admitter`, with llm-d's names and defaults (all must be > 0).
 * @public
 * @category Built-in plugins
 */
export const probabilisticAdmitterParameters = z
  .strictObject({
    queueDepthThreshold: z.number().int().positive().default(5),
    kvCacheUtilThreshold: z.number().positive().default(0.8),
    power: z.number().positive().default(5),
    k: z.number().positive().default(300),
  })
  .prefault({});

/**
 * Parsed `probabilistic-admitter` parameters. @public
 * @category Built-in plugins
 */
export type ProbabilisticAdmitterParams = z.output<typeof probabilisticAdmitterParameters>;

/**
 * Pool saturation as the probabilistic admitter sees it: the mean over candidates of
 * `max(waiting / queueDepthThreshold, kvUsage / kvCacheUtilThreshold)`, a candidate without
 * metrics counting 1.
 * @public
 * @category Built-in plugins
 */
export function admitterSaturation(endpoints: readonly Endpoint[], p: ProbabilisticAdmitterParams): number {
  let sum = 0;
  for (const e of endpoints) {
    const m = e.metrics;
    sum += m === undefined ? 1 : Math.max(m.waitingQueueSize / p.queueDepthThreshold, m.kvCacheUsagePercent / p.kvCacheUtilThreshold);
  }
  return endpoints.length === 0 ? 0 : sum / endpoints.length;
}

/**
 * Rejection probability for saturation `s`: `min(s^power × k, 1)`.
 * @public
 * @category Built-in plugins
 */
export function rejectionProbability(s: number, p: ProbabilisticAdmitterParams): number {
  return Math.min(s ** p.power * p.k, 1);
}

/**
 * `probabilistic-admitter` (llm-d): sheds sheddable requests (priority < 0) with a probability
 * that rises steeply with saturation, so load drops smoothly before the pool is full instead of
 * all at once. Requests of priority ≥ 0, and requests without candidates, are always admitted.
 * The draw uses the cycle's random source, so the simulator's seeded runs repeat exactly.
 * @public
 * @category Built-in plugins
 */
export function createProbabilisticAdmitter(name: string, params: ProbabilisticAdmitterParams): Admitter {
  return {
    type: PROBABILISTIC_ADMITTER,
    name,
    admitRequest(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): string | undefined {
      if (request.priority >= 0 || endpoints.length === 0) return undefined;
      const s = admitterSaturation(endpoints, params);
      const prob = rejectionProbability(s, params);
      if (ctx.random() >= prob) return undefined;
      return `rejected, saturation=${s.toFixed(3)} prob=${prob.toFixed(3)}`;
    },
  };
}

/**
 * `probabilistic-admitter` plugin definition. @public
 * @category Built-in plugins
 */
export const probabilisticAdmitterPlugin = definePlugin({
  type: PROBABILISTIC_ADMITTER,
  description: 'Sheds sheddable requests with probability min(saturation^power × k, 1).',
  parameters: probabilisticAdmitterParameters,
  create: (p, ctx): Admitter => createProbabilisticAdmitter(ctx.name, p),
});
