import { beforeAll, describe, expect, it } from 'vitest';
import { Attributes, createDefaultRegistry, isSwitchyardError, PluginRegistry, systemClock, prefixBasedPdDeciderPlugin, type DataProducer, type Endpoint, type RequestLifecycle, type Scorer } from '@switchyard/core';
import {
  ApproximatePrefixProducer,
  createPrefixHasher,
  createPrefixIndexMetrics,
  functionTokenizer,
  loadPrefixIndexPlugins,
  PreciseKvIndex,
  PrecisePrefixProducer,
  PrefixAttributes,
  registerPrefixIndexPlugins,
  TokenProducer,
  silentLogger,
  type PrefixHasher,
} from '@switchyard/prefix-index';
import { FakeEngine, seq } from '../test-support/fake-engine.js';
import { cycleContext, metrics, poolOf, resultOf, schedulingRequest, tokensPrompt } from '@switchyard/core/testing';

let hasher: PrefixHasher;
beforeAll(() => {
  hasher = createPrefixHasher();
});

describe('token-producer', () => {
  it('estimate backend: pseudo-token bytes and count, no token ids, written synchronously', () => {
    const req = schedulingRequest({ request: { prompt: { kind: 'chat', toolsJson: undefined, messages: [{ role: 'user', content: 'hello' }] } } });
    const r = new TokenProducer('t', undefined, { metrics: createPrefixIndexMetrics({ logger: silentLogger }) }).produce(cycleContext(), req, []);
    // No promise: the scheduler runs the rest of the cycle without a microtask hop.
    expect(r).toBeUndefined();
    expect(req.attributes.get(Attributes.tokens)).toBeUndefined();
    expect(req.attributes.get(Attributes.promptTokenCount)).toBe(3);
    expect(req.attributes.get(PrefixAttributes.promptBytes)?.estimated).toBe(true);
  });

  it('passes token-id prompts through and uses a tokenizer when configured', async () => {
    const m = createPrefixIndexMetrics({ logger: silentLogger });
    const ids = schedulingRequest({ request: { prompt: tokensPrompt([1, 2, 3]) } });
    await new TokenProducer('t', undefined, { metrics: m }).produce(cycleContext(), ids, []);
    expect(ids.attributes.get(Attributes.tokens)).toEqual([[1, 2, 3]]);
    expect(ids.attributes.get(PrefixAttributes.promptBytes)?.prompts[0]?.byteLength).toBe(12);

    const text = schedulingRequest({ request: { prompt: { kind: 'text', texts: ['abc'] } } });
    await new TokenProducer('t', functionTokenizer(() => [[7, 8]]), { metrics: m }).produce(cycleContext(), text, []);
    expect(text.attributes.get(Attributes.tokens)).toEqual([[7, 8]]);
    expect(text.attributes.get(Attributes.promptTokenCount)).toBe(2);
    expect(text.attributes.get(PrefixAttributes.promptBytes)?.estimated).toBe(false);
  });

  it('falls back to the estimate when the tokenizer fails, counting the error', async () => {
    const m = createPrefixIndexMetrics({ logger: silentLogger });
    const req = schedulingRequest({ request: { prompt: { kind: 'text', texts: ['abcdefgh'] } } });
    const failing = functionTokenizer(() => {
      throw new Error('down');
    });
    await new TokenProducer('t', failing, { metrics: m }).produce(cycleContext(), req, []);
    expect(req.attributes.get(Attributes.promptTokenCount)).toBe(2);
    expect(req.attributes.get(Attributes.tokens)).toBeUndefined();
    const errors = await m.errors.get();
    expect(errors.values.find((v) => v.labels['cause'] === 'tokenizer')?.value).toBe(1);
  });
});

