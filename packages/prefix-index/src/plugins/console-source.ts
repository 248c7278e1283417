import type { ConsolePrefixIndex } from '@switchyard/core';
import { ApproximatePrefixProducer } from './approximate-producer.js';
import { PrecisePrefixProducer } from './precise-producer.js';
import type { PrefixIndex } from '../api/types.js';
import type { PrefixIndexMetrics } from '../metrics/prefix-metrics.js';

/**
 * Bytes per (block, endpoint) entry measured after GC (docs/prefix-cache.md, "Memory sizing"):
 * the approximate index with one holder per block, the precise index with its engine-hash records.
 */
const BYTES_PER_ENTRY: Readonly<Record<string, number>> = { approximate: 49, precise: 133 };

/** The distinct prefix indexes the producers among `plugins` feed. */
function indexesOf(plugins: Iterable<unknown>): PrefixIndex[] {
  const seen = new Set<PrefixIndex>();
  for (const p of plugins) {
    if (p instanceof ApproximatePrefixProducer || p instanceof PrecisePrefixProducer) seen.add(p.index);
  }
  return [...seen];
}

/** Mean of `llm_d_epp_prefix_indexer_hit_ratio` since start, or undefined before any request. */
async function meanHitRatio(metrics: PrefixIndexMetrics | undefined): Promise<number | undefined> {
  if (metrics === undefined) return undefined;
  const { values } = await metrics.hitRatio.get();
  let sum = 0;
  let count = 0;
  for (const v of values) {
    if (v.metricName?.endsWith('_sum') === true) sum += v.value;
    else if (v.metricName?.endsWith('_count') === true) count += v.value;
  }
  return count === 0 ? undefined : sum / count;
}

/**
 * What the operator console shows of the prefix indexes of one pool's plugins (pass the
 * configuration's plugin instances, e.g. core's `configPlugins(loaded)`): entries, blocks,
 * estimated memory, lookups, evictions, and the mean hit ratio from `metrics` (the process-wide
 * `llm_d_epp_prefix_indexer_hit_ratio`, so pools that share a metrics registry share the figure).
 * @public
 * @category Plugins
 */
export function prefixIndexConsoleSource(plugins: Iterable<unknown>, metrics?: PrefixIndexMetrics): () => Promise<Omit<ConsolePrefixIndex, 'pool'>[]> {
  const indexes = indexesOf(plugins);
  return async () => {
    const hitRate = await meanHitRatio(metrics);
    return indexes.map((index) => {
      const s = index.stats();
      return {
        kind: index.kind,
        entries: s.entries,
        blocks: s.blocks,
        estimatedBytes: s.entries * (BYTES_PER_ENTRY[index.kind] ?? BYTES_PER_ENTRY.approximate ?? 49),
        hitRate,
        lookups: s.lookups,
        evictions: s.evictions,
      };
    });
  };
}
