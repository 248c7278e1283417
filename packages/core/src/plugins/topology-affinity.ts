import { z } from 'zod';
import type { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint } from '../endpoints/types.js';
import { Attributes } from '../scheduling/attributes.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import { TOPOLOGY_EXTRACTOR, topologyAttribute, type Topology, type TopologyView } from './data-layer/topology-extractor.js';

/**
 * How close two endpoints are, closest first (llm-d's topology affinity levels).
 * @public
 * @category Built-in plugins
 */
export const TOPOLOGY_LEVELS = ['host', 'rack', 'zone', 'region'] as const;

/**
 * One of {@link TOPOLOGY_LEVELS}. @public
 * @category Built-in plugins
 */
export type TopologyLevel = (typeof TOPOLOGY_LEVELS)[number];

/**
 * The closest level two topologies share: `host` when both host names are set and equal, else
 * `rack`, `zone`, `region` (each needs equal non-empty values), else undefined.
 * @public
 * @category Built-in plugins
 */
export function topologyAffinity(a: Topology, b: Topology): TopologyLevel | undefined {
  if (a.hostname !== '' && a.hostname === b.hostname) return 'host';
  if (a.rack !== '' && a.rack === b.rack) return 'rack';
  if (a.zone !== '' && a.zone === b.zone) return 'zone';
  if (a.region !== '' && a.region === b.region) return 'region';
  return undefined;
}

/** `topologyProducerName` as llm-d reads it: empty means the default `topology-extractor`. @internal */
export const topologyProducerParameter = z.string().default('');

/**
 * The topology view and the disaggregated peer's topology for one request, or undefined when the
 * request has no peer yet (first stage), the peer left the pool, or the peer has no topology.
 * @internal
 */
export function peerTopology(request: SchedulingRequest, pool: EndpointPool, producerName: string): { view: TopologyView; peer: Topology } | undefined {
  const peerId = request.attributes.get(Attributes.peerEndpoint);
  if (peerId === undefined) return undefined;
  const view = request.attributes.get(topologyAttribute(producerName === '' ? TOPOLOGY_EXTRACTOR : producerName));
  if (view === undefined) return undefined;
  const peerEndpoint: Endpoint | undefined = pool.get(peerId);
  const peer = peerEndpoint === undefined ? undefined : view.of(peerEndpoint);
  return peer === undefined ? undefined : { view, peer };
}
