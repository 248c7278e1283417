/*
 * Memory per (block, endpoint) entry of the approximate index at 1M entries, measured as the
 * growth of heap + external bytes (typed arrays included) after forced GCs; and, for information, the
 * precise index per stored engine block.
 * Run: NODE_OPTIONS=--expose-gc npx vitest bench --run packages/prefix-index/bench/memory.bench.ts
 */
import { bench, describe } from 'vitest';
import { ApproximatePrefixIndex, createPrefixHasher, PreciseKvIndex, type KvEventBatch } from '@switchyard/prefix-index';
import { prng, randomKey, settledBytes } from './stats.js';

const ENTRIES = 1_000_000;

/** Fills an approximate index to 1M entries; each block is held by `holders` endpoints. */
function approximate(holders: number): { index: ApproximatePrefixIndex; bytes: number } {
  const rand = prng(holders);
  const before = settledBytes();
  const index = new ApproximatePrefixIndex({ capacityFor: () => 1 << 30 });
  const chain = new Float64Array(256);
  const keys = { chains: [chain], blockSizeTokens: 64, totalBlocks: 256 };
  for (let e = 0; index.size < ENTRIES; e += holders) {
    for (let k = 0; k < 256; k++) chain[k] = randomKey(rand);
    for (let h = 0; h < holders; h++) index.add(`ns/pod-${(e + h) % 64}-rank-0`, keys);
  }
  return { index, bytes: settledBytes() - before };
}

const distinct = approximate(1);
const d = { entries: distinct.index.size, perEntry: distinct.bytes / distinct.index.size, arrays: distinct.index.byteLength / distinct.index.size };
distinct.index.clear();
const shared = approximate(4);
const s = { entries: shared.index.size, perEntry: shared.bytes / shared.index.size, arrays: shared.index.byteLength / shared.index.size };
shared.index.clear();

// Precise index: 64 endpoints × 15625 engine blocks of 16 tokens (1M blocks), 1:1 with request keys.
const hasher = createPrefixHasher();
const before = settledBytes();
const precise = new PreciseKvIndex({ hasher, blockSizeTokens: 16 });
let next = 1;
for (let e = 0; e < 64; e++) {
  for (let r = 0; r < 15625 / 125; r++) {
    const hashes = Array.from({ length: 125 }, () => next++);
    const tokens = Array.from({ length: 125 * 16 }, (_, i) => (i * 7 + r * 131 + e) % 50000);
    const batch: KvEventBatch = { ts: 0, events: [{ type: 'BlockStored', blockHashes: hashes, parentBlockHash: undefined, tokenIds: tokens, blockSize: 16, medium: 'gpu' }] };
    precise.ingest(`ns/pod-${e}-rank-0`, batch);
  }
}
const p = { entries: precise.size, perEntry: (settledBytes() - before) / precise.size };

console.log(
  `[memory] approximate, distinct blocks: ${d.entries} entries, ${d.perEntry.toFixed(1)} B/entry (typed arrays ${d.arrays.toFixed(1)}) | ` +
    `approximate, 4 holders per block: ${s.entries} entries, ${s.perEntry.toFixed(1)} B/entry (typed arrays ${s.arrays.toFixed(1)}) | ` +
    `precise: ${p.entries} entries, ${p.perEntry.toFixed(1)} B/entry incl. engine-hash records`,
);

describe('memory (see the log line above)', () => {
  bench('approximate index: add a 256-block chain at 1M entries', () => {
    const chain = new Float64Array(256);
    const rand = prng(9);
    for (let k = 0; k < 256; k++) chain[k] = randomKey(rand);
    distinct.index.add('x', { chains: [chain], blockSizeTokens: 64, totalBlocks: 256 });
  });
});
