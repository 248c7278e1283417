import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry, EndpointPicker, seededRandom, EndpointPool, loadConfig, parseRequest, type Decision, type PluginRegistry } from '@switchyard/core';
import { createPrefixHasher, loadPrefixIndexPlugins, registerPrefixIndexPlugins, type PrecisePrefixProducer, type PrefixHasher } from '@switchyard/prefix-index';
import { metrics } from '@switchyard/core/testing';

let hasher: PrefixHasher;
beforeAll(() => {
  hasher = createPrefixHasher();
});

const registry = (): PluginRegistry => registerPrefixIndexPlugins(createDefaultRegistry(), { hasher });
const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';

function poolOf(n: number): EndpointPool {
  const pool = new EndpointPool();
  for (let i = 0; i < n; i++) {
    pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000` });
    pool.setMetrics(`e${i}`, metrics({ cacheBlockSize: 16, cacheNumBlocks: 100_000 }));
  }
  return pool;
}


const chatRequest = (messages: { role: string; content: string }[], max = 64) =>
  parseRequest({ path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'llama', messages, max_tokens: max }) });

describe('llm-d configurations naming the prefix plugins load unchanged', () => {
  it('the legacy scorer with a built-in index', () => {
    const config = loadConfig(
      `${HEAD}plugins:\n- type: prefix-cache-scorer\n  parameters:\n    blockSize: 64\n    maxPrefixBlocksToMatch: 256\n    lruCapacityPerServer: 31250\n- type: queue-scorer\n- type: max-score-picker\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: prefix-cache-scorer\n    weight: 3\n  - pluginRef: queue-scorer\n  - pluginRef: max-score-picker\n`,
      { registry: registry(), pool: poolOf(2) },
    );
    // The scorer is its own match-info producer: only the token producer it reads is auto-created.
    expect(config.producers.map((p) => p.name)).toEqual(['token-producer', 'prefix-cache-scorer']);
  });

  it('approximate producer, affinity filter and no-hit LRU, with an auto-created token producer', () => {
    const config = loadConfig(
      `${HEAD}plugins:\n- type: approx-prefix-cache-producer\n  parameters:\n    blockSizeTokens: 64\n    autoTune: true\n    maxPrefixTokensToMatch: 131072\n    lruCapacityPerServer: 31250\n- type: prefix-cache-affinity-filter\n  parameters:\n    affinityThreshold: 0.8\n    explorationProbability: 0.05\n    maxTTFTPenaltyMs: 18000\n- type: prefix-cache-scorer\n  parameters:\n    matchLengthWeight: 0.5\n    matchLengthScaleTokens: 8192\n    prefixMatchInfoProducerName: approx-prefix-cache-producer\n- type: no-hit-lru-scorer\n  parameters:\n    lruSize: 2048\n`,
      { registry: registry(), pool: poolOf(2) },
    );
    expect(config.producers.map((p) => p.type).sort()).toEqual(['approx-prefix-cache-producer', 'token-producer']);
  });

  it('precise prefix caching with a vLLM tokenizer', async () => {
    const config = loadConfig(
      `${HEAD}plugins:\n- type: token-producer\n  parameters:\n    backend: vllm\n    url: http://localhost:8000\n    modelName: meta-llama/Llama-3.1-8B-Instruct\n- type: precise-prefix-cache-producer\n  parameters:\n    blockSizeTokens: 16\n    hashSeed: "42"\n    kvEventsConfig:\n      topicFilter: "kv@"\n      discoverPods: true\n- type: prefix-cache-scorer\n  parameters:\n    prefixMatchInfoProducerName: precise-prefix-cache-producer\n`,
      { registry: registry(), pool: new EndpointPool() },
    );
    expect(config.producers.map((p) => p.type)).toEqual(['token-producer', 'precise-prefix-cache-producer']);
    await (config.plugins.get('precise-prefix-cache-producer') as PrecisePrefixProducer).close();
  });

  it('the tokenizer plugin under its old name, `tokenizer`', () => {
    const config = loadConfig(
      `${HEAD}plugins:\n- type: tokenizer\n  parameters:\n    backend: estimate\n- type: approx-prefix-cache-producer\n- type: prefix-cache-scorer\n  parameters:\n    prefixMatchInfoProducerName: approx-prefix-cache-producer\n`,
      { registry: registry(), pool: poolOf(2) },
    );
    // The configured `tokenizer` produces the tokens: no token-producer is auto-created beside it.
    expect(config.producers.map((p) => p.name)).toEqual(['tokenizer', 'approx-prefix-cache-producer']);
  });

  const PD = (decider: string) =>
    `${HEAD}plugins:\n- name: approx\n  type: approx-prefix-cache-producer\n- type: prefill-filter\n- type: decode-filter\n- type: prefix-cache-scorer\n- type: prefix-based-pd-decider\n  parameters:\n    nonCachedTokens: 8\n${decider}- type: disagg-profile-handler\n  parameters:\n    deciders:\n      prefill: prefix-based-pd-decider\nschedulingProfiles:\n- name: prefill\n  plugins:\n  - pluginRef: prefill-filter\n  - pluginRef: prefix-cache-scorer\n- name: decode\n  plugins:\n  - pluginRef: decode-filter\n  - pluginRef: prefix-cache-scorer\n`;
  const registries: [string, () => PluginRegistry][] = [
    ['registerPrefixIndexPlugins(registry)', registry],
    ['registry.registerAll(loadPrefixIndexPlugins())', () => createDefaultRegistry().registerAll(loadPrefixIndexPlugins({ hasher }))],
  ];
  it.each(registries)('P/D disaggregation with prefix-based-pd-decider, registered by %s', async (_how, makeRegistry) => {
    const pool = new EndpointPool();
    pool.add({ id: 'p', address: '10.0.0.1:8000', labels: { 'llm-d.ai/role': 'prefill' } });
    pool.add({ id: 'd', address: '10.0.0.2:8000', labels: { 'llm-d.ai/role': 'decode' } });
    // The decider reads the named producer's copy of the match info (llm-d's prefixMatchInfoProducerName).
    const config = loadConfig(PD('    prefixMatchInfoProducerName: approx\n'), { registry: makeRegistry(), pool });
    expect(config.plugins.get('prefix-based-pd-decider')?.consumes).toEqual(['prefix-match-info/approx']);
    const picker = new EndpointPicker({ pool, config });
    const long = chatRequest([{ role: 'user', content: 'a fairly long question '.repeat(20) }]);
    const d = await picker.pick(long);
    expect(d.primary.id).toBe('d');
    expect(d.headers['x-prefiller-host-port']).toBe('10.0.0.1:8000');
    d.complete({ kind: 'success' });
    // Same prompt again: the decode endpoint now holds it, too little is uncached to disaggregate.
    const again = await picker.pick(long);
    expect(again.headers['x-prefiller-host-port']).toBeUndefined();
    again.complete({ kind: 'success' });
  });

  it('rejects a decider reading a producer that does not exist, and a misspelt decider parameter', () => {
    const pool = new EndpointPool();
    const reg = registry();
    expect(() => loadConfig(PD('    prefixMatchInfoProducerName: aprox\n'), { registry: reg, pool })).toThrow(
      'plugin "prefix-based-pd-decider" (type prefix-based-pd-decider) consumes attribute "prefix-match-info/aprox", but no configured plugin produces it',
    );
    expect(() => loadConfig(PD('    promptToken: 5\n'), { registry: reg, pool })).toThrow('plugins[4].parameters.promptToken: unknown parameter');
  });

  it('llm-d defaults (no config) include prefix-cache-scorer and its producers', async () => {
    const pool = poolOf(2);
    const picker = new EndpointPicker({ pool, registry: registry() });
    expect(picker.scheduler).toBeDefined();
    const d = await picker.pick(chatRequest([{ role: 'user', content: 'hi' }]));
    expect(d.request.attributes.names()).toEqual(expect.arrayContaining(['prefix-match-info', 'prefix-prompt-bytes']));
    d.complete({ kind: 'success' });
  });
});

