// Gateway comparison benchmark (one run, same machine, same two fake upstreams):
//   npm run build && node bench/gateway/run.mjs [--duration 5] [--rounds 3] [--connections 50] [--write]
// Measures, for calling an upstream directly and through each proxy: requests/s at 50
// connections with ~1 KB chat bodies, proxy CPU per request (from /proc), and median latency
// with a single connection (added latency = proxy p50 − direct p50). HAProxy and Portkey are
// included when installed (HAPROXY_BIN, PORTKEY_DIR environment variables, or on PATH).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import { Pool } from 'undici';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : args[i + 1];
};
const DURATION = Number(flag('duration', 5));
const CONNECTIONS = Number(flag('connections', 50));
const LATENCY_SECONDS = Number(flag('latency-duration', 2));
const WRITE = args.includes('--write');
const ONLY = flag('only', '');
const ROUNDS = Number(flag('rounds', 3));
// Fastify's req/s when this machine runs at the speed the targets were set for (≈9.8k). Fastify
// keeps one core busy, so its req/s measures how fast the machine is running right now; CPU
// figures are also given scaled to the reference speed.
const REFERENCE_FASTIFY_RPS = Number(flag('reference-fastify-rps', 9800));
if (!(REFERENCE_FASTIFY_RPS > 0)) throw new Error(`--reference-fastify-rps must be a positive number, got ${flag('reference-fastify-rps')}`);
// Extra Node flags for every Node proxy (Switchyard, Fastify, bare), e.g. --node-flags=--no-allocation-site-pretenuring.
const NODE_FLAGS = (args.find((a) => a.startsWith('--node-flags=')) ?? '--node-flags=').slice('--node-flags='.length).split(' ').filter((f) => f !== '');

const body = JSON.stringify({
  model: 'bench',
  messages: [
    { role: 'system', content: 'You are a helpful assistant. '.repeat(20) },
    { role: 'user', content: `Summarise the following text in one sentence: ${'lorem ipsum dolor sit amet '.repeat(20)}` },
  ],
  max_tokens: 16,
});

