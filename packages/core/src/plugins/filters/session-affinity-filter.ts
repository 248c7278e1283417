import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { Filter } from '../../scheduling/plugins.js';
import { SESSION_NOT_ACTED_ON, encodedEndpointHeaderConfigSchema, sessionConsumes, sessionEndpointOf, sessionStrategySchema } from '../session.js';

/**
 * `session-affinity-filter`: hard pin. Keeps only the session's endpoint when it is among the
 * candidates, otherwise keeps everyone. Same `strategy` as `session-affinity-scorer`.
 * @public
 * @category Built-in plugins
 */
export const sessionAffinityFilterPlugin = definePlugin({
  type: 'session-affinity-filter',
  description: 'Keeps only the session endpoint when it is a candidate.',
  notActedOn: { ...SESSION_NOT_ACTED_ON, profileName: 'the filter writes no session token; session-affinity-scorer does (its profileName is acted on)' },
  parameters: z.strictObject({
    /** Where the session pin comes from. */
    strategy: sessionStrategySchema.default('encoded_endpoint_header'),
    /** The header carrying the session token (`encoded_endpoint_header` strategy). */
    encodedEndpointHeaderConfig: encodedEndpointHeaderConfigSchema,
    /**
     * The same header under the flat name llm-d-router's perf configs use
     * (`test/perf/config/router-configs/session-affinity-filter.yaml`); wins when both are set.
     */
    headerName: z.string().optional(),
  }).transform((p) => (p.headerName === undefined || p.headerName.trim() === '' ? p : { ...p, encodedEndpointHeaderConfig: { header: p.headerName.trim().toLowerCase() } })),
  create: (p, ctx): Filter => ({
    type: 'session-affinity-filter',
    name: ctx.name,
    consumes: sessionConsumes(p.strategy),
    filter(_c, request, endpoints) {
      const pinned = sessionEndpointOf(request, p.strategy, p.encodedEndpointHeaderConfig.header);
      if (pinned === undefined) return endpoints;
      const hit = endpoints.find((e) => e.id === pinned);
      return hit === undefined ? endpoints : [hit];
    },
  }),
});
