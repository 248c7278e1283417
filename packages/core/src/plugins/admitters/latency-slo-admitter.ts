import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes } from '../../scheduling/attributes.js';
import type { Admitter, CycleContext } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';
import { NotActedOnReasons } from '../not-acted-on-reasons.js';
import { withinSlo } from '../slo.js';

/**
 * Type of llm-d's latency SLO admitter. @public
 * @category Built-in plugins
 */
export const LATENCY_SLO_ADMITTER = 'latency-slo-admitter';

/** KV-cache usage under which an endpoint counts as cold (llm-d's constant). */
const COLD_KV_USAGE = 0.02;

const CONSUMES = [Attributes.predictedLatency.name] as const;

/** An endpoint that can take the request anyway: nothing running, or a nearly empty KV cache. */
function idleOrCold(e: Endpoint): boolean {
  const m = e.metrics;
  return m !== undefined && (m.runningRequestsSize === 0 || m.kvCacheUsagePercent < COLD_KV_USAGE);
}

/**
 * `latency-slo-admitter` (llm-d): denies a sheddable request (priority < 0) that carries a TTFT
 * or TPOT SLO when candidates have latency predictions, none of them is predicted to meet the
 * SLOs, and none is idle (no running requests) or cold (KV usage < 0.02). Everything else is
 * admitted, including requests no candidate has a prediction for.
 * @public
 * @category Built-in plugins
 */
export function createLatencySloAdmitter(name: string): Admitter {
  return {
    type: LATENCY_SLO_ADMITTER,
    name,
    consumes: CONSUMES,
    admitRequest(_ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): string | undefined {
      if (request.priority >= 0 || (request.sloTtftMs === undefined && request.sloTpotMs === undefined)) return undefined;
      const predictions = request.attributes.get(Attributes.predictedLatency);
      if (predictions === undefined) return undefined;
      let predicted = false;
      for (const e of endpoints) {
        const p = predictions.get(e.id);
        if (p === undefined) continue;
        predicted = true;
        if (withinSlo(request.sloTtftMs, p.ttftMs) && withinSlo(request.sloTpotMs, p.tpotMs)) return undefined;
      }
      if (!predicted || endpoints.some(idleOrCold)) return undefined;
      return 'no valid endpoint available to serve the request';
    },
  };
}

/**
 * `latency-slo-admitter` plugin definition: llm-d's parameter `latencyPredictionInfoProducerName`
 * loads and is not acted on (one latency prediction per request here).
 * @public
 * @category Built-in plugins
 */
export const latencySloAdmitterPlugin = definePlugin({
  type: LATENCY_SLO_ADMITTER,
  description: 'Denies sheddable requests with SLOs no candidate is predicted to meet, unless one is idle or cold.',
  consumes: CONSUMES,
  notActedOn: { latencyPredictionInfoProducerName: NotActedOnReasons.latencyPredictionProducer },
  parameters: z.strictObject({ latencyPredictionInfoProducerName: z.string().optional() }).prefault({}),
  create: (_p, ctx): Admitter => createLatencySloAdmitter(ctx.name),
});
