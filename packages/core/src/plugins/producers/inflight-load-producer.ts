import { z } from 'zod';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes, type InFlightLoadView } from '../../scheduling/attributes.js';
import type { DataProducer, RequestLifecycle } from '../../scheduling/plugins.js';
import { InFlightGauges } from './inflight-gauges.js';

/**
 * The pool's own in-flight counts as an {@link InFlightLoadView}. The counts are kept exact by the
 * `EndpointPicker` (added before forwarding, moved on fallback, removed on completion).
 * @public
 */
export const poolInFlightLoad: InFlightLoadView = {
  requests: (e: Endpoint) => e.inFlightRequests,
  tokens: (e: Endpoint) => e.inFlightTokens,
};

const POOL_COUNTS = 'in-flight load is the pool\'s exact request and token counts (uncached prompt tokens, no output estimate)';

/**
 * `inflight-load-producer`: publishes the in-flight load (`inflight-load` attribute) read by
 * `token-load-scorer` and `active-request-scorer`. Auto-created when one of them is configured.
 * With a metrics registry it also keeps llm-d's `llm_d_epp_inflight_requests` /
 * `llm_d_epp_inflight_tokens` gauges (see `InFlightGauges`).
 * @public
 * @category Built-in plugins
 */
export const inFlightLoadProducerPlugin = definePlugin({
  type: 'inflight-load-producer',
  description: 'Publishes in-flight requests and tokens per endpoint.',
  produces: [Attributes.inFlightLoad.name],
  defaultProducerFor: [Attributes.inFlightLoad.name],
  // llm-d's parameters (old and new names). Our counts come from the pool, which the
  // EndpointPicker keeps exact, so only `syncCrossReplicaState` changes behaviour (docs/replicas.md).
  notActedOn: {
    addEstimatedOutputTokens: POOL_COUNTS,
    includeOutputTokens: POOL_COUNTS,
    outputRatio: POOL_COUNTS,
    maxEstimatedOutputTokens: POOL_COUNTS,
    prefixMatchInfoProducerName: POOL_COUNTS,
  },
  parameters: z.strictObject({
    /** With shared state on, publish the fleet's counts (true, llm-d's default) or this replica's own (false). */
    syncCrossReplicaState: z.boolean().optional(),
  }),
  create: (p, ctx): DataProducer & RequestLifecycle => {
    const view = p.syncCrossReplicaState !== false ? poolInFlightLoad : localInFlightLoad(ctx.pool);
    const producer: DataProducer = {
      type: 'inflight-load-producer',
      name: ctx.name,
      produces: [Attributes.inFlightLoad.name],
      consumes: [],
      produce(_c, request) {
        request.attributes.set(Attributes.inFlightLoad, view);
      },
    };
    if (ctx.metrics === undefined) return producer;
    const gauges = new InFlightGauges(ctx.metrics, ctx.name);
    return {
      ...producer,
      preRequest(_c, request, result) {
        gauges.charge(request, result);
      },
      onResponseStart(request) {
        gauges.responseStarted(request);
      },
      onComplete(request) {
        gauges.completed(request);
      },
    };
  },
});

/**
 * This replica's own share of the in-flight load (without the peers' that shared state adds).
 * @public
 */
export function localInFlightLoad(pool: EndpointPool): InFlightLoadView {
  return {
    requests: (e: Endpoint) => pool.localInFlight(e.id)?.requests ?? e.inFlightRequests,
    tokens: (e: Endpoint) => pool.localInFlight(e.id)?.tokens ?? e.inFlightTokens,
  };
}
