/*
 * Precise index ingestion throughput from decoded KV-event batches (and, for information, from
 * msgpack bytes, decoding included). 16 endpoints; per endpoint 256 prompts of 32 blocks × 16
 * tokens, stored 8 blocks per BlockStored (chained through parents), then the older half removed.
 * Run: npx vitest bench --run packages/prefix-index/bench/ingest.bench.ts
 */
import { bench, describe } from 'vitest';
import { createPrefixHasher, decodeKvEventBatch, encodeVllmEventBatch, PreciseKvIndex, type KvEvent, type KvEventBatch } from '@switchyard/prefix-index';
import { prng } from './stats.js';

const hasher = createPrefixHasher();
const rand = prng(3);
const E = 16;
const batches: { endpoint: string; batch: KvEventBatch }[] = [];
let blocks = 0;
let nextHash = 1;
for (let e = 0; e < 16; e++) {
  const endpoint = `ns/pod-${e}-rank-0`;
  const stored: number[][] = [];
  for (let r = 0; r < 256; r++) {
    const hashes: number[] = [];
    let parent: number | undefined;
    for (let part = 0; part < 4; part++) {
      const h = Array.from({ length: 8 }, () => nextHash++);
      const tokens = Array.from({ length: 8 * E }, () => Math.floor(rand() * 128000));
      const event: KvEvent = { type: 'BlockStored', blockHashes: h, parentBlockHash: parent, tokenIds: tokens, blockSize: E, medium: 'gpu' };
      batches.push({ endpoint, batch: { ts: 0, events: [event] } });
      blocks += h.length;
      parent = h[h.length - 1];
      hashes.push(...h);
    }
    stored.push(hashes);
  }
  for (let r = 0; r < 128; r++) {
    const removed = stored[r] ?? [];
    batches.push({ endpoint, batch: { ts: 0, events: [{ type: 'BlockRemoved', blockHashes: removed, medium: 'gpu' }] } });
    blocks += removed.length;
  }
}
const encoded = batches.map((b) => ({ endpoint: b.endpoint, bytes: encodeVllmEventBatch(b.batch, { encoding: 'map' }) }));

const ingestDecoded = (): PreciseKvIndex => {
  const index = new PreciseKvIndex({ hasher, blockSizeTokens: 16 });
  for (const b of batches) index.ingest(b.endpoint, b.batch);
  return index;
};
const ingestBytes = (): PreciseKvIndex => {
  const index = new PreciseKvIndex({ hasher, blockSizeTokens: 16 });
  for (const b of encoded) {
    const { batch } = decodeKvEventBatch(b.bytes);
    if (batch !== undefined) index.ingest(b.endpoint, batch);
  }
  return index;
};

const rate = (fn: () => PreciseKvIndex, runs: number): { perSecond: number; best: number; entries: number } => {
  fn();
  const rates: number[] = [];
  let entries = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    entries = fn().size;
    rates.push(blocks / ((performance.now() - t0) / 1000));
  }
  rates.sort((a, b) => a - b);
  return { perSecond: rates[Math.floor(runs / 2)] ?? 0, best: rates[runs - 1] ?? 0, entries };
};
const decoded = rate(ingestDecoded, 7);
const fromBytes = rate(ingestBytes, 5);
console.log(
  `[ingest] ${batches.length} batches, ${blocks} blocks named (${blocks - 16 * 128 * 32} stored), ${decoded.entries} entries left | ` +
    `decoded batches: median ${(decoded.perSecond / 1e6).toFixed(2)}, best ${(decoded.best / 1e6).toFixed(2)} M blocks/s | ` +
    `msgpack bytes (decode + ingest): median ${(fromBytes.perSecond / 1e6).toFixed(2)}, best ${(fromBytes.best / 1e6).toFixed(2)} M blocks/s`,
);

describe('precise index ingestion', () => {
  bench('ingest decoded batches', () => {
    ingestDecoded();
  }, { iterations: 5, time: 0 });
  bench('decode msgpack + ingest', () => {
    ingestBytes();
  }, { iterations: 5, time: 0 });
});
