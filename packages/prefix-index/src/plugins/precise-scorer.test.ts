import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createDefaultRegistry, loadConfig, type Plugin } from '@switchyard/core';
import { registerPrefixIndexPlugins } from '@switchyard/prefix-index';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;

const load = (text: string) => {
  const pool = new EndpointPool();
  pool.add({ id: 'e0', address: '10.0.0.1:8000' });
  return loadConfig(HEAD + text, { registry: registerPrefixIndexPlugins(createDefaultRegistry(), { logger: quiet }), pool, clock: new ManualClock() });
};
const closeAll = async (plugins: Iterable<Plugin>) => {
  for (const p of plugins) await p.close?.();
};

describe('precise-prefix-cache-scorer (llm-d all-in-one)', () => {
  it("loads llm-d's data-parallel sample parameters and is its own producer", async () => {
    // deploy/config/dp-kvcache-epp-config.yaml's scorer block (per-pod discovery off here).
    const config = load(`plugins:
- type: precise-prefix-cache-scorer
  parameters:
    kvEventsConfig:
      discoverPods: false
      podDiscoveryConfig:
        socketPort: 5557
    indexerConfig:
      tokenProcessorConfig:
        blockSize: 16
        hashSeed: "42"
      tokenizersPoolConfig:
        modelName: Qwen/Qwen2.5-1.5B-Instruct
        hf:
          tokenizersCacheDir: "/cache/tokenizers"
      kvBlockIndexConfig:
        enableMetrics: false
- type: decode-filter
- type: max-score-picker
- type: single-profile-handler
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: decode-filter
  - pluginRef: max-score-picker
  - pluginRef: precise-prefix-cache-scorer
    weight: 10
`);
    expect(config.producers.map((p) => p.name)).toEqual(['token-producer', 'precise-prefix-cache-scorer']);
    expect(config.profiles.get('default')?.scorers.map((s) => [s.scorer.name, s.weight])).toEqual([['precise-prefix-cache-scorer', 10]]);
    expect(config.notActedOn.map((n) => n.parameter)).toContain('indexerConfig.tokenizersPoolConfig');
    await closeAll(config.plugins.values());
  });

  it('scores the existing precise-prefix-cache-producer instead of embedding its own', async () => {
    const config = load(`plugins:
- type: precise-prefix-cache-producer
  parameters: {kvEventsConfig: {discoverPods: false}}
- type: precise-prefix-cache-scorer
  parameters: {kvEventsConfig: {discoverPods: false}}
`);
    expect(config.producers.map((p) => p.name)).toEqual(['token-producer', 'precise-prefix-cache-producer']);
    expect(config.plugins.get('precise-prefix-cache-scorer')?.consumes).toEqual(['prefix-match-info/precise-prefix-cache-producer']);
    await closeAll(config.plugins.values());
  });
});
