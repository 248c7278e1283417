/*
 * pick() with llm-d's default profile at fleet scale: the config document with nothing but its
 * header (queue-scorer 2, kv-cache-utilization-scorer 2, prefix-cache-scorer 3, max-score picker,
 * the approximate prefix index), over 64 and 1,000 endpoints. Each decision hashes a chat
 * prompt (~2 KB: a shared system prompt and a per-request question), matches it against the index,
 * scores every endpoint and records the choice in the index, as the EPP does. The index is warmed
 * with 4,000 earlier decisions first, so the system prompt's blocks are held by many endpoints.
 *
 * Also measures memory per endpoint (heap + external after forced GCs): the endpoint state (pool
 * entry with metrics) and the prefix index's share once every endpoint holds a few prompts.
 *
 * Run: NODE_OPTIONS=--expose-gc npx vitest bench --run packages/prefix-index/bench/default-profile-pick.bench.ts
 */
import { bench, describe } from 'vitest';
import { EndpointPool, ManualClock, createPickerFromConfig, parseRequest, seededRandom, type InferenceRequest } from '@switchyard/core';
import { ApproximatePrefixIndex, DEFAULT_LRU_CAPACITY_PER_ENDPOINT, createPrefixHasher, encodePromptBytes, prefixIndexPack, type BlockKeys } from '@switchyard/prefix-index';
import { settledBytes } from './stats.js';

const HEADER = { apiVersion: 'inference.networking.x-k8s.io/v1alpha1', kind: 'EndpointPickerConfig' };
const SYSTEM = 'You are a careful assistant for the operations team. '.repeat(24);

function fillPool(pool: EndpointPool, n: number, clock: ManualClock): void {
  const rand = seededRandom(42);
  for (let i = 0; i < n; i++) {
    const id = `pod-${i}`;
    pool.add({ id, address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:8000` });
    pool.setMetrics(id, {
      waitingQueueSize: Math.floor(rand() * 8),
      runningRequestsSize: Math.floor(rand() * 32),
      kvCacheUsagePercent: rand(),
      activeModels: [],
      waitingModels: [],
      maxActiveModels: 4,
      cacheBlockSize: 16,
      cacheNumBlocks: 10_000,
      updatedAt: clock.now(),
    });
  }
}

const requests: InferenceRequest[] = Array.from({ length: 256 }, (_, i) =>
  parseRequest({
    path: '/v1/chat/completions',
    headers: { 'x-request-id': `bench-${i}` },
    body: JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: `Question ${i}: summarise incident ${i * 7919} in two sentences.` }], max_tokens: 128 }),
  }),
);

interface Setup {
  readonly one: () => Promise<void>;
  readonly close: () => Promise<void>;
}

function setup(n: number): Setup {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  fillPool(pool, n, clock);
  const { picker } = createPickerFromConfig({ config: HEADER, pool, clock, random: seededRandom(7), packs: [prefixIndexPack()] });
  let turn = 0;
  return {
    one: async () => {
      // The clock stands still: the metrics stay fresh, as a 50 ms scrape keeps them.
      const d = await picker.pick(requests[turn++ & 255] as InferenceRequest);
      d.complete({ kind: 'success' });
    },
    close: () => picker.close(),
  };
}

async function medianMicros(s: Setup, samples: number): Promise<{ median: number; p99: number }> {
  for (let i = 0; i < 4_000; i++) await s.one();
  const t = new Float64Array(samples);
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await s.one();
    t[i] = (performance.now() - t0) * 1000;
  }
  t.sort();
  return { median: t[samples >> 1] as number, p99: t[Math.floor(samples * 0.99)] as number };
}

const rows = ['| endpoints | median µs | p99 µs |', '|---:|---:|---:|'];
const live: Setup[] = [];
for (const n of [64, 1_000]) {
  const s = setup(n);
  live.push(s);
  const r = await medianMicros(s, 10_000);
  rows.push(`| ${n} | ${r.median.toFixed(1)} | ${r.p99.toFixed(1)} |`);
}
console.log(`[default-profile-pick] llm-d default profile (queue 2, kv-cache 2, prefix-cache 3, max-score, approximate index)\n${rows.join('\n')}`);

/*
 * Memory per endpoint. Endpoint state: a pool of N endpoints with metrics. Prefix index: an
 * approximate index (the default profile's) after 4 prompts per endpoint, hashed as the producer
 * hashes them (64-token blocks, the auto-tuned size for 16-token engine blocks), each prompt the
 * shared system prompt plus its own question: the system prompt's blocks are held by every
 * endpoint. Heap + external bytes after forced GCs, divided by N.
 */
const hasGc = typeof (globalThis as { gc?: unknown }).gc === 'function';
if (hasGc) {
  const hasher = createPrefixHasher();
  const keys = requests.map((r) => hasher.hashPrompts(encodePromptBytes(r.prompt), r.model, undefined, { blockSizeTokens: 64 }));
  const mem = ['| endpoints | endpoint state B/endpoint | prefix index B/endpoint (4 prompts each) | index entries/endpoint |', '|---:|---:|---:|---:|'];
  for (const n of [100, 1_000, 10_000]) {
    const clock = new ManualClock();
    const b0 = settledBytes();
    const pool = new EndpointPool();
    fillPool(pool, n, clock);
    const b1 = settledBytes();
    const index = new ApproximatePrefixIndex({ capacityFor: () => DEFAULT_LRU_CAPACITY_PER_ENDPOINT });
    for (let e = 0; e < n; e++) for (let k = 0; k < 4; k++) index.add(`pod-${e}`, keys[(e * 4 + k) & 255] as BlockKeys);
    const b2 = settledBytes();
    mem.push(`| ${n} | ${((b1 - b0) / n).toFixed(0)} | ${((b2 - b1) / n).toFixed(0)} | ${(index.size / n).toFixed(1)} |`);
    index.clear();
    if (pool.list().length !== n) throw new Error("the pool must stay alive until after the reading");
  }
  console.log(`[default-profile-pick] memory (heap + external after GC)\n${mem.join('\n')}`);
} else {
  console.log('[default-profile-pick] memory not measured: run with NODE_OPTIONS=--expose-gc');
}

const [s64, s1000] = live;
describe('pick(), llm-d default profile', () => {
  bench('64 endpoints', async () => {
    await s64?.one();
  }, { time: 1000 });
  bench('1,000 endpoints', async () => {
    await s1000?.one();
  }, { time: 1000 });
});
