import { beforeAll, describe, expect, it } from 'vitest';
import { createPrefixHasher, createPrefixIndexMetrics, PreciseKvIndex, type KvEvent, type PrefixHasher } from '@switchyard/prefix-index';
import { Registry } from 'prom-client';
import { FakeEngine, seq } from '../test-support/fake-engine.js';

let hasher: PrefixHasher;
beforeAll(() => {
  hasher = createPrefixHasher();
});

const batch = (...events: KvEvent[]) => ({ ts: 0, events });

async function valueOf(registry: Registry, name: string): Promise<number> {
  const m = await registry.getSingleMetric(name)?.get();
  return m?.values[0]?.value ?? Number.NaN;
}

const NAMES = ['admissions', 'evictions', 'lookup_requests', 'max_pod_hit_count', 'lookup_hits'].map((n) => `llm_d_epp_kv_cache_index_${n}_total`);

describe('llm_d_epp_kv_cache_index_* counters', () => {
  it('count admitted and evicted blocks, lookups and the longest and best endpoint runs', async () => {
    const metrics = createPrefixIndexMetrics();
    const index = new PreciseKvIndex({ hasher, blockSizeTokens: 4, modelName: 'm', observer: metrics.observer });
    metrics.trackPreciseIndex(index);
    const engine = new FakeEngine(4);
    const tokens = seq(16);
    // a holds 4 blocks on the CPU tier (weight 0.8 each), b holds 3 on the GPU (weight 1).
    index.ingest('a', batch(engine.stored(tokens, 0, 4, { medium: 'cpu' })));
    index.ingest('b', batch(engine.stored(tokens, 0, 3)));
    index.ingest('b', batch(engine.removed(tokens, [2])));
    index.match(index.keysFor([tokens], 'm')); // a: 4 blocks (3.2), b: 2 blocks (2.0)
    index.match(index.keysFor([seq(8).map((t) => t + 1000)], 'm')); // nobody holds these
    const values = await Promise.all(NAMES.map((n) => valueOf(metrics.registry, n)));
    expect(values).toEqual([7, 1, 2, 4, 4]);

    // b's run becomes the best-weighted one while a's is still the longest.
    index.ingest('b', batch(engine.stored(tokens, 2, 3)));
    index.ingest('a', batch(engine.removed(tokens, [3], 'cpu')));
    index.ingest('b', batch(engine.removed(tokens, [])));
    index.match(index.keysFor([tokens], 'm')); // a: 3 blocks (2.4), b: 3 blocks (3.0)
    expect(await valueOf(metrics.registry, NAMES[3] as string)).toBe(7);
    expect(await valueOf(metrics.registry, NAMES[4] as string)).toBe(7);
  });

  it('sum over every tracked index, also when the metrics are created twice on one registry', async () => {
    const registry = new Registry();
    const first = createPrefixIndexMetrics({ registry });
    const second = createPrefixIndexMetrics({ registry });
    const engine = new FakeEngine(4);
    for (const m of [first, second]) {
      const index = new PreciseKvIndex({ hasher, blockSizeTokens: 4, modelName: 'm' });
      m.trackPreciseIndex(index);
      index.ingest('a', batch(engine.stored(seq(8), 0, 2)));
      index.match(index.keysFor([seq(8)], 'm'));
    }
    expect(await valueOf(registry, 'llm_d_epp_kv_cache_index_admissions_total')).toBe(4);
    expect(await valueOf(registry, 'llm_d_epp_kv_cache_index_lookup_requests_total')).toBe(2);
    expect(await valueOf(registry, 'llm_d_epp_kv_cache_index_lookup_hits_total')).toBe(4);
    // The deprecated kvcache_* names carry the same samples.
    for (const name of NAMES) expect(await valueOf(registry, name.replace('llm_d_epp_kv_cache_', 'kvcache_'))).toBe(await valueOf(registry, name));
    expect(await valueOf(registry, 'kvcache_index_admissions_total')).toBe(4);
  });
});
