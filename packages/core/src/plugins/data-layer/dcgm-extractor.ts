import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { MetricFamily } from '../../model-metrics/types.js';
import { definePlugin } from '../../registry/types.js';
import { attributeKey, type AttributeKey } from '../../scheduling/attributes.js';
import type { DataProducer, Plugin } from '../../scheduling/plugins.js';

/**
 * Type of llm-d's DCGM GPU-utilization extractor. @public
 * @category Built-in plugins
 */
export const DCGM_EXTRACTOR = 'dcgm-extractor';

/**
 * The DCGM exporter's GPU utilization gauge (percent, 0–100), as NVIDIA documents it. @public
 * @category Built-in plugins
 */
export const DCGM_GPU_UTIL_METRIC = 'DCGM_FI_DEV_GPU_UTIL';

/**
 * Attribute a `dcgm-extractor` instance publishes: GPU utilization in [0, 1] per endpoint id,
 * named `GPUUtilization/<instance name>` as llm-d names the data key.
 * @public
 * @category Built-in plugins
 */
export function gpuUtilizationAttribute(extractorName: string = DCGM_EXTRACTOR): AttributeKey<ReadonlyMap<string, number>> {
  return attributeKey(`GPUUtilization/${extractorName}`);
}

/**
 * A `dcgm-extractor` instance: fed pages by a `dcgm-data-source`, it keeps the latest GPU
 * utilization of every endpoint and publishes them to each request as a data producer.
 * @public
 * @category Built-in plugins
 */
export interface DcgmExtractor extends DataProducer {
  /** Reads one scraped DCGM page of `endpoint`. */
  extract(endpoint: Endpoint, families: readonly MetricFamily[]): void;
  /** Latest utilization of an endpoint in [0, 1], undefined before its first page. */
  utilization(endpointId: string): number | undefined;
}

/**
 * True when `p` is a {@link DcgmExtractor}. @public
 * @category Built-in plugins
 */
export function isDcgmExtractor(p: Plugin): p is DcgmExtractor {
  return p.type === DCGM_EXTRACTOR && typeof (p as Partial<DcgmExtractor>).extract === 'function';
}

/**
 * The pod an endpoint belongs to, for matching the exporter's `pod` label: llm-d endpoint ids
 * are `<namespace>/<pod>-rank-<i>`; any other id names no pod (then every series counts).
 */
function podOf(endpoint: Endpoint): string | undefined {
  const slash = endpoint.id.indexOf('/');
  if (slash < 0) return undefined;
  return endpoint.id.slice(slash + 1).replace(/-rank-\d+$/, '');
}

/**
 * GPU utilization in a DCGM page: the largest `DCGM_FI_DEV_GPU_UTIL` value among the series of
 * `pod` (all series when the pod is unknown or no series names it), divided by 100.
 * @public
 * @category Built-in plugins
 */
export function gpuUtilizationOf(families: readonly MetricFamily[], pod: string | undefined): number | undefined {
  const family = families.find((f) => f.name === DCGM_GPU_UTIL_METRIC);
  if (family === undefined) return undefined;
  const own = pod === undefined ? [] : family.samples.filter((s) => s.labels['pod'] === pod);
  const samples = own.length > 0 ? own : pod === undefined ? family.samples : [];
  let max: number | undefined;
  for (const s of samples) if (Number.isFinite(s.value) && (max === undefined || s.value > max)) max = s.value;
  return max === undefined ? undefined : Math.min(1, Math.max(0, max / 100));
}

class GpuUtilizationExtractor implements DcgmExtractor {
  readonly type = DCGM_EXTRACTOR;
  readonly produces: readonly string[];
  readonly consumes: readonly string[] = [];
  readonly #values = new Map<string, number>();
  readonly #key: AttributeKey<ReadonlyMap<string, number>>;
  readonly #pool: EndpointPool;
  readonly #onRemoved = (e: Endpoint): void => void this.#values.delete(e.id);

  constructor(readonly name: string, pool: EndpointPool) {
    this.#key = gpuUtilizationAttribute(name);
    this.produces = [this.#key.name];
    this.#pool = pool;
    // Values of endpoints that left the pool are dropped, so the map stays as large as the pool.
    pool.on('removed', this.#onRemoved);
  }

  extract(endpoint: Endpoint, families: readonly MetricFamily[]): void {
    const value = gpuUtilizationOf(families, podOf(endpoint));
    if (value !== undefined && this.#pool.get(endpoint.id) !== undefined) this.#values.set(endpoint.id, value);
  }

  utilization(endpointId: string): number | undefined {
    return this.#values.get(endpointId);
  }

  produce(_ctx: unknown, request: { attributes: { set<T>(k: AttributeKey<T>, v: T): void } }): void {
    request.attributes.set(this.#key, this.#values);
  }

  close(): void {
    this.#pool.off('removed', this.#onRemoved);
  }
}

/**
 * `dcgm-extractor` (llm-d, alpha): turns the NVIDIA DCGM exporter's `DCGM_FI_DEV_GPU_UTIL` into
 * `GPUUtilization/<name>` per endpoint, for `endpoint-attribute-filter` / `-scorer`. Wire it to a
 * `dcgm-data-source` in `dataLayer.sources`. No parameters.
 * @public
 * @category Built-in plugins
 */
export const dcgmExtractorPlugin = definePlugin({
  type: DCGM_EXTRACTOR,
  description: 'Data-layer extractor: GPU utilization (0..1) from DCGM exporter pages.',
  parameters: z.strictObject({}).prefault({}),
  create: (_p, ctx): DcgmExtractor => new GpuUtilizationExtractor(ctx.name, ctx.pool),
});
