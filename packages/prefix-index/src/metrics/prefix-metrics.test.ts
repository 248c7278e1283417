import { beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import type { Endpoint } from '@switchyard/core';
import { cycleContext, poolOf, resultOf, schedulingRequest, tokensPrompt } from '@switchyard/core/testing';
import { ApproximatePrefixProducer, createPrefixHasher, createPrefixIndexMetrics, silentLogger, type PrefixHasher } from '@switchyard/prefix-index';

let hasher: PrefixHasher;
beforeAll(() => {
  hasher = createPrefixHasher();
});

describe('prefix indexer metrics', () => {
  it("expose llm-d's unlabelled inference_extension_prefix_indexer_* twins, summed over producers", async () => {
    const registry = new Registry();
    const m = createPrefixIndexMetrics({ registry, logger: silentLogger });
    m.indexSize.labels('a', 'approx-prefix-cache-producer').set(40);
    m.indexSize.labels('p', 'precise-prefix-cache-producer').set(2);
    m.hitRatio.labels('a', 'approx-prefix-cache-producer').observe(0.5);
    m.hitBytes.labels('a', 'approx-prefix-cache-producer').observe(256);
    const text = await registry.metrics();
    expect(text).toContain('\nllm_d_epp_prefix_indexer_size{plugin_name="a",plugin_type="approx-prefix-cache-producer"} 40\n');
    expect(text).toContain('\ninference_extension_prefix_indexer_size 42\n');
    expect(text).toContain('\ninference_extension_prefix_indexer_hit_ratio_bucket{le="0.5"} 1\n');
    expect(text).toContain('\ninference_extension_prefix_indexer_hit_ratio_bucket{le="0.4"} 0\n');
    expect(text).toContain('\ninference_extension_prefix_indexer_hit_bytes_sum 256\n');
    // A second call on the same registry reuses the families and registers no second twin.
    expect(createPrefixIndexMetrics({ registry, logger: silentLogger }).indexSize).toBe(m.indexSize);
  });

  it('record the chosen endpoint at PreRequest, labelled with the producer name and type (as llm-d)', async () => {
    const registry = new Registry();
    const metrics = createPrefixIndexMetrics({ registry, logger: silentLogger });
    const pool = poolOf(['pod1', 'pod2']);
    const [pod1, pod2] = pool.list() as [Endpoint, Endpoint];
    const p = new ApproximatePrefixProducer({ name: 'approx', hasher, pool, metrics, blockSizeTokens: 1, autoTune: false, minBlockSizeTokens: 1 });
    const first = schedulingRequest({ request: { prompt: tokensPrompt([1, 2, 3, 4]) } });
    p.produce(cycleContext(), first, pool.list());
    p.preRequest(cycleContext(), first, resultOf(pod1));
    // pod1 holds all four blocks, but the scheduler sends the second request to pod2: that is a miss.
    const second = schedulingRequest({ request: { prompt: tokensPrompt([1, 2, 3, 4]) } });
    p.produce(cycleContext(), second, pool.list());
    p.preRequest(cycleContext(), second, resultOf(pod2));
    // The third goes to pod1 with 2 of its 4 blocks cached there.
    const third = schedulingRequest({ request: { prompt: tokensPrompt([1, 2, 9, 9]) } });
    p.produce(cycleContext(), third, pool.list());
    p.preRequest(cycleContext(), third, resultOf(pod1));

    const labels = 'plugin_name="approx",plugin_type="approx-prefix-cache-producer"';
    const text = await registry.metrics();
    expect(text).toContain(`\nllm_d_epp_prefix_indexer_hit_ratio_count{${labels}} 3\n`);
    expect(text).toContain(`\nllm_d_epp_prefix_indexer_hit_ratio_sum{${labels}} 0.5\n`);
    expect(text).toContain(`\nllm_d_epp_prefix_indexer_hit_ratio_bucket{le="0",${labels}} 2\n`);
    // 2 blocks × 1 token × 4 characters per token.
    expect(text).toContain(`\nllm_d_epp_prefix_indexer_hit_bytes_sum{${labels}} 8\n`);
    // pod1: 4 + 2 new blocks, pod2: 4.
    expect(text).toContain(`\nllm_d_epp_prefix_indexer_size{${labels}} 10\n`);
  });
});
