import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { NotActedOnReasons } from '../not-acted-on-reasons.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes } from '../../scheduling/attributes.js';
import { arrayScorer } from './scorer-base.js';

const CONSUMES = [Attributes.inFlightLoad.name] as const;

/**
 * `active-request-scorer`: prefers endpoints with few requests Switchyard has in flight there.
 * n = in-flight requests; `n ≤ idleThreshold` → 1, else `(max − n)/max · maxBusyScore` with max
 * the largest n among the candidates. Reads the `inflight-load` attribute, falling back to the
 * pool's own counts.
 * @public
 * @category Built-in plugins
 */
export const activeRequestScorerPlugin = definePlugin({
  type: 'active-request-scorer',
  description: 'In-flight request count relative to the busiest candidate.',
  consumes: CONSUMES,
  notActedOn: { inFlightLoadProducerName: NotActedOnReasons.inFlightLoadProducer, requestTimeout: NotActedOnReasons.deprecatedIgnored },
  parameters: z.strictObject({
    /** Endpoints with at most this many in-flight requests count as idle and score 1. */
    idleThreshold: z.number().int().min(0).default(0),
    /** Upper bound of a busy endpoint's score, in [0, 1]. */
    maxBusyScore: z.number().min(0).max(1).default(1),
  }),
  create: (p, ctx) =>
    arrayScorer('active-request-scorer', ctx.name, (_c, request, endpoints, out) => {
      const load = request.attributes.get(Attributes.inFlightLoad);
      let max = 0;
      for (let i = 0; i < endpoints.length; i++) {
        const e = endpoints[i] as Endpoint;
        const n = load === undefined ? e.inFlightRequests : load.requests(e);
        out[i] = n;
        if (n > max) max = n;
      }
      for (let i = 0; i < endpoints.length; i++) {
        const n = out[i] as number;
        out[i] = n <= p.idleThreshold ? 1 : ((max - n) / max) * p.maxBusyScore;
      }
    }, { consumes: CONSUMES }),
});
