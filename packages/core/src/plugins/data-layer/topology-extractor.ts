import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import { attributeKey, type AttributeKey } from '../../scheduling/attributes.js';
import type { CycleContext, DataProducer, Plugin } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * Type of llm-d's topology extractor. @public
 * @category Built-in plugins
 */
export const TOPOLOGY_EXTRACTOR = 'topology-extractor';

/**
 * Where an endpoint runs, from its labels (llm-d's `Topology` value). Empty strings mean unknown.
 * @public
 * @category Built-in plugins
 */
export interface Topology {
  /** Node host name (`kubernetes.io/hostname` by default). */
  readonly hostname: string;
  /** Rack (`topology.kubernetes.io/rack`). */
  readonly rack: string;
  /** Zone (`topology.kubernetes.io/zone`). */
  readonly zone: string;
  /** Region (`topology.kubernetes.io/region`). */
  readonly region: string;
}

/**
 * The topology of each endpoint, as a `topology-extractor` publishes it to requests (undefined
 * when none of its labels is set).
 * @public
 * @category Built-in plugins
 */
export interface TopologyView {
  /** Topology of `endpoint`, or undefined when all four labels are missing. */
  of(endpoint: Endpoint): Topology | undefined;
}

/**
 * Attribute a `topology-extractor` instance publishes, `Topology/<instance name>` as llm-d
 * names the data key (consumers choose it with `topologyProducerName`).
 * @public
 * @category Built-in plugins
 */
export function topologyAttribute(extractorName: string = TOPOLOGY_EXTRACTOR): AttributeKey<TopologyView> {
  return attributeKey(`Topology/${extractorName}`);
}

/**
 * Parameters of `topology-extractor`: the label key of each topology level (llm-d defaults). @public
 * @category Built-in plugins
 */
export const topologyExtractorParameters = z
  .strictObject({
    hostname: z.string().default('kubernetes.io/hostname'),
    rack: z.string().default('topology.kubernetes.io/rack'),
    zone: z.string().default('topology.kubernetes.io/zone'),
    region: z.string().default('topology.kubernetes.io/region'),
  })
  .prefault({});

type Params = z.output<typeof topologyExtractorParameters>;

/**
 * A `topology-extractor` instance. @public
 * @category Built-in plugins
 */
export interface TopologyExtractor extends DataProducer, TopologyView {}

class LabelTopology implements TopologyExtractor {
  readonly type = TOPOLOGY_EXTRACTOR;
  readonly consumes: readonly string[] = [];
  readonly produces: readonly string[];
  readonly #key: AttributeKey<TopologyView>;
  // Endpoint records are replaced when their labels change, so a weak cache never goes stale.
  readonly #cache = new WeakMap<Endpoint, Topology | null>();

  constructor(readonly name: string, private readonly labels: Params) {
    this.#key = topologyAttribute(name);
    this.produces = [this.#key.name];
  }

  of(endpoint: Endpoint): Topology | undefined {
    let t = this.#cache.get(endpoint);
    if (t === undefined) {
      const l = endpoint.labels;
      const read = (key: string): string => (key === '' ? '' : (l[key] ?? ''));
      const topology = { hostname: read(this.labels.hostname), rack: read(this.labels.rack), zone: read(this.labels.zone), region: read(this.labels.region) };
      t = topology.hostname === '' && topology.rack === '' && topology.zone === '' && topology.region === '' ? null : topology;
      this.#cache.set(endpoint, t);
    }
    return t ?? undefined;
  }

  produce(_ctx: CycleContext, request: SchedulingRequest): void {
    request.attributes.set(this.#key, this);
  }
}

/**
 * True when `p` is a {@link TopologyExtractor}. @public
 * @category Built-in plugins
 */
export function isTopologyExtractor(p: Plugin): p is TopologyExtractor {
  return p.type === TOPOLOGY_EXTRACTOR && typeof (p as Partial<TopologyExtractor>).of === 'function';
}

/**
 * `topology-extractor` (llm-d, alpha): reads host, rack, zone and region from endpoint labels and
 * publishes them as `Topology/<name>` for the topology-affinity plugins. (llm-d also falls back
 * to the Pod's `spec.hostname`; Switchyard endpoints carry their labels only.)
 * @public
 * @category Built-in plugins
 */
export const topologyExtractorPlugin = definePlugin({
  type: TOPOLOGY_EXTRACTOR,
  description: 'Data-layer extractor: host / rack / zone / region of each endpoint from its labels.',
  parameters: topologyExtractorParameters,
  create: (p, ctx): TopologyExtractor => new LabelTopology(ctx.name, p),
});
