/*
 * Match + score of a 200K-token prompt (800 KB, 64-token blocks, capped at 2048 blocks) over 64
 * endpoints, against an approximate index holding 1M (block, endpoint) entries.
 * Run: npx vitest bench --run packages/prefix-index/bench/match.bench.ts
 */
import { bench, describe } from 'vitest';
import { createSchedulingRequest, EndpointPool, ManualClock, type InferenceRequest } from '@switchyard/core';
import {
  ApproximatePrefixIndex,
  ApproximatePrefixProducer,
  createPrefixCacheScorer,
  createPrefixHasher,
  encodePromptBytes,
  maxBlocksToMatch,
  PrefixAttributes,
  publishMatchInfo,
} from '@switchyard/prefix-index';
import { prng, randomKey, timeMs } from './stats.js';

const ENDPOINTS = 64;
const ENTRIES = 1_000_000;
const hasher = createPrefixHasher();
const rand = prng(2);
const pool = new EndpointPool();
for (let i = 0; i < ENDPOINTS; i++) pool.add({ id: `ns/pod-${i}-rank-0`, address: `10.0.${i >> 8}.${i & 255}:8000` });
const endpoints = pool.list();
const ids = endpoints.map((e) => e.id);

let text = '';
while (text.length < 800 * 1024) text += `token${Math.floor(rand() * 50000)} `;
const prompt = encodePromptBytes({ kind: 'text', texts: [text.slice(0, 800 * 1024)] });
const model = 'meta-llama/Llama-3.1-8B-Instruct';
const bs = 64;
const keys = hasher.hashPrompts(prompt, model, undefined, { blockSizeTokens: bs, maxBlocks: maxBlocksToMatch(131072, 2048, bs) });

// 8 endpoints hold the first 1000 blocks of this prompt (a hot shared prefix); everything else
// is random blocks of other conversations, in 256-block chains, up to 1M entries in total.
const index = new ApproximatePrefixIndex({ capacityFor: () => 31250 });
const hot = { chains: [Array.from(keys.chains[0] as ArrayLike<number>).slice(0, 1000)], blockSizeTokens: bs, totalBlocks: 1000 };
for (let i = 0; i < 8; i++) index.add(ids[i] as string, hot);
const chain = new Float64Array(256);
for (let e = 0; index.size < ENTRIES; e = (e + 1) % ENDPOINTS) {
  const n = Math.min(256, ENTRIES - index.size);
  for (let k = 0; k < n; k++) chain[k] = randomKey(rand);
  index.add(ids[e] as string, { chains: [chain.subarray(0, n)], blockSizeTokens: bs, totalBlocks: n });
}

const scorer = createPrefixCacheScorer('prefix-cache-scorer');
const producer = new ApproximatePrefixProducer({ hasher, index, autoTune: false, blockSizeTokens: bs });
const raw = new Uint8Array(0);
const inference: InferenceRequest = {
  id: 'r',
  path: '/v1/completions',
  api: 'openai-completions',
  headers: {},
  model,
  stream: false,
  maxOutputTokens: undefined,
  prompt: { kind: 'text', texts: [] },
  cacheSalt: undefined,
  byteSize: 0,
  body: undefined,
  rawBody: raw,
};
const request = createSchedulingRequest(inference);
request.attributes.set(PrefixAttributes.promptBytes, { prompts: prompt, estimated: true });
const ctx = { clock: new ManualClock(), random: () => 0.5, trace: undefined };
const out = new Float64Array(ENDPOINTS);

const matchAndScore = (): void => {
  publishMatchInfo(request, 'bench', ids, index.match(keys, ids), bs);
  scorer.scoreInto?.(ctx, request, endpoints, out);
};
const produceAndScore = (): void => {
  producer.produce(ctx, request, endpoints);
  scorer.scoreInto?.(ctx, request, endpoints, out);
};
matchAndScore();
if (out[0] !== 1000 / 2048) throw new Error(`unexpected score ${out[0]}`);
const ms1 = timeMs(matchAndScore, 300);
const ms2 = timeMs(produceAndScore, 200);
console.log(
  `[match] ${index.size} entries, ${index.stats().blocks} distinct blocks, ${ENDPOINTS} endpoints, ${keys.totalBlocks} request blocks | ` +
    `match + match-info + score: median ${ms1.median.toFixed(3)} ms, min ${ms1.min.toFixed(3)} ms | ` +
    `hash + match + score (producer): median ${ms2.median.toFixed(3)} ms, min ${ms2.min.toFixed(3)} ms`,
);

describe('200K-token prompt, 64 endpoints, 1M entries', () => {
  bench('match + match info + score (keys precomputed)', matchAndScore);
  bench('hash + match + score (producer.produce)', produceAndScore);
});
