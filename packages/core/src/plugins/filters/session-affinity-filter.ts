import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { Filter } from '../../scheduling/plugins.js';
import { sessionConsumes, sessionEndpointOf, sessionStrategySchema } from '../session.js';

/**
 * `session-affinity-filter`: hard pin. Keeps only the session's endpoint when it is among the
 * candidates, otherwise keeps everyone. Same `strategy` as `session-affinity-scorer`.
 * @public
 */
export const sessionAffinityFilterPlugin = definePlugin({
  type: 'session-affinity-filter',
  description: 'Keeps only the session endpoint when it is a candidate.',
  parameters: z.strictObject({
    /** Where the session pin comes from. */
    strategy: sessionStrategySchema.default('encoded_endpoint_header'),
  }),
  create: (p, ctx): Filter => ({
    type: 'session-affinity-filter',
    name: ctx.name,
    consumes: sessionConsumes(p.strategy),
    filter(_c, request, endpoints) {
      const pinned = sessionEndpointOf(request, p.strategy);
      if (pinned === undefined) return endpoints;
      const hit = endpoints.find((e) => e.id === pinned);
      return hit === undefined ? endpoints : [hit];
    },
  }),
});
