/*
 * pick() latency, allocation and scaling. Run from the repository root:
 *
 *   npx vitest bench --run packages/core/src/picker/pick.bench.ts
 *
 * Besides vitest's table (hz, mean, p99 of batches), a harness at collection time times every
 * single decision with process.hrtime and prints median / p99 per case and an allocation estimate
 * (young-generation growth over scavenge-free batches). Results go to docs/benchmarks/scheduler.md.
 */
import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { bench, describe } from 'vitest';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  EndpointPicker,
  EndpointPool,
  ManualClock,
  createSchedulerConfig,
  estimatedTtftScorerPlugin,
  kvCacheUtilizationScorerPlugin,
  loraAffinityScorerPlugin,
  maxScorePickerPlugin,
  parseRequest,
  queueScorerPlugin,
  SchedulerMetrics,
  type Decision,
  type InferenceRequest,
  type Picker,
  type PluginDefinition,
  type RequestScheduler,
  type Scorer,
} from '@switchyard/core';

/** Bytes in use in V8's young generation; it only grows between scavenges. */
const youngUsed = (): number => getHeapSpaceStatistics().find((x) => x.space_name === 'new_space')?.space_used_size ?? 0;

function makePool(n: number, clock: ManualClock): EndpointPool {
  const pool = new EndpointPool();
  let seed = 42;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < n; i++) {
    const id = `pod-${i}`;
    pool.add({ id, address: `10.${(i >> 8) & 255}.${i & 255}.1:8000` });
    pool.setMetrics(id, {
      waitingQueueSize: Math.floor(rnd() * 8),
      runningRequestsSize: Math.floor(rnd() * 32),
      kvCacheUsagePercent: rnd(),
      activeModels: rnd() < 0.3 ? ['lora-a'] : ['lora-b'],
      waitingModels: [],
      maxActiveModels: 4,
      cacheBlockSize: 16,
      cacheNumBlocks: 10_000,
      updatedAt: clock.now(),
    });
  }
  return pool;
}

const ctxFor = (pool: EndpointPool, clock: ManualClock) => ({ name: '', clock, pool, lookup: () => undefined });
const make = <P>(def: PluginDefinition<P>, pool: EndpointPool, clock: ManualClock, name = def.type, parameters: unknown = {}) =>
  def.create(def.parameters.parse(parameters), { ...ctxFor(pool, clock), name });

/** The `estimated-ttft-scorer` parameters the shipped `switchyard` profile sets (prefix-index's profiles/switchyard.yaml). */
const SWITCHYARD_PROFILE_SCORER = { spreadSteps: 2, loraLoadMs: 200 };

/** The profile: queue 2, kv-cache 2, lora 1, max-score. */
function defaultPicker(n: number, metrics?: SchedulerMetrics): RequestScheduler {
  const clock = new ManualClock();
  const pool = makePool(n, clock);
  const config = createSchedulerConfig({
    profiles: [
      {
        scorers: [
          { scorer: make(queueScorerPlugin, pool, clock) as Scorer, weight: 2 },
          { scorer: make(kvCacheUtilizationScorerPlugin, pool, clock) as Scorer, weight: 2 },
          { scorer: make(loraAffinityScorerPlugin, pool, clock) as Scorer, weight: 1 },
        ],
        picker: make(maxScorePickerPlugin, pool, clock) as Picker,
      },
    ],
    pool,
    clock,
  });
  return new EndpointPicker({ pool, config, clock, random: Math.random, metrics, poolName: metrics === undefined ? undefined : 'bench' });
}

/**
 * The switchyard profile's scoring: `estimated-ttft-scorer` with the profile's parameters, max-score. (Its prefix producer
 * lives in @switchyard/prefix-index and costs what the default profile's does: prefix-index bench.)
 */
function switchyardPicker(n: number): RequestScheduler {
  const clock = new ManualClock();
  const pool = makePool(n, clock);
  const config = createSchedulerConfig({
    profiles: [{ scorers: [{ scorer: make(estimatedTtftScorerPlugin, pool, clock, estimatedTtftScorerPlugin.type, SWITCHYARD_PROFILE_SCORER) as Scorer, weight: 1 }], picker: make(maxScorePickerPlugin, pool, clock) as Picker }],
    pool,
    clock,
  });
  return new EndpointPicker({ pool, config, clock, random: Math.random });
}

/** The same façade with no scorers and a round-robin picker: framework overhead only. */
function roundRobinEndpointPicker(n: number): RequestScheduler {
  const clock = new ManualClock();
  const pool = makePool(n, clock);
  let next = 0;
  const rr: Picker = { type: 'round-robin', name: 'round-robin', pick: (_c, _r, s) => [s[next++ % s.length]!.endpoint], pickFrom: (_c, _r, eps) => [eps[next++ % eps.length]!] };
  return new EndpointPicker({ pool, clock, config: createSchedulerConfig({ profiles: [{ picker: rr }], pool, clock }) });
}

/** A plain round-robin scheduler: the cheapest thing that can answer pick(). */
function plainRoundRobin(n: number): RequestScheduler {
  const pool = makePool(n, new ManualClock());
  const list = pool.list();
  let next = 0;
  const noop = (): void => undefined;
  return {
    pick: (request) => {
      const primary = list[next++ % list.length]!;
      return Promise.resolve({ primary, request, complete: noop } as unknown as Decision);
    },
  };
}

const request: InferenceRequest = parseRequest({
  path: '/v1/chat/completions',
  headers: { 'x-request-id': 'bench' },
  body: JSON.stringify({ model: 'lora-a', messages: [{ role: 'user', content: 'Summarise the plot of Hamlet in two sentences.' }], max_tokens: 128 }),
});

