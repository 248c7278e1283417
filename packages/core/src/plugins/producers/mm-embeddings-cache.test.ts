import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { EndpointPicker, EndpointPool, ManualClock, createDefaultRegistry, loadConfig, multimodalItems, parseRequest } from '@switchyard/core';

const doc = `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: mm-embeddings-cache-producer
  parameters: {cacheSizeInMBPerServer: 4}
- type: mm-embeddings-cache-scorer
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: mm-embeddings-cache-scorer
  - pluginRef: max-score-picker
`;

const image = (url: string) => ({ type: 'image_url', image_url: { url } });
const chat = (...urls: string[]) =>
  parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'describe' }, ...urls.map(image)] }] }) });

describe('mm-embeddings-cache-producer + scorer', () => {
  it('finds distinct media items by content', () => {
    expect(multimodalItems(chat('a.png', 'b.png', 'a.png').body)).toHaveLength(2);
    expect(multimodalItems(chat().body)).toEqual([]);
    expect(multimodalItems(undefined)).toEqual([]);
  });

  it('sends repeated images to the endpoint that encoded them, and forgets past capacity', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    for (const id of ['a', 'b', 'c']) pool.add({ id, address: `10.0.0.${id.charCodeAt(0) - 96}:8000` });
    const config = loadConfig(doc, { registry: createDefaultRegistry(), pool, clock });
    const picker = new EndpointPicker({ pool, clock, config, random: () => 0.99, staleness: { policy: 'ignore' } });
    const first = await picker.pick(chat('cat.png', 'dog.png'));
    first.complete({ kind: 'success' });
    const again = await picker.pick(chat('dog.png', 'cat.png'));
    expect(again.primary.id).toBe(first.primary.id);
    expect(again.request.attributes.get({ name: 'MultiModalEncoderCacheMatchInfoKey/mm-embeddings-cache-producer' })).toEqual(
      new Map(pool.list().map((e) => [e.id, { matched: e.id === first.primary.id ? 2 : 0, total: 2 }])),
    );
    again.complete({ kind: 'success' });
    // 4 MB per server holds two 2 MiB items: two new images on the same endpoint evict both.
    const holder = first.primary.id;
    const fill = await picker.pick(chat('cat.png', 'x.png', 'y.png'));
    expect(fill.primary.id).toBe(holder);
    fill.complete({ kind: 'success' });
    const later = await picker.pick(chat('cat.png'));
    const info = later.request.attributes.get({ name: 'MultiModalEncoderCacheMatchInfoKey/mm-embeddings-cache-producer' }) as Map<string, { matched: number }>;
    expect(info.get(holder)?.matched).toBe(0);
    later.complete({ kind: 'success' });
    pool.remove(holder);
  });

  it("records llm-d's encoder_cache families per candidate lookup, by modality and pod", async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    for (const id of ['a', 'b']) pool.add({ id, address: `10.0.0.${id.charCodeAt(0) - 96}:8000` });
    const metrics = new Registry();
    const config = loadConfig(doc, { registry: createDefaultRegistry(), pool, clock, metrics });
    const picker = new EndpointPicker({ pool, clock, config, random: () => 0.99, staleness: { policy: 'ignore' } });
    const first = await picker.pick(chat('cat.png', 'dog.png'));
    first.complete({ kind: 'success' });
    const again = await picker.pick(chat('cat.png', 'bird.png'));
    again.complete({ kind: 'success' });
    const text = await metrics.metrics();
    const labels = 'plugin_type="mm-embeddings-cache-producer",plugin_name="mm-embeddings-cache-producer"';
    // Two requests × two candidates × two images.
    expect(text).toContain(`\nllm_d_epp_encoder_cache_queries_total{${labels},modality="image"} 8\n`);
    // Only cat.png on the first request's endpoint hit.
    expect(text).toContain(`\nllm_d_epp_encoder_cache_hits_total{${labels},pod="${first.primary.id}",modality="image"} 1\n`);
    expect(text.match(/^llm_d_epp_encoder_cache_hits_total\{/gm)).toHaveLength(1);
    // Four candidate lookups: three of 0/2, one of 1/2.
    expect(text).toContain(`\nllm_d_epp_encoder_cache_hit_ratio_count{${labels}} 4\n`);
    expect(text).toContain(`\nllm_d_epp_encoder_cache_hit_ratio_sum{${labels}} 0.5\n`);
  });
});
