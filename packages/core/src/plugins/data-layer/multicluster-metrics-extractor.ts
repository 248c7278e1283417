import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { MetricSelector } from '../../model-metrics/engine-mappings.js';
import { labelsMatch } from '../../model-metrics/samples.js';
import type { MetricFamily } from '../../model-metrics/types.js';
import { definePlugin } from '../../registry/types.js';
import type { AttributeKey } from '../../scheduling/attributes.js';
import type { DataProducer, Plugin } from '../../scheduling/plugins.js';
import { MULTICLUSTER_ATTRIBUTES } from '../scorers/multicluster-scorers.js';
import { parseMetricSpec } from './metric-spec.js';

/**
 * Type of llm-d's extractor of a remote EPP's pool gauges. @public
 * @category Built-in plugins
 */
export const MULTICLUSTER_METRICS_EXTRACTOR = 'multicluster-metrics-extractor';

/** A metric spec parameter: `name` or `name{label="value",…}`, checked at load; `""` turns it off. */
const metricSpec = (fallback: string) =>
  z.string().default(fallback).superRefine((spec, ctx) => {
    try {
      parseMetricSpec(spec);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    }
  });

/**
 * Parameters of `multicluster-metrics-extractor`, with llm-d's names and defaults: the metric
 * specs of the remote pool's average KV-cache utilization and average queue size (the gauges
 * every llm-d / Switchyard EPP exports); an empty spec publishes nothing for that attribute.
 * @public
 * @category Built-in plugins
 */
export const multiclusterMetricsExtractorParameters = z
  .strictObject({
    kvCacheUtilizationMetric: metricSpec('llm_d_epp_average_kv_cache_utilization'),
    queueSizeMetric: metricSpec('llm_d_epp_average_queue_size'),
  })
  .prefault({});

/**
 * A `multicluster-metrics-extractor` instance: fed pages by a `multicluster-metrics-data-source`,
 * it keeps each cluster endpoint's latest pool aggregates and publishes them to every request.
 * @public
 * @category Built-in plugins
 */
export interface MulticlusterMetricsExtractor extends DataProducer {
  /** Reads one scraped page of a cluster endpoint (a remote EPP's `/metrics`). */
  extract(endpoint: Endpoint, families: readonly MetricFamily[]): void;
  /** Latest values of a cluster endpoint (each undefined until a page carried it). */
  values(endpointId: string): { readonly kvCacheUtilization: number | undefined; readonly queueSize: number | undefined };
}

/**
 * True when `p` is a {@link MulticlusterMetricsExtractor}. @public
 * @category Built-in plugins
 */
export function isMulticlusterMetricsExtractor(p: Plugin): p is MulticlusterMetricsExtractor {
  return p.type === MULTICLUSTER_METRICS_EXTRACTOR && typeof (p as Partial<MulticlusterMetricsExtractor>).extract === 'function';
}

/**
 * The value a metric spec selects in a page: among the gauge or counter series of that name whose
 * labels match, the one with the latest timestamp (the first on ties or without timestamps);
 * undefined when none matches or the value is not finite.
 * @public
 * @category Built-in plugins
 */
export function selectGaugeValue(families: readonly MetricFamily[], selector: MetricSelector): number | undefined {
  let best: { value: number; ts: number } | undefined;
  for (const f of families) {
    if (f.name !== selector.name || (f.type !== 'gauge' && f.type !== 'counter')) continue;
    for (const s of f.samples) {
      if (s.name !== selector.name && s.name !== `${selector.name}_total`) continue;
      if (!labelsMatch(s, selector.labels)) continue;
      const ts = s.timestampMs ?? -Infinity;
      if (best === undefined || ts > best.ts) best = { value: s.value, ts };
    }
  }
  return best === undefined || !Number.isFinite(best.value) ? undefined : best.value;
}

class PoolAggregatesExtractor implements MulticlusterMetricsExtractor {
  readonly type = MULTICLUSTER_METRICS_EXTRACTOR;
  readonly produces: readonly string[] = [MULTICLUSTER_ATTRIBUTES.kvCacheUtilization.name, MULTICLUSTER_ATTRIBUTES.queueSize.name];
  readonly consumes: readonly string[] = [];
  readonly #kv = new Map<string, number>();
  readonly #queue = new Map<string, number>();
  readonly #pool: EndpointPool;
  readonly #onRemoved = (e: Endpoint): void => {
    this.#kv.delete(e.id);
    this.#queue.delete(e.id);
  };

  constructor(readonly name: string, private readonly kvSpec: MetricSelector | undefined, private readonly queueSpec: MetricSelector | undefined, pool: EndpointPool) {
    this.#pool = pool;
    // Values of clusters that left the pool are dropped, so the maps stay as large as the pool.
    pool.on('removed', this.#onRemoved);
  }

  extract(endpoint: Endpoint, families: readonly MetricFamily[]): void {
    if (this.#pool.get(endpoint.id) === undefined) return;
    // A page missing a series keeps the previous value, as llm-d keeps the last good attribute.
    const kv = this.kvSpec === undefined ? undefined : selectGaugeValue(families, this.kvSpec);
    if (kv !== undefined) this.#kv.set(endpoint.id, kv);
    const queue = this.queueSpec === undefined ? undefined : selectGaugeValue(families, this.queueSpec);
    if (queue !== undefined) this.#queue.set(endpoint.id, queue);
  }

  values(endpointId: string): { readonly kvCacheUtilization: number | undefined; readonly queueSize: number | undefined } {
    return { kvCacheUtilization: this.#kv.get(endpointId), queueSize: this.#queue.get(endpointId) };
  }

  produce(_ctx: unknown, request: { attributes: { set<T>(k: AttributeKey<T>, v: T): void } }): void {
    request.attributes.set(MULTICLUSTER_ATTRIBUTES.kvCacheUtilization, this.#kv);
    request.attributes.set(MULTICLUSTER_ATTRIBUTES.queueSize, this.#queue);
  }

  close(): void {
    this.#pool.off('removed', this.#onRemoved);
  }
}

/**
 * `multicluster-metrics-extractor` (llm-d, alpha): reads a remote EPP's pool gauges
 * (`kvCacheUtilizationMetric`, `queueSizeMetric`) from the pages a
 * `multicluster-metrics-data-source` scrapes and publishes them per cluster endpoint as
 * `llm-d.ai/multicluster-kv-cache-utilization` and `llm-d.ai/multicluster-queue-size`, which the
 * multicluster scorers read.
 * @public
 * @category Built-in plugins
 */
export const multiclusterMetricsExtractorPlugin = definePlugin({
  type: MULTICLUSTER_METRICS_EXTRACTOR,
  description: 'Data-layer extractor: a remote EPP\'s pool KV-cache utilization and queue size per cluster endpoint.',
  parameters: multiclusterMetricsExtractorParameters,
  create: (p, ctx): MulticlusterMetricsExtractor =>
    new PoolAggregatesExtractor(ctx.name, parseMetricSpec(p.kvCacheUtilizationMetric), parseMetricSpec(p.queueSizeMetric), ctx.pool),
});
