import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { attributeKey } from '../../scheduling/attributes.js';
import type { Plugin, RequestLifecycle, SchedulingResult } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * Type of llm-d's data-parallel rank header handler. @public
 * @category Built-in plugins
 */
export const DP_RANK_HEADER_HANDLER = 'dp-rank-header-handler';

/**
 * Header vLLM reads to pin a request to one data-parallel rank (Internal / Hybrid LB). @public
 * @category Built-in plugins
 */
export const DATA_PARALLEL_RANK_HEADER = 'x-data-parallel-rank';

/**
 * Best data-parallel rank per endpoint address (`ip:port` → rank) for this request, written by a
 * prefix producer that tracks which rank of a vLLM server holds the blocks (KV events of
 * `<pod>@dp<rank>`), read by `dp-rank-header-handler`.
 * @public
 * @category Built-in plugins
 */
export const dpWinningRanksAttribute = attributeKey<ReadonlyMap<string, number>>('dp-winning-ranks');

/**
 * The rank to pin `request` to: the winning rank of the primary profile's first target, or
 * undefined (no rank recorded, or no target).
 * @public
 * @category Built-in plugins
 */
export function dpRankFor(request: SchedulingRequest, result: SchedulingResult): number | undefined {
  const ranks = request.attributes.get(dpWinningRanksAttribute);
  if (ranks === undefined || ranks.size === 0) return undefined;
  const target = result.profileResults.get(result.primaryProfileName)?.targets[0];
  if (target === undefined) return undefined;
  const rank = ranks.get(target.address);
  return rank === undefined || !Number.isInteger(rank) || rank < 0 ? undefined : rank;
}

/**
 * `dp-rank-header-handler` (llm-d): after scheduling, sets `x-data-parallel-rank` to the rank of
 * the chosen vLLM server that holds the request's prefix, so vLLM's Internal / Hybrid LB serves it
 * there instead of balancing by queue depth. A no-op when no rank is recorded (External LB, where
 * each rank is its own endpoint). A rank set here replaces one the client sent; llm-d also drops
 * the client's header when it records no rank, Switchyard forwards it then. No parameters.
 * @public
 * @category Built-in plugins
 */
export const dpRankHeaderHandlerPlugin = definePlugin({
  type: DP_RANK_HEADER_HANDLER,
  description: 'Sets x-data-parallel-rank to the chosen server\'s best-matching DP rank.',
  parameters: z.strictObject({}).prefault({}),
  create: (_p, ctx): Plugin & RequestLifecycle => ({
    type: DP_RANK_HEADER_HANDLER,
    name: ctx.name,
    preRequest(_c, request, result, headers) {
      const rank = dpRankFor(request, result);
      if (rank !== undefined) headers[DATA_PARALLEL_RANK_HEADER] = String(rank);
    },
  }),
});
