import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { decodeKvEventBatch } from '@switchyard/prefix-index';
import { EngineModel, encodeKvEventBatch, renderMetrics, toPrefixIndexBatch, tokenizeText, type SimKvEventBatch } from '@switchyard/simulator';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const str = (s: string): string => (0xa0 + s.length).toString(16) + Buffer.from(s).toString('hex');
const unpackr = new Packr({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' });

const sample: SimKvEventBatch = {
  ts: 1.5,
  dataParallelRank: 0,
  events: [
    { type: 'BlockStored', blockHashes: [7], parentBlockHash: null, tokenIds: [1, 2], blockSize: 2, loraName: null, medium: 'GPU' },
    { type: 'BlockRemoved', blockHashes: [7], medium: 'GPU' },
    { type: 'AllBlocksCleared' },
  ],
};

describe('KV event encoding', () => {
  it('writes the legacy array layout byte for byte', () => {
    const expected =
      '93cb3ff8000000000000' + '93' +
      '9a' + str('BlockStored') + '9107' + 'c0' + '920102' + '02' + 'c0' + str('GPU') + 'c0' + 'c0' + '00' +
      '94' + str('BlockRemoved') + '9107' + str('GPU') + '00' +
      '91' + str('AllBlocksCleared') +
      '00';
    expect(hex(encodeKvEventBatch(sample, 'array'))).toBe(expected);
  });

  it('writes map events inside an array batch', () => {
    const bytes = encodeKvEventBatch(sample, 'map');
    expect(hex(bytes).startsWith('93cb3ff8000000000000' + '93' + '89' + str('type') + str('BlockStored') + str('block_hashes') + '9107')).toBe(true);
    const [ts, events, rank] = unpackr.unpack(Buffer.from(bytes)) as [number, Record<string, unknown>[], number];
    expect(ts).toBe(1.5);
    expect(rank).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['BlockStored', 'BlockRemoved', 'AllBlocksCleared']);
    expect(events[0]).toMatchObject({ parent_block_hash: null, token_ids: [1, 2], block_size: 2, medium: 'GPU', lora_name: null });
  });

  it('keeps whole-second timestamps as float64, large hashes as 64-bit integers, and omits a null rank', () => {
    const big = 2 ** 52 + 3;
    const bytes = encodeKvEventBatch({ ts: 12, dataParallelRank: null, events: [{ type: 'BlockRemoved', blockHashes: [big], medium: 'GPU' }] }, 'array');
    expect(hex(bytes).startsWith('92cb4028000000000000')).toBe(true);
    expect(hex(bytes)).toContain('d3' + big.toString(16).padStart(16, '0'));
    const [, events] = unpackr.unpack(Buffer.from(bytes)) as [number, unknown[][]];
    expect(events[0]?.[1]).toEqual([BigInt(big)]);
  });

  it('encodes what a running engine emits', () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny' });
    const batches: SimKvEventBatch[] = [];
    engine.on('kvEvents', (b) => batches.push(b));
    const prompt = tokenizeText('x'.repeat(4 * 40)); // 40 tokens: 2 full blocks
    engine.submit({ id: 'a', promptTokens: prompt, maxOutputTokens: 1 });
    clock.advance(1000);
    const [ts, events] = unpackr.unpack(Buffer.from(encodeKvEventBatch(batches[0]!, 'map'))) as [number, Record<string, unknown>[]];
    expect(ts).toBe(0);
    expect(events[0]).toMatchObject({ type: 'BlockStored', block_size: 16, token_ids: [...prompt.subarray(0, 32)] });
    expect((events[0]?.block_hashes as unknown[]).length).toBe(2);
  });
});