const ROUTING = (maxTTFTPenaltyMs: number) => `${HEAD}plugins:
- type: approx-prefix-cache-producer
- type: prefix-cache-affinity-filter
  parameters:
    maxTTFTPenaltyMs: ${maxTTFTPenaltyMs}
- type: prefix-cache-scorer
- type: no-hit-lru-scorer
- type: token-load-scorer
  parameters:
    queueThresholdTokens: 40000
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: prefix-cache-affinity-filter
  - pluginRef: prefix-cache-scorer
    weight: 3
  - pluginRef: no-hit-lru-scorer
  - pluginRef: token-load-scorer
    weight: 4
  - pluginRef: max-score-picker
`;

function routingPicker(maxTTFTPenaltyMs: number, endpoints = 8): EndpointPicker {
  const pool = poolOf(endpoints);
  const config = loadConfig(ROUTING(maxTTFTPenaltyMs), { registry: registry(), pool });
  return new EndpointPicker({ pool, config, random: seededRandom(7) });
}

describe('routing through EndpointPicker', () => {
  it('multi-turn conversations stick to the endpoint holding their prefix, cold ones spread', async () => {
    const picker = routingPicker(18000);
    const conversations = Array.from({ length: 6 }, (_, c) => [{ role: 'system', content: `You are assistant #${c}. `.repeat(40) }]);
    const homes: string[] = [];
    for (let turn = 0; turn < 5; turn++) {
      for (let c = 0; c < conversations.length; c++) {
        const messages = conversations[c]!;
        messages.push({ role: 'user', content: `question ${turn} of conversation ${c}: ${'details '.repeat(30)}` });
        const d = await picker.pick(chatRequest(messages));
        if (turn === 0) homes[c] = d.primary.id;
        else expect(d.primary.id).toBe(homes[c]);
        messages.push({ role: 'assistant', content: `answer ${turn}: ${'words '.repeat(30)}` });
        d.complete({ kind: 'success' });
      }
    }
    // The six cold first turns went to six different endpoints.
    expect(new Set(homes).size).toBe(6);
  });

  it('a hot prefix does not pin all concurrent traffic to one endpoint (TTFT gate), and would without it', async () => {
    const system = { role: 'system', content: 'Shared agent instructions. '.repeat(600) };
    const burst = async (picker: EndpointPicker): Promise<Map<string, number>> => {
      const open: Decision[] = [];
      const counts = new Map<string, number>();
      for (let i = 0; i < 30; i++) {
        const d = await picker.pick(chatRequest([system, { role: 'user', content: `task ${i}` }]));
        counts.set(d.primary.id, (counts.get(d.primary.id) ?? 0) + 1);
        open.push(d);
      }
      for (const d of open) d.complete({ kind: 'success' });
      return counts;
    };
    const gated = await burst(routingPicker(500));
    expect(gated.size).toBeGreaterThanOrEqual(3);
    expect(Math.max(...gated.values())).toBeLessThanOrEqual(15);
    const ungated = await burst(routingPicker(1e9));
    expect(ungated.size).toBe(1);
  });
});
