import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { NotActedOnReasons } from '../not-acted-on-reasons.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes } from '../../scheduling/attributes.js';
import type { Filter } from '../../scheduling/plugins.js';
import { withinSlo } from '../slo.js';

const CONSUMES = [Attributes.predictedLatency.name] as const;

/**
 * `slo-headroom-tier-filter`: keeps the endpoints predicted to meet the request's SLOs. Endpoints
 * whose predicted TTFT and TPOT (the `predicted-latency` attribute) are within the request's
 * `x-llm-d-slo-ttft-ms` / `x-llm-d-slo-tpot-ms` form the positive tier; the others, and endpoints
 * without a prediction, the negative tier. When both tiers have endpoints the negative one is kept
 * with probability `epsilonExploreNeg` (so overloaded endpoints still see some traffic and their
 * predictions can recover), else the positive one; a lone tier is kept; without any prediction
 * nothing is removed. A dimension the request sets no SLO for always counts as met.
 * @public
 * @category Built-in plugins
 */
export const sloHeadroomTierFilterPlugin = definePlugin({
  type: 'slo-headroom-tier-filter',
  description: 'Keeps endpoints predicted to meet the request SLOs (the others with a small exploration probability).',
  consumes: CONSUMES,
  notActedOn: { latencyPredictionInfoProducerName: NotActedOnReasons.latencyPredictionProducer },
  parameters: z.strictObject({
    /** Probability of keeping the negative tier when both tiers have endpoints. */
    epsilonExploreNeg: z.number().min(0).max(1).default(0.01),
  }),
  create: (p, ctx): Filter => ({
    type: 'slo-headroom-tier-filter',
    name: ctx.name,
    consumes: CONSUMES,
    filter(c, request, endpoints) {
      const predictions = request.attributes.get(Attributes.predictedLatency);
      if (endpoints.length <= 1 || predictions === undefined) return endpoints;
      const positive: Endpoint[] = [];
      const negative: Endpoint[] = [];
      const unpredicted: Endpoint[] = [];
      for (const e of endpoints) {
        const x = predictions.get(e.id);
        if (x === undefined) unpredicted.push(e);
        else if (withinSlo(request.sloTtftMs, x.ttftMs) && withinSlo(request.sloTpotMs, x.tpotMs)) positive.push(e);
        else negative.push(e);
      }
      if (positive.length === 0 && negative.length === 0) return endpoints;
      // Endpoints without a prediction cannot be shown to meet the SLO.
      for (const e of unpredicted) negative.push(e);
      if (positive.length > 0 && negative.length > 0) return c.random() < p.epsilonExploreNeg ? negative : positive;
      return positive.length > 0 ? positive : negative;
    },
  }),
});
