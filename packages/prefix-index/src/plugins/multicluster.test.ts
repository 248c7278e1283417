import { describe, expect, it } from 'vitest';
import { EndpointPicker, EndpointPool, createDefaultRegistry, loadConfig, parseRequest, seededRandom } from '@switchyard/core';
import { createPrefixHasher, registerPrefixIndexPlugins } from '@switchyard/prefix-index';
import { metrics } from '@switchyard/core/testing';

const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
const CONFIG = `${HEAD}plugins:
- type: multicluster-approx-prefix-cache-producer
  name: mc-prefix
  parameters: {blockSizeTokens: 64, autoTune: false, maxPrefixTokensToMatch: 131072, lruCapacityPerServer: 31250}
- type: multicluster-prefix-cache-scorer
  parameters: {prefixMatchInfoProducerName: mc-prefix, matchLengthWeight: 0, matchLengthScaleTokens: 8192}
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins: [{pluginRef: multicluster-prefix-cache-scorer}, {pluginRef: max-score-picker}]
`;

describe('multicluster prefix types', () => {
  it('load with llm-d parameters, report their own types, and route a repeated prompt back to its cluster', async () => {
    const pool = new EndpointPool();
    for (let i = 0; i < 3; i++) {
      pool.add({ id: `cluster-${i}`, address: `10.0.0.${i + 1}:8081` });
      pool.setMetrics(`cluster-${i}`, metrics());
    }
    const config = loadConfig(CONFIG, { registry: registerPrefixIndexPlugins(createDefaultRegistry(), { hasher: createPrefixHasher() }), pool });
    expect(config.plugins.get('mc-prefix')?.type).toBe('multicluster-approx-prefix-cache-producer');
    expect(config.plugins.get('multicluster-prefix-cache-scorer')?.type).toBe('multicluster-prefix-cache-scorer');
    // The renamed producer is no default producer: nothing else was auto-created for prefix match info.
    expect([...config.plugins.values()].filter((p) => p.type === 'approx-prefix-cache-producer')).toEqual([]);
    const picker = new EndpointPicker({ pool, config, random: seededRandom(3) });
    const request = () => parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'a long shared system prompt '.repeat(40) }] }) });
    const first = await picker.pick(request());
    first.complete({ kind: 'success' });
    for (let i = 0; i < 5; i++) {
      const again = await picker.pick(request());
      expect(again.primary.id).toBe(first.primary.id);
      again.complete({ kind: 'success' });
    }
    await picker.close();
  });
});