describe('approximate producer (llm-d case 8)', () => {
  it('learns from primary and prefill picks and matches per candidate', () => {
    const pool = poolOf(['pod1', 'pod2', 'pod3']);
    const [pod1, , pod3] = pool.list() as [Endpoint, Endpoint, Endpoint];
    const p = new ApproximatePrefixProducer({ hasher, pool, blockSizeTokens: 1, autoTune: false, minBlockSizeTokens: 1 });
    const first = schedulingRequest({ request: { prompt: tokensPrompt([1, 2]) } });
    p.produce(cycleContext(), first, pool.list());
    expect(first.attributes.get(Attributes.prefixMatch)?.get('pod1')).toEqual({ matchBlocks: 0, totalBlocks: 2, blockSizeTokens: 1, cachedBlocks: 0 });
    p.preRequest(cycleContext(), first, resultOf(pod1, { prefill: pod3 }));
    const second = schedulingRequest({ request: { prompt: tokensPrompt([1, 3]) } });
    p.produce(cycleContext(), second, pool.list());
    const info = second.attributes.get(Attributes.prefixMatch);
    expect(info?.get('pod1')).toMatchObject({ matchBlocks: 1, totalBlocks: 2 });
    expect(info?.get('pod3')).toMatchObject({ matchBlocks: 1, totalBlocks: 2 });
    expect(info?.get('pod2')).toMatchObject({ matchBlocks: 0, totalBlocks: 2 });
    expect(second.attributes.get(Attributes.prefixMatch)).toBe(second.attributes.get({ name: 'prefix-match-info/approx-prefix-cache-producer' }));
  });

  it('caps hashed blocks at maxPrefixTokensToMatch / bs', () => {
    const p = new ApproximatePrefixProducer({ hasher, blockSizeTokens: 1, autoTune: false, minBlockSizeTokens: 1, maxPrefixTokensToMatch: 2 });
    const req = schedulingRequest({ request: { prompt: tokensPrompt([1, 2, 3, 4, 5]) } });
    p.produce(cycleContext(), req, poolOf(['a']).list());
    expect(req.attributes.get(Attributes.prefixMatch)?.get('a')?.totalBlocks).toBe(2);
  });

  it('auto-tunes the block size (16 → 64, 128 → 128) and sizes LRUs from the engine', () => {
    const pool = poolOf(['a']);
    const p = new ApproximatePrefixProducer({ hasher, pool });
    const text = schedulingRequest({ request: { prompt: { kind: 'text', texts: ['x'.repeat(4 * 1024)] } } });
    pool.setMetrics('a', metrics({ cacheBlockSize: 16, cacheNumBlocks: 40 }));
    p.produce(cycleContext(), text, pool.list());
    expect(text.attributes.get(Attributes.prefixMatch)?.get('a')).toMatchObject({ blockSizeTokens: 64, totalBlocks: 16 });
    p.preRequest(cycleContext(), text, resultOf(pool.list()[0]!));
    // 40 engine blocks × 16 tokens = 640 tokens = 10 blocks of 64.
    expect(p.index.size).toBe(10);
    pool.setMetrics('a', metrics({ cacheBlockSize: 128, cacheNumBlocks: 40 }));
    p.produce(cycleContext(), text, pool.list());
    expect(text.attributes.get(Attributes.prefixMatch)?.get('a')).toMatchObject({ blockSizeTokens: 128, totalBlocks: 8 });
  });

  it('purges endpoints that leave the pool', () => {
    const pool = poolOf(['a', 'b']);
    const p = new ApproximatePrefixProducer({ hasher, pool });
    const req = schedulingRequest({ request: { prompt: { kind: 'text', texts: ['y'.repeat(1000)] } } });
    p.produce(cycleContext(), req, pool.list());
    p.preRequest(cycleContext(), req, resultOf(pool.list()[0]!, { prefill: pool.list()[1] }));
    expect(p.index.stats().endpoints).toBe(2);
    pool.remove('a');
    expect(p.index.stats().endpoints).toBe(1);
  });
});

