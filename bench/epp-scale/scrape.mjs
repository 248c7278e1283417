// Scraping cost at fleet scale, against a floor measured in the same run:
//   npm run build && node --expose-gc bench/epp-scale/scrape.mjs [--pods 100] [--seconds 4] [--rounds 3]
// The pods (simulator, full vLLM-sized page, lean mode) run in a child process; this process
// polls every pod every 50 ms with, in turn (interleaved rounds, so machine load hits all alike):
//   floor    — a bare keep-alive socket per pod: write the GET, count the body bytes, parse nothing;
//   node:http — MetricsScraper with a node:http fetcher returning the page as a string (what the
//              scraper did before), then the filtered parse;
//   default  — MetricsScraper as shipped (its HTTP/1.1 client, bytes, family blocks only).
// Reported: CPU per scrape (process.cpuUsage), cores at the achieved rate and at the full 2,000/s,
// and the heap after a full GC at the start and end of each scraper's rounds.
import { fork } from 'node:child_process';
import { connect } from 'node:net';
import { get, Agent } from 'node:http';
import { loadavg } from 'node:os';
import { EndpointPool, MetricsScraper } from '@switchyard/core';

const args = process.argv.slice(2);
const flag = (name, dflt) => { const i = args.indexOf(`--${name}`); return i === -1 ? dflt : Number(args[i + 1]); };
const PODS = flag('pods', 100);
const SECONDS = flag('seconds', 4);
const ROUNDS = flag('rounds', 3);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const fleet = fork(new URL('./fleet.mjs', import.meta.url), [], { env: { ...process.env, PODS: String(PODS) } });
const { endpoints } = await new Promise((r) => fleet.on('message', r));

/** The floor: one socket per pod, a GET every 50 ms, the body counted and dropped. */
function floor() {
  let n = 0, stopped = false;
  const sockets = endpoints.map((address) => {
    const [host, port] = address.split(':');
    const req = Buffer.from(`GET /metrics HTTP/1.1\r\nHost: ${address}\r\n\r\n`);
    const s = connect({ host, port: Number(port), noDelay: true });
    let want = -1, got = 0, started = 0;
    const send = () => { if (!stopped) { started = performance.now(); want = -1; got = 0; s.write(req); } };
    s.on('data', (d) => {
      if (want < 0) { const h = d.indexOf('\r\n\r\n'); want = Number(/content-length: (\d+)/i.exec(d.toString('latin1', 0, h))[1]); got = d.length - h - 4; } else got += d.length;
      if (got >= want) { n++; setTimeout(send, Math.max(0, 50 - (performance.now() - started))); }
    });
    s.on('error', () => undefined);
    s.once('connect', send);
    return s;
  });
  return { count: () => n, stop: async () => { stopped = true; for (const s of sockets) s.destroy(); } };
}

/** The scraper over the pool; `fetch` replaces the built-in client. */
function scraper(fetch) {
  const pool = new EndpointPool();
  for (const address of endpoints) pool.add({ address });
  const s = new MetricsScraper({ pool, intervalMs: 50, ...(fetch === undefined ? {} : { fetch }) });
  let n = 0;
  s.on('scrape', () => { n++; });
  s.start();
  return { count: () => n, stop: () => s.stop() };
}

const agent = new Agent({ keepAlive: true, maxSockets: 2 });
const nodeHttp = (url, signal) => new Promise((resolve, reject) => {
  const req = get(url, { agent, signal }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => { resolve(Buffer.concat(chunks).toString('utf8')); });
    res.on('error', reject);
  });
  req.on('error', reject);
});

const variants = { floor: () => floor(), 'node:http': () => scraper(nodeHttp), default: () => scraper(undefined) };
const acc = Object.fromEntries(Object.keys(variants).map((k) => [k, { cpuUs: 0, n: 0, wall: 0, heap: [] }]));
const load0 = loadavg()[0];
for (let round = 0; round <= ROUNDS; round++) {
  for (const [name, start] of Object.entries(variants)) {
    const v = start();
    await sleep(500); // connections up, JIT warm
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const c0 = process.cpuUsage(), n0 = v.count(), t0 = performance.now();
    await sleep(SECONDS * 1000);
    const c = process.cpuUsage(c0), dn = v.count() - n0, wall = (performance.now() - t0) / 1000;
    global.gc?.();
    const heap1 = process.memoryUsage().heapUsed;
    await v.stop();
    if (round === 0) continue; // warm-up round
    const a = acc[name];
    a.cpuUs += c.user + c.system; a.n += dn; a.wall += wall; a.heap.push([heap0, heap1]);
  }
}
fleet.kill();
const pageBytes = (await (async () => 0)()) || undefined;
const floorUs = acc.floor.cpuUs / acc.floor.n;
console.log(`\n${PODS} pods every 50 ms (${PODS * 20} scrapes/s wanted); ${ROUNDS} rounds of ${SECONDS} s each; load average ${loadavg()[0].toFixed(1)} (start ${load0.toFixed(1)})${pageBytes ?? ''}\n`);
console.log('| client | scrapes/s achieved | CPU µs per scrape | × floor | cores at achieved rate | cores at 2,000 scrapes/s | heap after GC, start → end of each round (MB) |\n|---|---:|---:|---:|---:|---:|---|');
for (const [name, a] of Object.entries(acc)) {
  const us = a.cpuUs / a.n;
  console.log(`| ${name} | ${(a.n / a.wall).toFixed(0)} | ${us.toFixed(1)} | ${(us / floorUs).toFixed(2)} | ${(a.cpuUs / 1e6 / a.wall).toFixed(3)} | ${((PODS * 20 * us) / 1e6).toFixed(3)} | ${a.heap.map(([h0, h1]) => `${(h0 / 1e6).toFixed(1)} → ${(h1 / 1e6).toFixed(1)}`).join(', ')} |`);
}
process.exit(0);
