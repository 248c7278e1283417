import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes, type InFlightLoadView } from '../../scheduling/attributes.js';
import type { DataProducer } from '../../scheduling/plugins.js';

/**
 * The pool's own in-flight counts as an {@link InFlightLoadView}. The counts are kept exact by the
 * `EndpointPicker` (added before forwarding, moved on fallback, removed on completion).
 * @public
 */
export const poolInFlightLoad: InFlightLoadView = {
  requests: (e: Endpoint) => e.inFlightRequests,
  tokens: (e: Endpoint) => e.inFlightTokens,
};

/**
 * `inflight-load-producer`: publishes the in-flight load (`inflight-load` attribute) read by
 * `token-load-scorer` and `active-request-scorer`. Auto-created when one of them is configured.
 * @public
 */
export const inFlightLoadProducerPlugin = definePlugin({
  type: 'inflight-load-producer',
  description: 'Publishes in-flight requests and tokens per endpoint.',
  produces: [Attributes.inFlightLoad.name],
  defaultProducerFor: [Attributes.inFlightLoad.name],
  // llm-d's parameters (old and new names). Accepted for compatibility; our counts come from the
  // pool, which the EndpointPicker keeps exact, so none of them changes behaviour (docs/config.md).
  parameters: z.strictObject({
    addEstimatedOutputTokens: z.boolean().optional(),
    includeOutputTokens: z.boolean().optional(),
    outputRatio: z.number().min(0).optional(),
    maxEstimatedOutputTokens: z.number().int().min(0).optional(),
    prefixMatchInfoProducerName: z.string().min(1).optional(),
  }),
  create: (_p, ctx): DataProducer => ({
    type: 'inflight-load-producer',
    name: ctx.name,
    produces: [Attributes.inFlightLoad.name],
    consumes: [],
    produce(_c, request) {
      request.attributes.set(Attributes.inFlightLoad, poolInFlightLoad);
    },
  }),
});
