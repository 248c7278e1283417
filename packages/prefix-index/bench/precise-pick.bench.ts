/*
 * The precise index on a pick: hash an 8K-token prompt (512 blocks of 16 tokens), match it over 8
 * endpoints, and (speculative indexing) record the chosen endpoint's 512 blocks, against an index
 * holding ≈1M (block, endpoint) entries learnt from KV events. Two endpoints hold the request's
 * first 384 blocks (a shared system prompt), so the match walks 385 keys. The clock moves 30 ms
 * per pick with a 2 s speculative TTL, so ≈70 picks' speculations are live and expiring.
 * Run: npx vitest bench --run packages/prefix-index/bench/precise-pick.bench.ts
 */
import { bench, describe } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { createPrefixHasher, PreciseKvIndex, type KvEvent } from '@switchyard/prefix-index';
import { prng, timeMs } from './stats.js';

const ENDPOINTS = 8;
const PROMPTS_PER_ENDPOINT = 256;
const BLOCKS = 512;
const BS = 16;
const EVENT_BLOCKS = 64;
const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';
const rand = prng(5);
const clock = new ManualClock(0);
const index = new PreciseKvIndex({ hasher: createPrefixHasher(), blockSizeTokens: BS, clock, speculativeTtlMs: 2000, modelName: MODEL });
const ids = Array.from({ length: ENDPOINTS }, (_, i) => `ns/pod-${i}-rank-0`);

const randomTokens = (n: number): Uint32Array => {
  const t = new Uint32Array(n);
  for (let i = 0; i < n; i++) t[i] = Math.floor(rand() * 128000);
  return t;
};

let nextHash = 1;
/** Stores `tokens` on `endpoint` as a chain of BlockStored events, as an engine would. */
const store = (endpoint: string, tokens: Uint32Array): void => {
  let parent: number | undefined;
  for (let b = 0; b < tokens.length / BS; b += EVENT_BLOCKS) {
    const n = Math.min(EVENT_BLOCKS, tokens.length / BS - b);
    const blockHashes = Array.from({ length: n }, () => nextHash++);
    const event: KvEvent = { type: 'BlockStored', blockHashes, parentBlockHash: parent, tokenIds: Array.from(tokens.subarray(b * BS, (b + n) * BS)), blockSize: BS, medium: 'gpu' };
    index.ingest(endpoint, { ts: 0, events: [event] });
    parent = blockHashes[n - 1];
  }
};

const hot = randomTokens(384 * BS);
for (const id of ids.slice(0, 2)) store(id, hot);
for (const id of ids) for (let p = 0; p < PROMPTS_PER_ENDPOINT; p++) store(id, randomTokens(BLOCKS * BS));

const prompt = new Uint32Array(BLOCKS * BS);
prompt.set(hot);
prompt.set(randomTokens(128 * BS), 384 * BS);
const keys = index.keysFor([prompt as unknown as number[]], MODEL);

const matchOnly = (): void => {
  index.match(keys, ids);
};
let turn = 0;
const pick = (): void => {
  clock.advance(30);
  const k = index.keysFor([prompt as unknown as number[]], MODEL);
  const m = index.match(k, ids);
  if ((m.byEndpoint.get(ids[0] as string)?.cachedBlocks ?? 0) < 384) throw new Error('the hot prefix must match');
  index.add(ids[2 + (turn++ % (ENDPOINTS - 2))] as string, k);
};
for (let i = 0; i < 100; i++) pick();
const m1 = timeMs(matchOnly, 400);
const m2 = timeMs(pick, 400);
console.log(
  `[precise-pick] ${index.size} entries, ${index.stats().blocks} distinct blocks, ${ENDPOINTS} endpoints, ${keys.totalBlocks} request blocks | ` +
    `match: median ${m1.median.toFixed(3)} ms, min ${m1.min.toFixed(3)} ms | ` +
    `hash + match + speculate (pick): median ${m2.median.toFixed(3)} ms, min ${m2.min.toFixed(3)} ms`,
);

describe('precise index, 8K-token prompt, 8 endpoints, ≈1M entries', () => {
  bench('match (keys precomputed)', matchOnly);
  bench('hash + match + speculative add', pick);
});
