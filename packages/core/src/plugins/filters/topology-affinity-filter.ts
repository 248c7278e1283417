import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import type { Filter } from '../../scheduling/plugins.js';
import { TOPOLOGY_EXTRACTOR } from '../data-layer/topology-extractor.js';
import { peerTopology, TOPOLOGY_LEVELS, topologyAffinity, topologyProducerParameter } from '../topology-affinity.js';

/**
 * Type of llm-d's topology-affinity filter. @public
 * @category Built-in plugins
 */
export const TOPOLOGY_AFFINITY_FILTER = 'topology-affinity-filter';

/**
 * Parameters of `topology-affinity-filter` (llm-d's): `minAffinity` `host` | `rack` | `zone` |
 * `region` (default `host`), `topologyProducerName` (default: `topology-extractor`).
 * @public
 * @category Built-in plugins
 */
export const topologyAffinityFilterParameters = z
  .strictObject({
    minAffinity: z.enum(TOPOLOGY_LEVELS).default('host'),
    topologyProducerName: topologyProducerParameter,
  })
  .prefault({});

/**
 * `topology-affinity-filter` (llm-d, alpha): in the second stage of a disaggregated request,
 * keeps the candidates at least as close to the first stage's pick (`peer-endpoint`) as
 * `minAffinity`. Candidates without topology are dropped; with no peer (first stage) every
 * candidate passes, and when nothing would remain every candidate is returned (fail-open).
 * @public
 * @category Built-in plugins
 */
export const topologyAffinityFilterPlugin = definePlugin({
  type: TOPOLOGY_AFFINITY_FILTER,
  description: 'Keeps candidates topologically close to the disaggregated peer (host, rack, zone, region); fail-open.',
  parameters: topologyAffinityFilterParameters,
  requires: [TOPOLOGY_EXTRACTOR],
  create: (p, ctx): Filter => {
    const maxRank = TOPOLOGY_LEVELS.indexOf(p.minAffinity);
    return {
      type: TOPOLOGY_AFFINITY_FILTER,
      name: ctx.name,
      filter(_c, request, endpoints) {
        const t = peerTopology(request, ctx.pool, p.topologyProducerName);
        if (t === undefined) return endpoints;
        const kept: Endpoint[] = [];
        for (const e of endpoints) {
          const own = t.view.of(e);
          const level = own === undefined ? undefined : topologyAffinity(t.peer, own);
          if (level !== undefined && TOPOLOGY_LEVELS.indexOf(level) <= maxRank) kept.push(e);
        }
        return kept.length === 0 ? endpoints : kept;
      },
    };
  },
});