describe('KV event interop with @switchyard/prefix-index', () => {
  it('decodes what the engine encodes, in both encodings, to what the push API receives', () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { numGpuBlocks: 40, loraAdapters: ['ad'], loraLoadMs: 1 } });
    const batches: SimKvEventBatch[] = [];
    engine.on('kvEvents', (b) => batches.push(b));
    for (let i = 0; i < 6; i++) {
      engine.submit({ id: `r${i}`, promptTokens: tokenizeText(`prompt number ${i} `.repeat(40)), maxOutputTokens: 20, adapter: i % 2 === 0 ? undefined : 'ad' });
      clock.advance(500);
    }
    engine.resetPrefixCache();
    const kinds = new Set(batches.flatMap((b) => b.events.map((e) => e.type)));
    expect(kinds).toEqual(new Set(['BlockStored', 'BlockRemoved', 'AllBlocksCleared']));
    for (const batch of batches) {
      for (const encoding of ['map', 'array'] as const) {
        const decoded = decodeKvEventBatch(encodeKvEventBatch(batch, encoding));
        expect(decoded.errors).toEqual([]);
        expect(decoded.batch).toMatchObject(toPrefixIndexBatch(batch));
      }
    }
  });
});

describe('metrics view', () => {
  const busyEngine = (): EngineModel => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { loraAdapters: ['sql'], maxLoras: 2, loraLoadMs: 10 } });
    engine.submit({ id: 'a', promptTokens: tokenizeText('hello '.repeat(100)), maxOutputTokens: 5 });
    engine.submit({ id: 'b', promptTokens: tokenizeText('hello '.repeat(100)), maxOutputTokens: 5, adapter: 'sql' });
    clock.advance(2000);
    engine.submit({ id: 'c', promptTokens: tokenizeText('hello '.repeat(100)), maxOutputTokens: 500 });
    clock.advance(50);
    return engine;
  };

  it('renders vLLM names, labels and semantics', () => {
    const engine = busyEngine();
    const text = renderMetrics(engine, { unixSeconds: 1_700_000_000.5 });
    const l = '{engine="0",model_name="sim-tiny"}';
    expect(text).toContain(`vllm:num_requests_running${l} 1.0`);
    expect(text).toContain(`vllm:num_requests_waiting${l} 0.0`);
    expect(text).toContain(`vllm:kv_cache_usage_perc${l} ${engine.blocks.numUsed / engine.blocks.numBlocks}`);
    expect(text).toContain(`vllm:prefix_cache_queries_total${l} ${engine.stats.prefixCacheQueries}.0`);
    expect(text).toContain(`vllm:prefix_cache_hits_total${l} ${engine.stats.prefixCacheHits}.0`);
    expect(engine.stats.prefixCacheHits).toBeGreaterThan(0);
    expect(text).toMatch(/vllm:cache_config_info\{block_size="16",.*engine="0",.*num_gpu_blocks="2048",.*\} 1\.0/);
    expect(text).toContain('vllm:lora_requests_info{max_lora="2",running_lora_adapters="",waiting_lora_adapters=""} 1700000000.5');
    expect(text).toContain('# TYPE vllm:time_to_first_token_seconds histogram');
    // a, b and c have produced their first token; every later token is an inter-token gap.
    expect(engine.stats.ttft.count).toBe(3);
    expect(text).toContain('vllm:time_to_first_token_seconds_count{engine="0",model_name="sim-tiny"} 3.0');
    expect(text).toMatch(/vllm:time_to_first_token_seconds_bucket\{engine="0",le="\+Inf",model_name="sim-tiny"\} 3\.0/);
    expect(text).toContain(`vllm:inter_token_latency_seconds_count{engine="0",model_name="sim-tiny"} ${engine.stats.generationTokens - 3}.0`);
    expect(text).toContain('vllm:request_success_total{engine="0",finished_reason="length",model_name="sim-tiny"} 2.0');
    // Buckets are cumulative and never decrease.
    const buckets = [...text.matchAll(/^vllm:e2e_request_latency_seconds_bucket\{[^}]*\} (\S+)$/gm)].map((m) => Number(m[1]));
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets.every((v, i) => i === 0 || v >= (buckets[i - 1] ?? 0))).toBe(true);
  });

  it('renders the SGLang flavour', () => {
    const text = renderMetrics(busyEngine(), { flavor: 'sglang' });
    expect(text).toContain('sglang:num_running_reqs{engine_type="unified",model_name="sim-tiny",pp_rank="0",tp_rank="0"} 1.0');
    expect(text).toContain('sglang:num_queue_reqs{');
    expect(text).toContain('sglang:token_usage{');
    expect(text).toMatch(/sglang:cache_config_info\{.*num_pages="2048",page_size="16".*\} 1\.0/);
    expect(text).not.toContain('vllm:');
  });
});
