import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Attributes, createDefaultRegistry, EndpointPicker, EndpointPool, loadConfig, parseRequest, type PluginRegistry, type Scorer } from '@switchyard/core';
import { createPrefixHasher, loadPrefixIndexPlugins, type PrefixIndexLogger, type PrecisePrefixProducer, type PrefixHasher } from '@switchyard/prefix-index';
import { FakeEngine, seq } from '../test-support/fake-engine.js';
import { cycleContext, schedulingRequest, tokensPrompt } from '@switchyard/core/testing';

const HEAD = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\n';
let hasher: PrefixHasher;
const warnings: string[] = [];
const logger: PrefixIndexLogger = { warn: (m) => warnings.push(m), info: () => undefined };
let registry: PluginRegistry;
beforeAll(() => {
  hasher = createPrefixHasher();
  registry = createDefaultRegistry().registerAll(loadPrefixIndexPlugins({ hasher, logger }));
});

const load = (plugins: string, pool = new EndpointPool()) => loadConfig(`${HEAD}plugins:\n${plugins}`, { registry, pool });
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error('expected a config error');
};
/** Plugins 0–2 are fine, so a typo in plugins[3] must be reported there. */
const FIRST_THREE = '- type: queue-scorer\n- type: kv-cache-utilization-scorer\n- type: max-score-picker\n';

