import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { arrayScorer } from './scorer-base.js';

/**
 * Type of llm-d's header-label affinity scorer. @public
 * @category Built-in plugins
 */
export const HEADER_LABEL_AFFINITY_SCORER = 'header-label-affinity-scorer';

/**
 * Parameters of `header-label-affinity-scorer` (llm-d's; both required): `headerName` (matched
 * lower-cased) and `labelKey`.
 * @public
 * @category Built-in plugins
 */
export const headerLabelAffinityScorerParameters = z.strictObject({
  headerName: z
    .string()
    .trim()
    .min(1)
    .transform((h) => h.toLowerCase()),
  labelKey: z.string().min(1),
});

/**
 * `header-label-affinity-scorer` (llm-d, alpha): 1 for the endpoints whose `labelKey` label
 * equals the request's `headerName` header, 0 for the others; without the header every endpoint
 * gets 0.
 * @public
 * @category Built-in plugins
 */
export const headerLabelAffinityScorerPlugin = definePlugin({
  type: HEADER_LABEL_AFFINITY_SCORER,
  description: 'Scores 1 the endpoints whose labelKey label equals the headerName request header.',
  parameters: headerLabelAffinityScorerParameters,
  create: (p, ctx) =>
    arrayScorer(HEADER_LABEL_AFFINITY_SCORER, ctx.name, (_c, request, endpoints, out) => {
      const want = request.request.headers[p.headerName];
      for (let i = 0; i < endpoints.length; i++) out[i] = want !== undefined && endpoints[i]?.labels[p.labelKey] === want ? 1 : 0;
    }),
});
