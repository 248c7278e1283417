// What sharing state across replicas on Redis costs: CPU per request, pick latency and Redis
// commands per request, with sharing on vs off, measured in the same run (rounds interleaved).
//
//   npm run build && node bench/replicas/overhead.mjs [--rounds 6] [--picks 3000] [--sync-ms 200]
//
// Two replicas (two pickers in this process, llm-d's default profile with the prefix index, 8
// endpoints) take turns at a multi-turn chat workload. "on": each has a Redis ReplicaSync (one
// redis-server on loopback, started here) and learns the other's routing history and in-flight
// load; "off": the same pickers without it. The CPU is this process's (both replicas, the Redis
// client, the sync loop); redis-server's own CPU is not included.
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { EndpointPool, createPickerFromConfig, parseRequest } from '@switchyard/core';
import { prefixIndexPack } from '@switchyard/prefix-index';
import { createRedisSharedState, startRedisServer } from '@switchyard/redis';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, picks: { type: 'string' }, 'sync-ms': { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 6);
const PICKS = Number(values.picks ?? 3000);
const SYNC_MS = Number(values['sync-ms'] ?? 200);
const ENDPOINTS = 8;
const CHATS = 64;

function metrics() {
  return { waitingQueueSize: 0, runningRequestsSize: 0, kvCacheUsagePercent: 0.2, activeModels: [], waitingModels: [], maxActiveModels: 0, cacheBlockSize: 16, cacheNumBlocks: 100_000, updatedAt: Date.now() };
}

function replica(sync) {
  const pool = new EndpointPool();
  for (let i = 0; i < ENDPOINTS; i++) {
    pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000` });
    pool.setMetrics(`e${i}`, metrics());
  }
  const shared = sync?.scope('default');
  shared?.attachPool(pool);
  const { picker } = createPickerFromConfig({ pool, packs: [prefixIndexPack()], sharedState: shared });
  return { picker, pool, sync };
}

/** Request bodies of a multi-turn workload: chat c at turn t (≈1–3k tokens). */
function bodies(tag) {
  const out = [];
  for (let t = 0; t < 6; t++) {
    for (let c = 0; c < CHATS; c++) {
      const messages = [{ role: 'system', content: `chat ${tag}-${c}: ${'context '.repeat(600)}` }];
      for (let k = 0; k <= t; k++) messages.push({ role: 'user', content: `turn ${k} ${'question '.repeat(80)}` }, { role: 'assistant', content: `answer ${k} ${'words '.repeat(80)}` });
      out.push(JSON.stringify({ model: 'm', messages }));
    }
  }
  return out;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function round(replicas, requests) {
  const lat = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < PICKS; i++) {
    const r = replicas[i % replicas.length];
    const request = parseRequest({ path: '/v1/chat/completions', headers: {}, body: requests[i % requests.length] });
    const t0 = performance.now();
    const d = await r.picker.pick(request);
    lat.push(performance.now() - t0);
    d.complete({ kind: 'success' });
    // Let timers (the sync loop) and socket I/O run between requests, as a server would.
    if (i % 8 === 7) await new Promise((resolve) => setImmediate(resolve));
  }
  const cpu = process.cpuUsage(cpu0);
  lat.sort((a, b) => a - b);
  return { cpuUsPerRequest: (cpu.user + cpu.system) / PICKS, p50: quantile(lat, 0.5) * 1000, p99: quantile(lat, 0.99) * 1000 };
}

const redis = await startRedisServer();
const syncs = [0, 1].map((i) => createRedisSharedState({ url: redis.url, replicaId: `bench-${i}`, keyPrefix: 'bench:', syncIntervalMs: SYNC_MS }));
const on = syncs.map((s) => replica(s));
const off = [replica(undefined), replica(undefined)];
for (const s of syncs) s.start();
const results = { on: [], off: [] };
let commands0 = 0;
let onPicks = 0;
try {
  // Warm-up of both (JIT, indexes), not counted.
  await round(off, bodies('warm-off'));
  await round(on, bodies('warm-on'));
  commands0 = syncs.reduce((a, s) => a + s.transport.stats().commands, 0);
  const startedAt = performance.now();
  let onMs = 0;
  for (let k = 0; k < ROUNDS; k++) {
    results.off.push(await round(off, bodies(`off-${k}`)));
    const t0 = performance.now();
    results.on.push(await round(on, bodies(`on-${k}`)));
    onMs += performance.now() - t0;
    onPicks += PICKS;
  }
  const commands = syncs.reduce((a, s) => a + s.transport.stats().commands, 0) - commands0;
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const summary = (rs) => ({ cpuUsPerRequest: med(rs.map((r) => r.cpuUsPerRequest)), p50Us: med(rs.map((r) => r.p50)), p99Us: med(rs.map((r) => r.p99)) });
  const a = summary(results.off);
  const b = summary(results.on);
  const wallMs = performance.now() - startedAt;
  console.log(JSON.stringify({ rounds: ROUNDS, picksPerRound: PICKS, syncMs: SYNC_MS, off: a, on: b, cpuRatio: b.cpuUsPerRequest / a.cpuUsPerRequest, p50Ratio: b.p50Us / a.p50Us, p99Ratio: b.p99Us / a.p99Us, redisCommandsPerRequest: commands / onPicks, sharingOnRequestsPerSecond: onPicks / (onMs / 1000), records: syncs.map((s) => s.status()), wallMs: Math.round(wallMs) }, null, 1));
} finally {
  for (const r of [...on, ...off]) await r.picker.close();
  await Promise.all(syncs.map((s) => s.close()));
  await redis.stop();
}
