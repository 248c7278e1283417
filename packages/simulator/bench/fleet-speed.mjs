// Virtual-time fleet speed: 8 pods (8b-h100), 8192-token prompts (6144 shared + 2048), 256 output
// tokens, 120 s of Poisson arrivals at 70% of the fleet's estimated capacity for that shape. Prints
// virtual-time / CPU-time speed per policy (best of REPEAT runs, since the build machine is
// shared) and each policy's CPU cost relative to round-robin in the same run.
// Usage: npm run build && REPEAT=3 GATEWAYS=1 node packages/simulator/bench/fleet-speed.mjs [policies...]
import { createHash } from 'node:crypto';
import { builtinPolicy, estimateCapacity, getProfile, runVirtualFleet, sharedPrefixWorkload } from '../dist/index.js';

const policies = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['round-robin', 'least-queue', 'default', 'precise'];
const repeat = Number(process.env.REPEAT ?? 3);
const gateways = Number(process.env.GATEWAYS ?? 1);
const capacity = estimateCapacity(getProfile('8b-h100'), 8, { promptTokens: 8192, outputTokens: 256, sharedTokens: 6144, sharedSetsPerPod: 4 });
const rate = Math.round(capacity * 0.7 * 10) / 10;
const workload = sharedPrefixWorkload({ numGroups: 32, numPromptsPerGroup: 8, systemPromptLen: 6144, questionLen: 2048, outputLen: 256, rate, durationMs: 120_000, seed: 1 });
const rows = [];
for (const name of policies) {
  let best;
  for (let k = 0; k < repeat; k++) {
    // The target is per CPU second: user + system time of this whole process (every thread, so the
    // garbage collector's and compiler's helper threads count too), which time spent waiting for a
    // core on a loaded machine does not inflate (wall time, printed for information, does).
    const cpu0 = process.cpuUsage();
    const run = await runVirtualFleet(workload, builtinPolicy(name), { pods: 8, gateways, profile: '8b-h100', seed: 1 });
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const digest = createHash('sha256').update(JSON.stringify({ records: run.records, samples: run.samples, durationMs: run.durationMs, engine: run.engine })).digest('hex').slice(0, 12);
    if (best !== undefined && digest !== best.digest) throw new Error(`${name}: repeated runs differ (${digest} vs ${best.digest})`);
    if (best === undefined || cpuMs < best.cpu) best = { name, digest, cpu: cpuMs, wall: run.wallMs, virtual: run.durationMs, hit: run.engine.prefixHits / run.engine.prefixQueries, n: run.records.length };
  }
  rows.push(best);
}
const base = rows.find((r) => r.name === 'round-robin') ?? rows[0];
console.log(`requests ${rows[0].n}, prompt 8192 tokens, output 256, ${rate} req/s (70% of the estimated ${capacity.toFixed(1)}), 8 pods, ${gateways} gateway(s), best of ${repeat}, node ${process.version}; cpu = process user + system time`);
console.log('policy        virtual s    cpu s   wall s   virtual/cpu   virtual/wall   cpu vs round-robin   hit rate   result digest');
for (const r of rows) {
  console.log(`${r.name.padEnd(12)} ${(r.virtual / 1000).toFixed(1).padStart(9)} ${(r.cpu / 1000).toFixed(2).padStart(8)} ${(r.wall / 1000).toFixed(2).padStart(8)} ${(r.virtual / r.cpu).toFixed(0).padStart(12)}x ${(r.virtual / r.wall).toFixed(0).padStart(13)}x ${(r.cpu / base.cpu).toFixed(2).padStart(19)}x ${(r.hit * 100).toFixed(1).padStart(9)}%   ${r.digest}`);
}
