import { Counter, type Registry } from 'prom-client';
import { registerDeprecatedTwin } from '@switchyard/core/internal';
import type { PreciseKvIndexCounters } from '../precise/types.js';

/** Something whose llm-d `kv_cache_index_*` counts can be read (a `PreciseKvIndex`). */
export interface KvIndexCounterSource {
  kvIndexCounters(): PreciseKvIndexCounters;
}

const FAMILIES: readonly (readonly [string, keyof PreciseKvIndexCounters, string])[] = [
  ['index_admissions_total', 'admissions', 'KV blocks admitted to the precise index (named by applied BlockStored events).'],
  ['index_evictions_total', 'evictions', 'KV blocks evicted from the precise index (named by applied BlockRemoved events).'],
  ['index_lookup_requests_total', 'lookupRequests', 'Lookups of the precise index.'],
  ['index_max_pod_hit_count_total', 'maxPodHits', 'Per lookup, the longest leading block run any endpoint holds, summed.'],
  ['index_lookup_hits_total', 'lookupHits', 'Per lookup, the leading block run of the best-scored endpoint, summed.'],
];

const SOURCES = new WeakMap<Registry, Set<KvIndexCounterSource>>();

/**
 * Registers llm-d's `llm_d_epp_kv_cache_index_*` counters over the tracked precise indexes. The
 * indexes count in plain numbers on their hot paths; the counters read and sum them at scrape
 * time, so recording costs no prom-client call per lookup or event.
 * @returns a function that adds an index to the sum.
 */
export function registerKvCacheIndexCounters(registry: Registry): (source: KvIndexCounterSource) => void {
  // One set per registry, so metrics created twice on one registry feed the same counters.
  const known = SOURCES.get(registry);
  if (known !== undefined) return (source) => void known.add(source);
  const sources = new Set<KvIndexCounterSource>();
  SOURCES.set(registry, sources);
  for (const [suffix, field, help] of FAMILIES) {
    const name = `llm_d_epp_kv_cache_${suffix}`;
    if (registry.getSingleMetric(name) !== undefined) continue;
    const counter = new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        let total = 0;
        for (const s of sources) total += s.kvIndexCounters()[field];
        this.reset();
        this.inc(total);
      },
    });
    // llm-d still serves each under its former kvcache_* name.
    registerDeprecatedTwin(registry, `kvcache_${suffix}`, counter, name, []);
  }
  return (source) => {
    sources.add(source);
  };
}