const CLK_TCK = 100;
const cpuSeconds = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime + stime
};
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const waitForLine = (child, test) =>
  new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d) => {
      buf += d.toString();
      for (const line of buf.split('\n')) {
        if (test(line)) {
          child.stdout.off('data', onData);
          resolve(line);
          return;
        }
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before ready`)));
  });
const waitForPort = async (port) => {
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await r.arrayBuffer();
      if (r.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`port ${port} never answered`);
};

const cannon = (url, connections, duration, headers = {}) =>
  new Promise((resolve, reject) => {
    autocannon(
      { url, method: 'POST', connections, duration, body, headers: { 'content-type': 'application/json', ...headers }, pipelining: 1 },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });

/** Sequential requests on one keep-alive connection, timed with hrtime (µs resolution). */
async function singleConnectionLatency(url, seconds, headers = {}) {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const samples = [];
  let failures = 0;
  const end = performance.now() + seconds * 1000;
  try {
    while (performance.now() < end) {
      const t0 = process.hrtime.bigint();
      try {
        const r = await pool.request({ path: u.pathname, method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
        await r.body.arrayBuffer();
      } catch (err) {
        // A probe that fails is reported, not fatal: the run's other targets still count.
        process.stderr.write(`latency probe of ${url} failed: ${err instanceof Error ? err.message : String(err)}\n`);
        failures++;
        continue;
      }
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  } finally {
    await pool.close();
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length / 2)], p90: samples[Math.floor(samples.length * 0.9)], n: samples.length, failures };
}

/**
 * One round of a target, with every other proxy stopped. Rounds of all targets are interleaved
 * so that drifting background load on a shared machine hits every target alike.
 */
async function round(target) {
  // Every other proxy is stopped (SIGSTOP) while this one is measured: idle gateways still scrape
  // their upstreams every 50 ms and Portkey keeps timers, and on 2 cores that background work
  // would be charged to whichever target is running.
  const others = targetsToRun.filter((t) => t !== target && t.pid !== undefined);
  for (const t of others) process.kill(t.pid, 'SIGSTOP');
  try {
    // The target was stopped during the other targets' rounds: let it catch up (timers, scrapes)
    // and warm its pools before it is measured.
    await new Promise((r) => setTimeout(r, 200));
    await cannon(target.url, CONNECTIONS, 1, target.headers);
    return await measureRound(target);
  } finally {
    for (const t of others) process.kill(t.pid, 'SIGCONT');
  }
}

/**
 * Load at CONNECTIONS for DURATION seconds, CPU from /proc, then a single-connection latency
 * probe.
 */
async function measureRound(target) {
  const cpu0 = target.pid === undefined ? 0 : cpuSeconds(target.pid);
  const load = await cannon(target.url, CONNECTIONS, DURATION, target.headers);
  const cpu1 = target.pid === undefined ? 0 : cpuSeconds(target.pid);
  const lat = await singleConnectionLatency(target.url, LATENCY_SECONDS, target.headers);
  const r = { ok: load['2xx'], errors: load.errors + load.non2xx + load.timeouts + lat.failures, cpu: cpu1 - cpu0, p50Loaded: load.latency.p50, p99Loaded: load.latency.p99, p50Single: lat.p50, p90Single: lat.p90 };
  process.stderr.write(`${target.name}: ${JSON.stringify(r)}\n`);
  return r;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function summarise(target, rounds) {
  const ok = rounds.reduce((a, r) => a + r.ok, 0);
  return {
    name: target.name,
    rps: ok / (DURATION * rounds.length),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
    cpuUsPerReq: target.pid === undefined ? undefined : (rounds.reduce((a, r) => a + r.cpu, 0) * 1e6) / ok,
    cpuUsPerReqMedian: target.pid === undefined ? undefined : median(rounds.map((r) => (r.cpu * 1e6) / r.ok)),
    p50Loaded: median(rounds.map((r) => r.p50Loaded)),
    p99Loaded: median(rounds.map((r) => r.p99Loaded)),
    p50Single: median(rounds.map((r) => r.p50Single)),
    p90Single: median(rounds.map((r) => r.p90Single)),
  };
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const upstream = spawn(process.execPath, [join(here, 'upstream.mjs'), '2'], { stdio: ['ignore', 'pipe', 'inherit'] });
const { ports } = JSON.parse(await waitForLine(upstream, (l) => l.startsWith('{')));
const targets = ports.map((p) => `127.0.0.1:${p}`);
const want = (n) => ONLY === '' || ONLY.split(',').includes(n);
const targetsToRun = [];
let rows = [];
const children = [];

try {
  if (want('direct')) targetsToRun.push({ name: 'upstream, direct (no proxy)', url: `http://${targets[0]}/v1/chat/completions`, pid: undefined });

  const nodeProxy = async (name, script, extraArgs = []) => {
    const port = await freePort();
    const child = spawn(process.execPath, [...NODE_FLAGS, join(here, script), String(port), targets.join(','), ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await waitForLine(child, (l) => l.includes('ready'));
    targetsToRun.push({ name, url: `http://127.0.0.1:${port}/v1/chat/completions`, pid: child.pid });
  };
  if (want('switchyard')) await nodeProxy('Switchyard gateway, default config', 'proxy-switchyard.mjs');
  if (want('switchyard-noscrape')) await nodeProxy('Switchyard gateway, default config, no metrics scraping', 'proxy-switchyard.mjs', ['noscrape']);
  if (want('switchyard-noprefix')) await nodeProxy('Switchyard gateway, default config without the prefix scorer', 'proxy-switchyard.mjs', ['noprefix']);
  if (want('switchyard-profile')) await nodeProxy('Switchyard gateway, switchyard routing profile', 'proxy-switchyard.mjs', ['profile']);
  if (want('switchyard-rr')) await nodeProxy('Switchyard gateway, round-robin scheduler', 'proxy-switchyard.mjs', ['rr']);
  if (want('bare')) await nodeProxy('bare node:http + undici passthrough (floor)', 'proxy-bare.mjs');
  if (want('fastify')) await nodeProxy('Fastify + @fastify/reply-from, round-robin', 'proxy-fastify.mjs');

  const haproxy = process.env.HAPROXY_BIN ?? (spawnSync('sh', ['-c', 'command -v haproxy']).stdout.toString().trim() || undefined);
  const haproxyFound = haproxy !== undefined && existsSync(haproxy);
  if (want('haproxy') && haproxy !== undefined && !haproxyFound) process.stderr.write(`HAProxy skipped: ${haproxy} does not exist\n`);
  if (want('haproxy') && haproxyFound) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      [
        'global',
        '  nbthread 1',
        'defaults',
        '  mode http',
        '  timeout connect 5s',
        '  timeout client 60s',
        '  timeout server 60s',
        '  option http-keep-alive',
        'frontend fe',
        `  bind 127.0.0.1:${port}`,
        '  default_backend be',
        'backend be',
        '  balance roundrobin',
        '  http-reuse always',
        ...targets.map((t, i) => `  server s${i} ${t}`),
        '',
      ].join('\n'),
    );
    const child = spawn(haproxy, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await waitForPort(port);
    targetsToRun.push({ name: 'HAProxy 2.6 (C reference, 1 thread, round-robin)', url: `http://127.0.0.1:${port}/v1/chat/completions`, pid: child.pid });
  }

  const portkeyDir = process.env.PORTKEY_DIR;
  const portkeyServer = portkeyDir === undefined ? undefined : join(portkeyDir, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  if (want('portkey') && portkeyServer !== undefined && existsSync(portkeyServer)) {
    const port = await freePort();
    const child = spawn(process.execPath, [portkeyServer, `--port=${port}`, '--headless'], { stdio: ['ignore', 'pipe', 'inherit'], cwd: dirname(portkeyServer) });
    children.push(child);
    const config = JSON.stringify({
      strategy: { mode: 'loadbalance' },
      targets: targets.map((t) => ({ provider: 'openai', custom_host: `http://${t}/v1`, api_key: 'bench', weight: 1 })),
    });
    const headers = { 'x-portkey-config': config };
    let up = false;
    for (let i = 0; i < 100 && !up; i++) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
        await r.arrayBuffer();
        up = r.status === 200;
      } catch {}
      if (!up) await new Promise((r) => setTimeout(r, 200));
    }
    if (up) targetsToRun.push({ name: 'Portkey gateway 1.15 (loadbalance mode)', url: `http://127.0.0.1:${port}/v1/chat/completions`, pid: child.pid, headers });
    else process.stderr.write('portkey never answered 200; skipped\n');
  }

  for (const t of targetsToRun) await cannon(t.url, CONNECTIONS, 2, t.headers); // warm-up: JIT, pools, scrapes
  const results = new Map(targetsToRun.map((t) => [t, []]));
  for (let r = 0; r < ROUNDS; r++) for (const t of targetsToRun) results.get(t).push(await round(t));
  rows = targetsToRun.map((t) => summarise(t, results.get(t)));
  // Same-round ratios against Fastify: each round's targets ran back to back, so a round's ratio
  // is less exposed to the machine's drift than the ratio of totals.
  const base = targetsToRun.find((t) => t.name.startsWith('Fastify'));
  if (base !== undefined) {
    for (const [i, t] of targetsToRun.entries()) {
      const own = results.get(t);
      rows[i].roundRatio = median(own.map((r, k) => r.ok / results.get(base)[k].ok));
    }
  }
} finally {
  for (const c of children) await stop(c);
  await stop(upstream);
}

const direct = rows.find((r) => r.name.startsWith('upstream'));
const fastify = rows.find((r) => r.name.startsWith('Fastify'));
const fmt = (v, d = 0) => (v === undefined ? '–' : v.toFixed(d));
const cpuVsFastify = (r) => (fastify?.cpuUsPerReq === undefined || r.cpuUsPerReq === undefined ? '–' : fmt(r.cpuUsPerReq / fastify.cpuUsPerReq, 2));
// Scaled by how much slower or faster than the reference Fastify ran in this run.
const cpuAtReference = (r) => (fastify === undefined || r.cpuUsPerReq === undefined ? '–' : fmt((r.cpuUsPerReq * fastify.rps) / REFERENCE_FASTIFY_RPS));
const lines = [
  `| target | req/s (${CONNECTIONS} conns) | × Fastify (totals) | × Fastify (median of rounds) | errors | proxy CPU µs/req (all / median round) | CPU × Fastify's | CPU µs/req at Fastify ${fmt(REFERENCE_FASTIFY_RPS)} req/s | p50 / p99 ms under load | p50 / p90 ms, 1 conn | added p50 ms, 1 conn |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${fmt(r.rps)} | ${fastify === undefined ? '–' : fmt(r.rps / fastify.rps, 2)} | ${fmt(r.roundRatio, 2)} | ${r.errors} | ${fmt(r.cpuUsPerReq)} / ${fmt(r.cpuUsPerReqMedian)} | ${cpuVsFastify(r)} | ${cpuAtReference(r)} | ${fmt(r.p50Loaded, 1)} / ${fmt(r.p99Loaded, 1)} | ${fmt(r.p50Single, 2)} / ${fmt(r.p90Single, 2)} | ${direct === undefined || r === direct ? '–' : fmt(r.p50Single - direct.p50Single, 2)} |`,
  ),
];
if (fastify?.cpuUsPerReq !== undefined) {
  // The scaled column assumes Fastify is CPU-bound on one core; this line shows whether it was.
  lines.push('', `Fastify kept ${fmt((fastify.cpuUsPerReq * fastify.rps) / 1e6, 2)} of a core busy (CPU per request × req/s).`);
}
const table = lines.join('\n');
process.stdout.write(`${table}\n`);
if (WRITE) writeFileSync(join(here, 'last-run.md'), `${table}\n`);
