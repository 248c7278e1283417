// The EPP at fleet scale, end to end, on this machine:
//   npm run build && node bench/epp-scale/run.mjs [--pods 100] [--streams 16] [--load-ms 10000] [--json out.json]
//     [--transports http2,grpc-js]   (each transport measured in turn against the same fleet; ratios printed)
//     [--workers 1,2]   (EPP worker processes behind one port, node:cluster; each count measured in turn
//                        against the same fleet, the load spread over as many connections as workers × 2;
//                        the per-core ratio against the first count printed)
// Three processes: 100 simulated vLLM pods (the simulator's live fleet, serving a full vLLM-sized
// /metrics page), one switchyard-epp (llm-d default profile with the approximate prefix index,
// 50 ms scrapes) and an independent ext_proc load generator (≈400 KB chat bodies, 16 concurrent
// streams on one HTTP/2 connection). Only the EPP process's CPU is counted (process.cpuUsage), so
// the figures hold on a machine shared with other work; wall-clock rates and latencies do not.
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, dflt) => { const i = args.indexOf(`--${name}`); return i === -1 ? dflt : args[i + 1]; };
const PODS = Number(flag('pods', 100));
const STREAMS = Number(flag('streams', 16));
const IDLE_MS = Number(flag('idle-ms', 8000));
const WARM_MS = Number(flag('warm-ms', 3000));
const LOAD_MS = Number(flag('load-ms', 10000));
const PROFILE_MS = Number(flag('profile-ms', 5000));
const BODY_BYTES = Number(flag('body-bytes', 400000));
const JSON_OUT = flag('json', undefined);
const EXPOSITION = flag('exposition', 'full');
const SCRAPE_MS = Number(flag('scrape-ms', 50));
const TRANSPORTS = String(flag('transports', flag('transport', 'http2'))).split(',').filter((t) => t !== '');
const WORKERS = String(flag('workers', '1')).split(',').filter((w) => w !== '').map(Number);
for (const w of WORKERS) if (!Number.isInteger(w) || w < 1) throw new Error(`--workers: each count must be a positive integer, got ${w}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const children = [];
function start(file, env, execArgv = []) {
  const child = fork(join(here, file), [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  let seq = 0;
  const pending = new Map();
  const ready = new Promise((resolve, reject) => {
    child.on('message', (m) => {
      if (m.ready) resolve(m);
      const p = pending.get(m.id);
      if (p !== undefined) { pending.delete(m.id); if (m.error) p.reject(new Error(m.error)); else p.resolve(m); }
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  const call = (cmd, extra = {}) => new Promise((resolve, reject) => { const id = ++seq; pending.set(id, { resolve, reject }); child.send({ cmd, id, ...extra }); });
  return { child, ready, call };
}
/** Asks a child to close and waits (bounded) for it to exit. */
function closeChild(c) {
  if (c.child.exitCode !== null) return Promise.resolve();
  const exited = new Promise((r) => c.child.once('exit', r));
  c.child.send({ cmd: 'close', id: 0 });
  return Promise.race([exited, sleep(5000)]);
}
function stopAll() { for (const c of children) if (c.exitCode === null) c.kill('SIGKILL'); }
process.on('exit', stopAll);

const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

try {
  const load0 = loadavg()[0];
  const fleet = start('fleet.mjs', { PODS: String(PODS), EXPOSITION });
  const { endpoints } = await fleet.ready;
  const page = await (await fetch(`http://${endpoints[0]}/metrics`)).text();
  /** One EPP with `transport` and its own load generator against the shared fleet. */
  async function measure(transport, workers) {
    const eppEnv = { ENDPOINTS: endpoints.join(','), SCRAPE_MS: String(SCRAPE_MS), TRANSPORT: transport, WORKERS: String(workers) };
    const epp = start(workers > 1 ? 'epp-cluster.mjs' : 'epp.mjs', eppEnv, ['--expose-gc', '--enable-source-maps']);
    const { port } = await epp.ready;
    // One connection as before with one worker; with several, two per worker (the cluster balances connections).
    const gen = start('loadgen.mjs', { EPP_PORT: String(port), STREAMS: String(STREAMS), BODY_BYTES: String(BODY_BYTES), CONNECTIONS: String(workers > 1 ? workers * 2 : 1) });
    const { bodyBytes } = await gen.ready;
    await sleep(2000); // first scrapes, JIT warm-up of the scrape path

    // 1. Scraping alone: no requests.
    const i0 = await epp.call('sample', { gc: true });
    const t0 = performance.now();
    await sleep(IDLE_MS);
    const i1 = await epp.call('sample', { gc: true });
    const idleWall = (performance.now() - t0) / 1000;
    const scrapeCores = (i1.cpuUs - i0.cpuUsAfter) / 1e6 / idleWall;
    const scrapesPerS = (i1.scrapes - i0.scrapes) / idleWall;

    // 2. Load: a warm-up run, then the measured run.
    await gen.call('run', { durationMs: WARM_MS });
    const l0 = await epp.call('sample');
    const w0 = performance.now();
    const run = await gen.call('run', { durationMs: LOAD_MS });
    const l1 = await epp.call('sample');
    const loadWall = (performance.now() - w0) / 1000;
    const decisions = l1.decisions - l0.decisions;
    const cpuS = (l1.cpuUs - l0.cpuUs) / 1e6;
    const lat = run.lat.sort((a, b) => a - b);
    const cpuPerDecisionMs = (cpuS * 1000) / decisions;
    const scrapeMsPerDecision = (scrapeCores * loadWall * 1000) / decisions;
    const gcMsPerDecision = (l1.gcMs - l0.gcMs) / decisions;
    // Per-unit costs, which do not depend on how much of the machine the EPP got: CPU per scrape
    // (idle run) and CPU per decision net of the scrapes that ran meanwhile. From them, what one
    // fully busy core would do while scraping every pod every interval (the all-in figure a quiet
    // machine would show).
    const cpuPerScrapeUs = ((i1.cpuUs - i0.cpuUsAfter) / (i1.scrapes - i0.scrapes));
    const netCpuPerDecisionMs = ((l1.cpuUs - l0.cpuUs) - (l1.scrapes - l0.scrapes) * cpuPerScrapeUs) / 1000 / decisions;
    const scrapesWantedPerS = PODS * (1000 / SCRAPE_MS);
    const modelledDecisionsPerCpuS = Math.max(0, 1 - (scrapesWantedPerS * cpuPerScrapeUs) / 1e6) / (netCpuPerDecisionMs / 1000);

    // 3. The same load under the sampling profiler, for the split by stage.
    await epp.call('profile-start');
    await gen.call('run', { durationMs: PROFILE_MS });
    const { split } = await epp.call('profile-stop');
    const after = await epp.call('sample', { gc: true });
    const load1 = loadavg()[0];

    const result = {
      transport, workers, pods: PODS, streams: STREAMS, bodyBytes, metricsPageBytes: page.length, metricsPageLines: page.split('\n').length,
      loadAverage: [load0, load1],
      scraping: { cores: scrapeCores, scrapesPerS, heapBeforeMB: i0.heapUsed / 1e6, heapAfterMB: i1.heapUsed / 1e6, heapGrowthKB: (i1.heapUsed - i0.heapUsed) / 1e3, gcMsPerS: (i1.gcMs - i0.gcMsAfter) / idleWall },
      perUnit: { cpuPerScrapeUs, netCpuPerDecisionMs, scrapesWantedPerS, scrapingCoresAtFullRate: (scrapesWantedPerS * cpuPerScrapeUs) / 1e6, modelledDecisionsPerCpuS },
      load: { decisions, errors: run.errors, failures: l1.failures - l0.failures, wallS: loadWall, decisionsPerS: decisions / loadWall, eppCpuS: cpuS, eppCores: cpuS / loadWall, decisionsPerCpuS: decisions / cpuS, cpuPerDecisionMs, scrapeMsPerDecision, gcMsPerDecision, p50: q(lat, 0.5), p99: q(lat, 0.99), mbPerS: run.bytes / 1e6 / loadWall },
      split: { sampledMs: split.totalMs, top: split.top, perDecisionMs: Object.fromEntries(Object.entries(split.shares).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v * cpuPerDecisionMs])), shares: split.shares },
      heapAfterLoadMB: after.heapUsed / 1e6, rssAfterLoadMB: after.rss / 1e6,
    };
    const L = result.load;
    console.log(`\nEPP at fleet scale, ${transport} transport, ${workers} worker(s): ${PODS} pods (/metrics ${result.metricsPageBytes} B, ${result.metricsPageLines} lines), ${STREAMS} streams, ${bodyBytes} B bodies; load average ${f(load0, 1)} → ${f(load1, 1)}\n`);
    console.log('| figure | value |\n|---|---:|');
    console.log(`| decisions per EPP CPU-second, all-in, as measured | ${f(L.decisionsPerCpuS, 0)} |`);
    console.log(`| EPP CPU per scrape (idle run) | ${f(cpuPerScrapeUs, 1)} µs → ${f(result.perUnit.scrapingCoresAtFullRate, 3)} cores at ${scrapesWantedPerS} scrapes/s |`);
    console.log(`| EPP CPU per decision, net of scrapes | ${f(netCpuPerDecisionMs, 3)} ms |`);
    console.log(`| decisions per CPU-second, all-in, one busy core scraping at the full rate (model) | ${f(modelledDecisionsPerCpuS, 0)} |`);
    console.log(`| EPP CPU per decision, all-in | ${f(L.cpuPerDecisionMs, 3)} ms |`);
    console.log(`| decisions/s (wall clock, ${f(L.wallS, 1)} s) | ${f(L.decisionsPerS, 0)} (${f(L.mbPerS, 1)} MB/s of prompt) |`);
    console.log(`| EPP cores busy under load | ${f(L.eppCores, 2)} |`);
    console.log(`| latency p50 / p99 (headers sent → last body chunk back) | ${f(L.p50, 1)} / ${f(L.p99, 1)} ms |`);
    console.log(`| failed requests | ${L.errors} (stream failures ${L.failures}) |`);
    console.log(`| scraping alone (no requests) | ${f(scrapeCores, 3)} cores, ${f(scrapesPerS, 0)} scrapes/s, GC ${f(result.scraping.gcMsPerS, 1)} ms/s |`);
    console.log(`| heap after GC, before / after ${f(idleWall, 0)} s of scraping | ${f(result.scraping.heapBeforeMB, 2)} / ${f(result.scraping.heapAfterMB, 2)} MB |`);
    console.log(`| GC per decision (perf_hooks) | ${f(gcMsPerDecision, 3)} ms |`);
    console.log(`| heap / RSS after the load | ${f(result.heapAfterLoadMB, 1)} / ${f(result.rssAfterLoadMB, 1)} MB |`);
    console.log(`\nCPU per decision by stage (profile of ${f(split.totalMs / 1000, 1)} s of busy time, shares × the all-in figure):\n`);
    console.log('| stage | ms per decision | share |\n|---|---:|---:|');
    for (const [k, v] of Object.entries(result.split.perDecisionMs)) console.log(`| ${k} | ${f(v, 3)} | ${f(100 * split.shares[k], 1)} % |`);
    console.log(`| (scraping, from the idle run: ${f(scrapeCores, 3)} cores × wall time / decisions) | ${f(scrapeMsPerDecision, 3)} | |`);
    console.log('\nTop functions by self time (share of busy time):\n');
    for (const [k, v] of split.top) console.log(`- ${f(100 * v, 1)} % ${k}`);
    await closeChild(gen);
    await closeChild(epp);
    return result;
  }
  const results = [];
  for (const transport of TRANSPORTS) for (const workers of WORKERS) results.push(await measure(transport, workers));
  if (WORKERS.length > 1) {
    // Same fleet, same load, one count after the other. Per added core: decisions/s with n workers ÷
    // (n ÷ first count × decisions/s with the first count); 1.00 is linear. Meaningful only where the
    // machine has the cores free (the load average says whether it had).
    for (const transport of TRANSPORTS) {
      const rs = results.filter((r) => r.transport === transport);
      const [a] = rs;
      console.log(`\nWorkers, ${transport}, same run (load average at the start ${f(load0, 1)}; ${cpus().length} CPUs):\n`);
      console.log('| workers | decisions/s | decisions per EPP CPU-second | EPP cores busy | p50 / p99 ms | failed | scaling vs linear |\n|---:|---:|---:|---:|---:|---:|---:|');
      for (const r of rs) console.log(`| ${r.workers} | ${f(r.load.decisionsPerS, 0)} | ${f(r.load.decisionsPerCpuS, 0)} | ${f(r.load.eppCores, 2)} | ${f(r.load.p50, 1)} / ${f(r.load.p99, 1)} | ${r.load.errors} | ${f(r.load.decisionsPerS / (a.load.decisionsPerS * r.workers / a.workers), 2)}× |`);
    }
  }
  if (TRANSPORTS.length > 1 && WORKERS.length === 1) {
    // Same fleet, same load, one after the other: the ratios are of this run.
    const [a, ...others] = results;
    console.log(`\nTransports, same run (ratio = ${a.transport} ÷ other for rates, other ÷ ${a.transport} for costs):\n`);
    console.log('| figure | ' + results.map((r) => r.transport).join(' | ') + ' | ratio |\n|---|' + results.map(() => '---:|').join('') + '---:|');
    const row = (name, get, d, higherIsBetter) => console.log(`| ${name} | ${results.map((r) => f(get(r), d)).join(' | ')} | ${others.map((o) => f(higherIsBetter ? get(a) / get(o) : get(o) / get(a), 2)).join(' / ')}× |`);
    row('decisions per EPP CPU-second, all-in', (r) => r.load.decisionsPerCpuS, 0, true);
    row('EPP CPU per decision, all-in, ms', (r) => r.load.cpuPerDecisionMs, 3, false);
    row('EPP CPU per decision net of scrapes, ms', (r) => r.perUnit.netCpuPerDecisionMs, 3, false);
    row('decisions/s (wall clock)', (r) => r.load.decisionsPerS, 0, true);
    row('p50 latency, ms', (r) => r.load.p50, 1, false);
    row('p99 latency, ms', (r) => r.load.p99, 1, false);
  }
  if (JSON_OUT !== undefined) writeFileSync(JSON_OUT, JSON.stringify(results.length === 1 ? results[0] : results, null, 2));
  await closeChild(fleet);
} finally {
  await sleep(200);
  stopAll();
}
