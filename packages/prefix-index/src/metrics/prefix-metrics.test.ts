import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createPrefixIndexMetrics, silentLogger } from '@switchyard/prefix-index';

describe('prefix indexer metrics', () => {
  it("expose llm-d's unlabelled inference_extension_prefix_indexer_* twins, summed over index kinds", async () => {
    const registry = new Registry();
    const m = createPrefixIndexMetrics({ registry, logger: silentLogger });
    m.indexSize.labels('approximate').set(40);
    m.indexSize.labels('precise').set(2);
    m.hitRatio.observe(0.5);
    m.hitBytes.observe(256);
    const text = await registry.metrics();
    expect(text).toContain('\ninference_extension_prefix_indexer_size 42\n');
    expect(text).toContain('\ninference_extension_prefix_indexer_hit_ratio_bucket{le="0.5"} 1\n');
    expect(text).toContain('\ninference_extension_prefix_indexer_hit_ratio_bucket{le="0.4"} 0\n');
    expect(text).toContain('\ninference_extension_prefix_indexer_hit_bytes_sum 256\n');
    // A second call on the same registry reuses the families and registers no second twin.
    expect(createPrefixIndexMetrics({ registry, logger: silentLogger }).indexSize).toBe(m.indexSize);
  });
});