async function one(s: RequestScheduler): Promise<void> {
  const d = await s.pick(request);
  d.complete({ kind: 'success' });
}

interface Stats {
  readonly median: number;
  readonly p99: number;
  readonly min: number;
  readonly bytes: number;
}

async function measure(s: RequestScheduler, samples: number): Promise<Stats> {
  for (let i = 0; i < 5_000; i++) await one(s);
  const t = new Float64Array(samples);
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await one(s);
    t[i] = (performance.now() - t0) * 1000;
  }
  t.sort();
  const at = (q: number): number => t[Math.min(samples - 1, Math.floor(q * samples))]!;
  // Allocation: young-generation growth over small batches; a batch during which a scavenge ran
  // shows a drop and is discarded. Forcing GCs instead would throw away optimised code and count
  // the interpreter's boxed numbers. The reading's own cost is measured and subtracted.
  const probe: number[] = [];
  for (let r = 0; r < 50; r++) {
    const h0 = youngUsed();
    const g = youngUsed() - h0;
    if (g >= 0) probe.push(g);
  }
  probe.sort((a, b) => a - b);
  const overhead = probe[probe.length >> 1] ?? 0;
  const perBatch: number[] = [];
  const batch = 20;
  for (let r = 0; r < 400; r++) {
    const h0 = youngUsed();
    for (let i = 0; i < batch; i++) await one(s);
    const grown = youngUsed() - h0 - overhead;
    if (grown > 0) perBatch.push(grown / batch);
  }
  perBatch.sort((a, b) => a - b);
  return { median: at(0.5), p99: at(0.99), min: t[0]!, bytes: perBatch[Math.floor(perBatch.length / 2)] ?? Number.NaN };
}

const rows: string[] = ['| endpoints | case | median µs | p99 µs | min µs | ≈ bytes allocated / decision | median vs plain RR |', '|---|---|---|---|---|---|---|'];
for (const n of [8, 64, 512]) {
  const samples = n === 512 ? 10_000 : 30_000;
  const base = await measure(plainRoundRobin(n), samples);
  const cases: [string, RequestScheduler][] = [
    ['plain round-robin `RequestScheduler` (baseline)', plainRoundRobin(n)],
    ['EndpointPicker, round-robin picker, no scorers', roundRobinEndpointPicker(n)],
    ['EndpointPicker, queue 2 + kv 2 + lora 1, max-score', defaultPicker(n)],
    ['same, metrics ON (`SchedulerMetrics`, plugin timing every 32nd cycle)', defaultPicker(n, new SchedulerMetrics({ pluginSampleEvery: 32 }))],
    ['EndpointPicker, switchyard profile scoring (estimated-ttft-scorer), max-score', switchyardPicker(n)],
  ];
  for (const [name, s] of cases) {
    const r = name.startsWith('plain') ? base : await measure(s, samples);
    rows.push(`| ${n} | ${name} | ${r.median.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.min.toFixed(2)} | ${Math.round(r.bytes)} | ${(r.median / base.median).toFixed(1)}× |`);
  }
}
console.log(rows.join('\n'));

/*
 * The recording mechanism alone, in the same run: what one request records (request total,
 * running inc + dec, duration, input and output tokens, all with the 4 request labels) through
 * prom-client's bound children versus SchedulerMetrics' series.
 */
const promRegistry = new Registry();
const requestLabels = ['model_name', 'target_model_name', 'fairness_id', 'priority'];
const promTotal = new Counter({ name: 'p_total', help: 'p.', labelNames: requestLabels, registers: [promRegistry] });
const promRunning = new Gauge({ name: 'p_running', help: 'p.', labelNames: requestLabels, registers: [promRegistry] });
const promDuration = new Histogram({ name: 'p_duration', help: 'p.', labelNames: requestLabels, buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600], registers: [promRegistry] });
const promIn = new Histogram({ name: 'p_in', help: 'p.', labelNames: requestLabels, buckets: [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384], registers: [promRegistry] });
const promOut = new Histogram({ name: 'p_out', help: 'p.', labelNames: requestLabels, buckets: [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384], registers: [promRegistry] });
const labelValues = ['lora-a', 'lora-a', 'tenant-1', '0'] as const;
const bound = { total: promTotal.labels(...labelValues), running: promRunning.labels(...labelValues), duration: promDuration.labels(...labelValues), input: promIn.labels(...labelValues), output: promOut.labels(...labelValues) };
const fastMetrics = new SchedulerMetrics();
const recordProm = (): void => {
  bound.total.inc();
  bound.running.inc();
  bound.running.dec();
  bound.duration.observe(0.42);
  bound.input.observe(300);
  bound.output.observe(120);
};
const recordFast = (): void => {
  const s = fastMetrics.requestSeries(labelValues[0], labelValues[1], labelValues[2], labelValues[3]);
  s.total.inc();
  s.running.inc();
  s.running.dec();
  s.duration.observe(0.42);
  s.inputTokens.observe(300);
  s.outputTokens.observe(120);
};
describe('one request\'s metric recordings (4 labels)', () => {
  bench('prom-client bound children', recordProm, { time: 500 });
  bench('SchedulerMetrics series', recordFast, { time: 500 });
});

const s64 = defaultPicker(64);
const s64m = defaultPicker(64, new SchedulerMetrics({ pluginSampleEvery: 32 }));
const rr64 = plainRoundRobin(64);
describe('pick() over 64 endpoints', () => {
  bench('plain round-robin RequestScheduler', async () => {
    await one(rr64);
  }, { time: 1000 });
  bench('EndpointPicker: queue 2 + kv 2 + lora 1, max-score', async () => {
    await one(s64);
  }, { time: 1000 });
  bench('same, metrics ON', async () => {
    await one(s64m);
  }, { time: 1000 });
});
