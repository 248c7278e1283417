// Child process of run.mjs: one switchyard-epp (llm-d's default profile: queue 2, kv-cache 2,
// prefix-cache 3 on the approximate prefix index; metrics scraped every 50 ms) over the pods given
// in ENDPOINTS. The parent reads this process's CPU, GC, heap and scrape counts over IPC, and can
// take a CPU profile whose samples are attributed to stages by source file (see profile-split.mjs).
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { startEpp } from '@switchyard/envoy';
import { splitProfile } from './profile-split.mjs';

const endpoints = (process.env.ENDPOINTS ?? '').split(',').filter((e) => e !== '');
const epp = await startEpp({
  endpoints,
  host: '127.0.0.1',
  grpcPort: 0,
  transport: process.env.TRANSPORT ?? 'http2',
  metricsPort: false,
  scrapeIntervalMs: process.env.SCRAPE_MS === 'off' ? false : Number(process.env.SCRAPE_MS ?? 50),
  log: () => undefined,
});

if (process.env.VERBOSE) console.error(JSON.stringify({ ...epp.effective, endpoints: epp.effective.endpoints.length }));
let scrapes = 0;
epp.pool.on('metrics', () => { scrapes++; });
const gc = { ms: 0, count: 0, major: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.ms += e.duration;
    gc.count++;
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
  }
}).observe({ entryTypes: ['gc'] });

let session;
const cpuUs = () => { const c = process.cpuUsage(); return c.user + c.system; };
/** Counters now; with `collect`, a full GC runs after they are read and the heap is measured after it (`cpuUsAfter`/`gcMsAfter` start the next window, so the forced GC counts in none). */
async function sample(collect) {
  const before = { cpuUs: cpuUs(), scrapes, decisions: epp.server.stats().decisions, failures: epp.server.stats().failures, gcMs: gc.ms, gcCount: gc.count, gcMajor: gc.major };
  if (collect) {
    global.gc?.();
    // GC entries reach the observer asynchronously.
    await new Promise((r) => setTimeout(r, 20));
  }
  const mem = process.memoryUsage();
  return { ...before, cpuUsAfter: cpuUs(), gcMsAfter: gc.ms, heapUsed: mem.heapUsed, rss: mem.rss, arrayBuffers: mem.arrayBuffers };
}

process.on('message', async (m) => {
  try {
    if (m.cmd === 'sample') {
      process.send({ id: m.id, ...(await sample(m.gc === true)) });
    } else if (m.cmd === 'profile-start') {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      process.send({ id: m.id });
    } else if (m.cmd === 'profile-stop') {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      process.send({ id: m.id, split: splitProfile(profile) });
    } else if (m.cmd === 'close') {
      await epp.close();
      process.send({ id: m.id });
      process.exit(0);
    }
  } catch (error) {
    process.send({ id: m.id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true, port: epp.server.port });