describe('prefix-index plugin parameters are decoded strictly', () => {
  it.each([
    ['prefix-cache-scorer', 'matchLenghtWeight: 0.5', 'matchLenghtWeight', 'matchLengthWeight'],
    ['approx-prefix-cache-producer', 'blockSizeToken: 64', 'blockSizeToken', 'blockSizeTokens'],
    ['no-hit-lru-scorer', 'lruSise: 10', 'lruSise', 'lruSize'],
    ['prefix-cache-affinity-filter', 'affinityTreshold: 0.9', 'affinityTreshold', 'affinityThreshold'],
    ['token-producer', 'vllm: { urll: "http://x" }', 'vllm.urll', 'url'],
    ['precise-prefix-cache-producer', 'tokenProcessorConfig: { blockSizeToken: 64 }', 'tokenProcessorConfig.blockSizeToken', 'blockSizeTokens'],
    ['precise-prefix-cache-producer', 'kvEventsConfig: { podDiscoveryConfig: { socketPrt: 1 } }', 'kvEventsConfig.podDiscoveryConfig.socketPrt', 'socketPort'],
    ['precise-prefix-cache-producer', 'indexerConfig: { kvCacheBackendConfig: [] }', 'indexerConfig.kvCacheBackendConfig', 'kvCacheBackendConfigs'],
  ])('%s rejects %s', (type, param, path, suggestion) => {
    expect(errorOf(() => load(`${FIRST_THREE}- type: ${type}\n  parameters: { ${param} }\n`))).toBe(`plugins[3].parameters.${path}: unknown parameter (did you mean "${suggestion}"?)`);
  });

  it('accepts every llm-d parameter of the prefix plugins', () => {
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    const config = load(
      `- type: token-producer
  parameters:
    modelName: meta-llama/Llama-3.1-8B-Instruct
    vllm: { url: "http://127.0.0.1:1", timeout: 5s, mmTimeout: 30s, messagesRenderMode: auto, responsesRenderMode: native, prefillOnly: false, omitMMKwargs: true, mergeAnthropicInlineSystem: false }
- type: approx-prefix-cache-producer
  parameters: { autoTune: true, blockSizeTokens: 0, blockSize: 0, maxPrefixBlocksToMatch: 0, maxPrefixTokensToMatch: 131072, lruCapacityPerServer: 0 }
- type: precise-prefix-cache-producer
  parameters:
    tokenProcessorConfig: { blockSize: 64, hashSeed: "42", hashAlgorithm: cbor-fnv }
    indexerConfig:
      kvBlockIndexConfig: { inMemoryConfig: { size: 100000000, podCacheSize: 10 }, enableMetrics: true, metricsLoggingInterval: 60000000000 }
      kvCacheBackendConfigs: [{ name: gpu, weight: 1 }, { name: cpu, weight: 0.5 }]
      kvCacheDefaultBackendWeight: 0.25
    kvEventsConfig: { topicFilter: "kv@", concurrency: 8, engineType: vllm, tracing: false, discoverPods: false, podDiscoveryConfig: { podLabelSelector: "llm-d.ai/inference-serving=true", podNamespace: ns, socketPort: 5556, replaySocketPort: 5559 } }
    speculativeIndexing: true
    speculativeTTL: 3s
- type: prefix-cache-scorer
  parameters: { prefixMatchInfoProducerName: precise-prefix-cache-producer, prefixLengthWeight: 0.5, maxModelLen: 100 }
- type: no-hit-lru-scorer
  parameters: { lruSize: 0, prefixMatchInfoProducerName: precise-prefix-cache-producer, prefixPluginType: prefix-cache-scorer, prefixPluginName: prefix-cache-scorer }
- type: prefix-cache-affinity-filter
  parameters: { affinityThreshold: 0.8, explorationProbability: 0.01, maxTTFTPenaltyMs: 5000, ttftSource: latencyPredictor, peakPrefillThroughput: 3585, prefillCalibrationFile: /etc/c.json, prefillCalibrationFingerprint: "sha256:x", prefillCalibrationRequired: true, prefixMatchInfoProducerName: precise-prefix-cache-producer, latencyPredictionInfoProducerName: p, inFlightLoadProducerName: i }
`,
      pool,
    );
    // The nested llm-d settings take effect: block size 64 and the medium weights (cpu 0.5).
    const precise = config.plugins.get('precise-prefix-cache-producer') as PrecisePrefixProducer;
    expect(precise.index.blockSizeTokens).toBe(64);
    const engine = new FakeEngine(64);
    const tokens = seq(64 * 4);
    precise.index.ingest('a', { ts: 0, events: [engine.stored(tokens, 0, 4, { medium: 'cpu' })] }, { model: 'm' });
    const req = schedulingRequest({ request: { model: 'm', prompt: tokensPrompt(tokens) } });
    precise.produce(cycleContext(), req, pool.list());
    expect(req.attributes.get(Attributes.prefixMatch)?.get('a')).toMatchObject({ matchBlocks: 2, cachedBlocks: 4, blockSizeTokens: 64 });
    // prefixLengthWeight/maxModelLen are matchLengthWeight/matchLengthScaleTokens: .5·min(1, 128/100)² + .5·2/4.
    const scorer = config.plugins.get('prefix-cache-scorer') as Scorer;
    expect(scorer.score(cycleContext(), req, pool.list()).get('a')).toBeCloseTo(0.75);
  });

  it('reports what it accepts but cannot honour, and rejects what would silently change routing', () => {
    warnings.length = 0;
    load(`- type: precise-prefix-cache-producer
  parameters:
    subscribe: false
    checkpoint: { storePluginRef: store }
    indexerConfig: { kvBlockIndexConfig: { redisConfig: { address: "redis:6379" } } }
    kvEventsConfig: { zmqEndpoint: "tcp://*:5557" }
- type: token-producer
  parameters: { vllm: { url: "https://r", caCertPath: /ca.pem, endpointDiscovery: {} } }
`);
    expect(warnings.map((w) => w.replace(/ \(.*$| is not supported.*$/, ''))).toEqual([
      'precise-prefix-cache-producer: kvEventsConfig.zmqEndpoint',
      'precise-prefix-cache-producer: indexerConfig.kvBlockIndexConfig.redisConfig',
      'precise-prefix-cache-producer: checkpoint',
      'token-producer: vllm.endpointDiscovery',
      'token-producer: vllm.caCertPath',
    ]);
    const rejected = (plugin: string) => errorOf(() => load(plugin));
    expect(rejected('- type: precise-prefix-cache-producer\n  parameters: { subscribe: false, sessionManager: sessions }\n')).toMatch(/^plugins\[0\]: .*sessionManager "sessions": session-cache managers are not supported/);
    expect(rejected('- type: precise-prefix-cache-producer\n  parameters: { indexerConfig: { tokenizersPoolConfig: {} } }\n')).toMatch(/tokenizersPoolConfig is not supported/);
    expect(rejected('- type: token-producer\n  parameters: { udsTokenizerConfig: { socketFile: /tmp/t.sock } }\n')).toMatch(/udsTokenizerConfig .* is not supported/);
    expect(rejected('- type: token-producer\n  parameters: { vllm: {}, estimate: {} }\n')).toMatch(/vllm and estimate select different backends/);
    expect(rejected('- type: prefix-cache-scorer\n  parameters: { matchLengthWeight: 0.5, prefixLengthWeight: 0.5 }\n')).toBe(
      'plugins[0].parameters.prefixLengthWeight: give matchLengthWeight or prefixLengthWeight (the same setting), not both',
    );
    expect(rejected('- type: prefix-cache-affinity-filter\n  parameters: { prefillCalibrationRequired: true }\n')).toMatch(/prefillCalibrationRequired: calibration records are not read/);
  });
});

describe('token-producer follows llm-d: vllm or modelName selects the render backend', () => {
  let server: Server;
  let url = '';
  const paths: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify([{ token_ids: [11, 12, 13] }]));
      });
    });
    await new Promise<void>((resolve) => {
      server.listen(0, '127.0.0.1', resolve);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  });

  const tokensVia = async (parameters: string): Promise<unknown> => {
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    const config = load(`- type: token-producer\n  parameters: ${parameters}\n- type: prefix-cache-scorer\n`, pool);
    const picker = new EndpointPicker({ pool, config });
    const d = await picker.pick(parseRequest({ path: '/v1/completions', headers: {}, body: JSON.stringify({ model: 'm', prompt: 'hello world' }) }));
    d.complete({ kind: 'success' });
    await picker.close();
    return d.request.attributes.get(Attributes.tokens);
  };

  it.each([
    ['llm-d vllm block', () => `{ vllm: { url: "${url}", timeout: 2s } }`],
    ['modelName alone (flat url)', () => `{ modelName: m, url: "${url}" }`],
    ['explicit backend', () => `{ backend: vllm, url: "${url}" }`],
  ])('%s', async (_name, parameters) => {
    expect(await tokensVia(parameters())).toEqual([[11, 12, 13]]);
    expect(paths.at(-1)).toBe('/v1/completions/render');
  });

  it('stays on the estimate without vllm or modelName', async () => {
    const before = paths.length;
    expect(await tokensVia(`{ estimate: { image: { mode: static } }, url: "${url}" }`)).toBeUndefined();
    expect(paths.length).toBe(before);
  });
});
