import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { Attributes } from '../../scheduling/attributes.js';
import type { RequestLifecycle, Scorer } from '../../scheduling/plugins.js';
import { SESSION_NOT_ACTED_ON, encodeSessionToken, encodedEndpointHeaderConfigSchema, sessionConsumes, sessionEndpointOf, sessionStrategySchema } from '../session.js';
import { arrayScorer } from './scorer-base.js';

/**
 * `session-affinity-scorer`: 1 for the endpoint the request's session is pinned to, 0 for the
 * rest. With `encoded_endpoint_header` (default) the pin is the base64 endpoint id in
 * `x-session-token`, and the response carries a fresh token for the chosen endpoint (of
 * `profileName`, default the primary profile). With `session_id` the pin comes from the
 * server-side map of `session-id-producer`.
 * @public
 * @category Built-in plugins
 */
export const sessionAffinityScorerPlugin = definePlugin({
  type: 'session-affinity-scorer',
  description: 'Prefers the endpoint the session is pinned to.',
  notActedOn: SESSION_NOT_ACTED_ON,
  parameters: z.strictObject({
    /** Where the session pin comes from. */
    strategy: sessionStrategySchema.default('encoded_endpoint_header'),
    /** The header carrying the session token (`encoded_endpoint_header` strategy). */
    encodedEndpointHeaderConfig: encodedEndpointHeaderConfigSchema,
    /** Profile whose pick becomes the session endpoint (default, or empty: the primary profile). */
    profileName: z.string().optional().transform((v) => (v === '' ? undefined : v)),
  }),
  create: (p, ctx): Scorer & RequestLifecycle => {
    const base = arrayScorer(
      'session-affinity-scorer',
      ctx.name,
      (_c, request, endpoints, out) => {
        const pinned = sessionEndpointOf(request, p.strategy, p.encodedEndpointHeaderConfig.header);
        for (let i = 0; i < endpoints.length; i++) out[i] = pinned !== undefined && endpoints[i]?.id === pinned ? 1 : 0;
      },
      { consumes: sessionConsumes(p.strategy) },
    );
    if (p.strategy !== 'encoded_endpoint_header') return base;
    return {
      ...base,
      preRequest(_c, request, result) {
        const target = result.profileResults.get(p.profileName ?? result.primaryProfileName)?.targets[0];
        if (target === undefined) return;
        let headers = request.attributes.get(Attributes.responseHeaders);
        if (headers === undefined) {
          headers = {};
          request.attributes.set(Attributes.responseHeaders, headers);
        }
        headers[p.encodedEndpointHeaderConfig.header] = encodeSessionToken(target.id);
      },
    };
  },
});
