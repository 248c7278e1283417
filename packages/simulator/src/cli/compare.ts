import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { comparePolicies } from '../fleet/compare.js';
import { writeReport } from '../report/write.js';
import type { PolicySummary } from '../report/types.js';
import { intFlag, listFlag, numberFlag, stringFlag } from './args.js';
import type { CliIo } from './types.js';

/** Help text of `switchyard-sim compare`. @internal */
export const COMPARE_USAGE = `Usage: switchyard-sim compare --workload W --policies a,b,c [options]

Runs one seeded workload under each policy in a virtual-time fleet and writes report.html and
report.json (in the same directory).

  --workload W          shared-prefix, agentic, multi-turn, multi-tenant, lora-mix, or trace:FILE (Mooncake JSONL)
  --policies a,b,c      round-robin, random, least-queue, default, precise, oracle, or EndpointPickerConfig paths
  --pods N              pods (default 8)
  --rate R              arrivals per second (default ≈70% of the fleet's estimated capacity)
  --duration S          arrival window in seconds (preset default)
  --seed S              seed (default 1)
  --profile P           engine profile (preset default: 32b-h100 for shared-prefix, else 8b-h100)
  --scale X             agentic token scale (default 0.05)
  --speedup X           trace replay speed-up (default 1)
  --scrape-interval MS  metrics staleness (default 50)
  --kv-delay MS         KV event delay (default 10)
  --out PATH            report.html path (default ./report.html)
`;

const ms = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(2)}s` : `${Math.round(v)}ms`);
const row = (p: PolicySummary): string =>
  `${p.policy.padEnd(14)} ${`${p.completed}/${p.requests}`.padStart(11)} ${ms(p.ttft.p50).padStart(9)} ${ms(p.ttft.p90).padStart(9)} ${ms(p.e2e.p90).padStart(9)} ${p.outputTokensPerSec.toFixed(0).padStart(8)} ${`${(p.prefixHitRate * 100).toFixed(1)}%`.padStart(7)} ${p.hitRateVsOracle === undefined ? '     –' : p.hitRateVsOracle.toFixed(3).padStart(6)}`;

/**
 * `switchyard-sim compare`.
 * @internal
 */
export async function runCompare(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      workload: { type: 'string' },
      policies: { type: 'string' },
      pods: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      seed: { type: 'string' },
      profile: { type: 'string' },
      scale: { type: 'string' },
      speedup: { type: 'string' },
      'scrape-interval': { type: 'string' },
      'kv-delay': { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const workload = stringFlag(values, 'workload') ?? 'shared-prefix';
  const policies = listFlag(values, 'policies');
  if (policies.length === 0) {
    io.stderr.write('switchyard-sim compare: --policies is required (e.g. round-robin,default,precise,oracle)\n');
    return 2;
  }
  const out = stringFlag(values, 'out') ?? 'report.html';
  const started = performance.now();
  let lastLine = 0;
  const { report } = await comparePolicies({
    workload,
    policies,
    pods: intFlag(values, 'pods', 8, 1),
    seed: intFlag(values, 'seed', 1, 0),
    ...(values.rate === undefined ? {} : { rate: numberFlag(values, 'rate', 1) }),
    ...(values.duration === undefined ? {} : { durationMs: numberFlag(values, 'duration', 1) * 1000 }),
    ...(values.profile === undefined ? {} : { profile: stringFlag(values, 'profile') ?? '' }),
    ...(values.scale === undefined ? {} : { scale: numberFlag(values, 'scale', 1) }),
    ...(values.speedup === undefined ? {} : { speedup: numberFlag(values, 'speedup', 1) }),
    scrapeIntervalMs: intFlag(values, 'scrape-interval', 50, 1),
    kvEventDelayMs: intFlag(values, 'kv-delay', 10, 0),
    readFile: (path) => readFileSync(path, 'utf8'),
    onProgress: (p) => {
      const now = performance.now();
      if (now - lastLine < 250 && p.done !== p.total) return;
      lastLine = now;
      const pct = Math.floor((100 * p.done) / Math.max(1, p.total));
      io.stderr.write(`\r[${p.index + 1}/${p.count} ${p.policy}] ${String(pct).padStart(3)}% ${p.done}/${p.total} requests, virtual ${(p.virtualMs / 1000).toFixed(1)}s, wall ${((now - started) / 1000).toFixed(1)}s   `);
      if (p.done === p.total) io.stderr.write('\n');
    },
  });
  const paths = await writeReport(report, out);
  io.stdout.write(`${report.title}\n${report.workload.description}\n\n`);
  io.stdout.write(`${'policy'.padEnd(14)} ${'done/sent'.padStart(11)} ${'TTFT p50'.padStart(9)} ${'TTFT p90'.padStart(9)} ${'E2E p90'.padStart(9)} ${'tok/s'.padStart(8)} ${'hit'.padStart(7)} ${'/oracle'.padStart(6)}\n`);
  for (const p of report.policies) io.stdout.write(`${row(p)}\n`);
  io.stdout.write(`\nwrote ${paths.html} and ${paths.json} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  return 0;
}
