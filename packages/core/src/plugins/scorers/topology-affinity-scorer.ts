import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { arrayScorer } from './scorer-base.js';
import { TOPOLOGY_EXTRACTOR } from '../data-layer/topology-extractor.js';
import { peerTopology, topologyAffinity, topologyProducerParameter, type TopologyLevel } from '../topology-affinity.js';

/**
 * Type of llm-d's topology-affinity scorer. @public
 * @category Built-in plugins
 */
export const TOPOLOGY_AFFINITY_SCORER = 'topology-affinity-scorer';

/**
 * Score per shared level (llm-d's constants: same host 1, rack 0.2, zone 0.05, region 0.02). @public
 * @category Built-in plugins
 */
export const TOPOLOGY_AFFINITY_SCORES: Readonly<Record<TopologyLevel, number>> = { host: 1, rack: 0.2, zone: 0.05, region: 0.02 };

/**
 * Parameters of `topology-affinity-scorer`: `topologyProducerName` (default: `topology-extractor`). @public
 * @category Built-in plugins
 */
export const topologyAffinityScorerParameters = z.strictObject({ topologyProducerName: topologyProducerParameter }).prefault({});

/**
 * `topology-affinity-scorer` (llm-d, alpha): scores each candidate by how close it is to the
 * disaggregated peer ({@link TOPOLOGY_AFFINITY_SCORES}); 0 without a peer, without topology, or
 * when nothing is shared.
 * @public
 * @category Built-in plugins
 */
export const topologyAffinityScorerPlugin = definePlugin({
  type: TOPOLOGY_AFFINITY_SCORER,
  description: 'Scores candidates by topological closeness to the disaggregated peer (host 1, rack 0.2, zone 0.05, region 0.02).',
  parameters: topologyAffinityScorerParameters,
  requires: [TOPOLOGY_EXTRACTOR],
  create: (p, ctx) =>
    arrayScorer(TOPOLOGY_AFFINITY_SCORER, ctx.name, (_c, request, endpoints, out) => {
      const t = peerTopology(request, ctx.pool, p.topologyProducerName);
      for (let i = 0; i < endpoints.length; i++) {
        const own = t === undefined ? undefined : t.view.of(endpoints[i] as (typeof endpoints)[number]);
        const level = own === undefined || t === undefined ? undefined : topologyAffinity(t.peer, own);
        out[i] = level === undefined ? 0 : TOPOLOGY_AFFINITY_SCORES[level];
      }
    }),
});