describe('precise producer', () => {
  it('matches real token ids against pushed KV events, tier-weighted', async () => {
    const pool = poolOf(['a', 'b']);
    const m = createPrefixIndexMetrics({ logger: silentLogger });
    const p = new PrecisePrefixProducer({ hasher, pool, blockSizeTokens: 4, modelName: 'm', metrics: m, subscribe: false });
    const engine = new FakeEngine(4);
    const tokens = seq(20);
    p.index.ingest('a', { ts: 0, events: [engine.stored(tokens, 0, 5)] });
    p.index.ingest('b', { ts: 0, events: [engine.stored(tokens, 0, 3, { medium: 'cpu' })] });
    p.index.ingest('ghost', { ts: 0, events: [engine.stored(tokens, 0, 3)] });
    const req = schedulingRequest({ request: { model: 'm', prompt: tokensPrompt(tokens) } });
    p.produce(cycleContext(), req, pool.list());
    const info = req.attributes.get(Attributes.prefixMatch);
    expect(info?.get('a')).toEqual({ matchBlocks: 5, totalBlocks: 5, blockSizeTokens: 4, cachedBlocks: 5 });
    // 3 blocks × 0.8 = 2.4 → truncated to 2; the unweighted count stays 3.
    expect(info?.get('b')).toEqual({ matchBlocks: 2, totalBlocks: 5, blockSizeTokens: 4, cachedBlocks: 3 });
    const errors = await m.errors.get();
    expect(errors.values.find((v) => v.labels['cause'] === 'unknown-endpoint')?.value).toBe(1);
    await p.close();
  });

  it('times each lookup in llm_d_epp_kv_cache_index_lookup_latency_seconds (and its kvcache_* twin) on its clock', async () => {
    const pool = poolOf(['a']);
    const m = createPrefixIndexMetrics({ logger: silentLogger });
    // Every reading is 3 ms after the previous one, so one lookup measures exactly 3 ms.
    let t = 0;
    const clock = { now: () => (t += 3), setTimeout: systemClock.setTimeout, clearTimeout: systemClock.clearTimeout };
    const index = new PreciseKvIndex({ hasher, blockSizeTokens: 4, modelName: 'm' });
    const p = new PrecisePrefixProducer({ hasher, pool, index, clock, metrics: m, subscribe: false });
    for (let i = 0; i < 2; i++) p.produce(cycleContext(), schedulingRequest({ request: { model: 'm', prompt: tokensPrompt(seq(8)) } }), pool.list());
    const values = (await m.kvIndexLookupLatency.get()).values;
    const of = (suffix: string, le?: string) => values.find((v) => v.metricName === `llm_d_epp_kv_cache_index_lookup_latency_seconds${suffix}` && (le === undefined || String(v.labels['le']) === le))?.value;
    expect(of('_count')).toBe(2);
    expect(of('_sum')).toBeCloseTo(0.006, 12);
    expect(of('_bucket', '0.005')).toBe(2);
    const twin = await m.registry.getSingleMetric('kvcache_index_lookup_latency_seconds')?.get();
    expect((twin?.values as { metricName?: string; value: number }[] | undefined)?.find((v) => v.metricName === 'kvcache_index_lookup_latency_seconds_count')?.value).toBe(2);
    await p.close();
  });

  it('publishes nothing without real token ids and says why', async () => {
    const m = createPrefixIndexMetrics({ logger: silentLogger });
    const p = new PrecisePrefixProducer({ hasher, metrics: m, subscribe: false });
    const req = schedulingRequest({ request: { prompt: { kind: 'text', texts: ['hello'] } } });
    p.produce(cycleContext(), req, poolOf(['a']).list());
    expect(req.attributes.get(Attributes.prefixMatch)).toBeUndefined();
    expect((await m.errors.get()).values.find((v) => v.labels['cause'] === 'no-token-ids')?.value).toBe(1);
  });

  it('indexes speculatively after the pick when enabled', () => {
    const pool = poolOf(['a', 'b']);
    const p = new PrecisePrefixProducer({ hasher, pool, blockSizeTokens: 4, speculativeIndexing: true, subscribe: false });
    const req = schedulingRequest({ request: { prompt: tokensPrompt(seq(8)) } });
    p.produce(cycleContext(), req, pool.list());
    p.preRequest(cycleContext(), req, resultOf(pool.list()[1]!));
    const again = schedulingRequest({ request: { prompt: tokensPrompt(seq(8)) } });
    p.produce(cycleContext(), again, pool.list());
    expect(again.attributes.get(Attributes.prefixMatch)?.get('b')?.cachedBlocks).toBe(2);
  });

  it('counts a subscriber that cannot start instead of crashing', async () => {
    const m = createPrefixIndexMetrics({ logger: silentLogger });
    const throwing = function (): never {
      throw new Error('no zmq here');
    };
    const broken = { Subscriber: throwing, Dealer: throwing } as never;
    const p = new PrecisePrefixProducer({ hasher, pool: poolOf(['a']), subscribe: {}, zeromq: broken, metrics: m });
    await expect(p.subscriber).rejects.toThrow('no zmq here');
    expect((await m.errors.get()).values.find((v) => v.labels['cause'] === 'subscriber')?.value).toBe(1);
    await p.close();
  });
});

