import type { Registry } from 'prom-client';
import { FastCounter, FastHistogram, type FastCounterChild, type FastHistogramChild } from '../../observability/fast-metrics.js';

const RATIO_BUCKETS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** The family `name` of `registry`, created on first use (several pools and producers share one registry). */
function familyOf<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/**
 * llm-d's encoder-cache families of one `mm-embeddings-cache-producer`, recorded when it matches a
 * request's media against each candidate's cache: `llm_d_epp_encoder_cache_queries_total` one per
 * (candidate, item) looked up, `..._hits_total` one per item a candidate's cache held (by `pod`),
 * and `..._hit_ratio` the candidate's matched / total items.
 * @internal
 */
export class EncoderCacheMetrics {
  readonly #queries: FastCounter<'plugin_type' | 'plugin_name' | 'modality'>;
  readonly #hits: FastCounter<'plugin_type' | 'plugin_name' | 'pod' | 'modality'>;
  readonly #ratio: FastHistogramChild;
  readonly #type: string;
  readonly #name: string;
  readonly #queriesByModality = new Map<string, FastCounterChild>();

  constructor(registry: Registry, pluginType: string, pluginName: string) {
    const registers = [registry];
    this.#queries = familyOf(registry, 'llm_d_epp_encoder_cache_queries_total', () => new FastCounter<'plugin_type' | 'plugin_name' | 'modality'>({ name: 'llm_d_epp_encoder_cache_queries_total', help: 'Multimodal items looked up in candidates\' encoder caches.', labelNames: ['plugin_type', 'plugin_name', 'modality'], registers }));
    this.#hits = familyOf(registry, 'llm_d_epp_encoder_cache_hits_total', () => new FastCounter<'plugin_type' | 'plugin_name' | 'pod' | 'modality'>({ name: 'llm_d_epp_encoder_cache_hits_total', help: 'Multimodal item lookups that hit a pod\'s encoder cache.', labelNames: ['plugin_type', 'plugin_name', 'pod', 'modality'], registers }));
    const ratio = familyOf(registry, 'llm_d_epp_encoder_cache_hit_ratio', () => new FastHistogram<'plugin_type' | 'plugin_name'>({ name: 'llm_d_epp_encoder_cache_hit_ratio', help: 'Matched / total multimodal items per candidate lookup.', labelNames: ['plugin_type', 'plugin_name'], buckets: RATIO_BUCKETS, registers }));
    this.#ratio = ratio.labels(pluginType, pluginName);
    this.#type = pluginType;
    this.#name = pluginName;
  }

  /** One item of `modality` looked up in one candidate's cache. */
  queried(modality: string): void {
    let child = this.#queriesByModality.get(modality);
    if (child === undefined) this.#queriesByModality.set(modality, (child = this.#queries.labels(this.#type, this.#name, modality)));
    child.inc();
  }

  /** One item of `modality` found in `pod`'s cache. */
  hit(pod: string, modality: string): void {
    this.#hits.labels(this.#type, this.#name, pod, modality).inc();
  }

  /** A candidate held `matched` of the request's `total` items. */
  candidate(matched: number, total: number): void {
    if (total > 0) this.#ratio.observe(matched / total);
  }
}