describe('plugin definitions', () => {
  it('loads the eleven plugin types (two of them multicluster) and the old name of one; both registration paths give the same registry over core defaults', () => {
    const defs = loadPrefixIndexPlugins({ hasher });
    const ours = ['approx-prefix-cache-producer', 'burst-prefix-cache-producer', 'lmetric-scorer', 'multicluster-approx-prefix-cache-producer', 'multicluster-prefix-cache-scorer', 'no-hit-lru-scorer', 'precise-prefix-cache-producer', 'precise-prefix-cache-scorer', 'prefix-cache-affinity-filter', 'prefix-cache-scorer', 'token-producer', 'tokenizer'];
    expect(defs.map((d) => d.type).sort()).toEqual(ours);
    // No clash with core: prefix-based-pd-decider is core's alone.
    const viaRegisterAll = createDefaultRegistry().registerAll(defs);
    const viaHelper = registerPrefixIndexPlugins(createDefaultRegistry(), { hasher });
    expect(viaRegisterAll.types()).toEqual(viaHelper.types());
    expect(viaHelper.get('prefix-based-pd-decider')).toBe(prefixBasedPdDeciderPlugin);
    expect(viaRegisterAll.get('prefix-based-pd-decider')).toBe(prefixBasedPdDeciderPlugin);
    expect(viaHelper.get('prefix-based-pd-decider')?.parameters.parse({ prefixMatchInfoProducerName: 'x' })).toMatchObject({ prefixMatchInfoProducerName: 'x' });
    // A bare registry gets the decider from registerPrefixIndexPlugins, so P/D configs still load.
    const bare = registerPrefixIndexPlugins(new PluginRegistry(), { hasher });
    expect(bare.types()).toEqual([...ours, 'prefix-based-pd-decider'].sort());
  });

  it('legacy prefix-cache-scorer with index parameters carries its own index', async () => {
    const defs = loadPrefixIndexPlugins({ hasher });
    const def = defs.find((d) => d.type === 'prefix-cache-scorer')!;
    const pool = poolOf(['a', 'b']);
    const deps = { clock: cycleContext().clock, pool, lookup: () => undefined };
    const plain = def.create(def.parameters.parse({}), { name: 'plain', ...deps });
    expect('produce' in plain).toBe(false);
    const legacy = def.create(def.parameters.parse({ blockSize: 4, maxPrefixBlocksToMatch: 256, lruCapacityPerServer: 100, autoTune: false }), { name: 'legacy', ...deps }) as Scorer & DataProducer & RequestLifecycle;
    expect(legacy.produces).toContain('prefix-match-info/legacy');
    const req = () => schedulingRequest({ request: { prompt: { kind: 'text', texts: ['z'.repeat(2048)] } } });
    const r1 = req();
    await legacy.produce(cycleContext(), r1, pool.list());
    legacy.preRequest?.(cycleContext(), r1, resultOf(pool.list()[1]!), {});
    const r2 = req();
    await legacy.produce(cycleContext(), r2, pool.list());
    expect(Object.fromEntries(legacy.score(cycleContext(), r2, pool.list()))).toEqual({ a: 0, b: 1 });
  });

  it('rejects a custom token backend without a tokenizer with a config error', () => {
    const defs = loadPrefixIndexPlugins({ hasher });
    const def = defs.find((d) => d.type === 'token-producer')!;
    let err: unknown;
    try {
      def.create(def.parameters.parse({ backend: 'custom' }), { name: 't', clock: cycleContext().clock, pool: poolOf(0), lookup: () => undefined });
    } catch (e) {
      err = e;
    }
    expect(isSwitchyardError(err) && err.code).toBe('CONFIG_INVALID');
  });
});
