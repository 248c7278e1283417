import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { comparePolicies } from '../fleet/compare.js';
import { writeReport } from '../report/write.js';
import { SwitchyardError } from '@switchyard/core';
import type { MembershipChange } from '../fleet/types.js';
import type { PolicySummary } from '../report/types.js';
import { intFlag, listFlag, numberFlag, stringFlag } from './args.js';
import type { CliIo } from './types.js';

/** Help text of `switchyard-sim compare`. @internal */
export const COMPARE_USAGE = `Usage: switchyard-sim compare --workload W --policies a,b,c [options]

Runs one seeded workload under each policy in a virtual-time fleet and writes report.html and
report.json (in the same directory).

  --workload W          shared-prefix, agentic, multi-turn, multi-tenant, lora-mix, or trace:FILE
                        (Mooncake JSONL, ticks de-quantised; or Azure CSV TIMESTAMP,ContextTokens,GeneratedTokens)
  --policies a,b,c      round-robin, random, least-queue, default, precise, cache-greedy, switchyard, or EndpointPickerConfig paths
  --pods N              pods (default 8)
  --gateways N          gateway replicas, each with its own picker, index, in-flight counts, queues (default 1)
  --shared-state-ms MS  the replicas share in-flight load, routing history and sessions (an in-memory
                        stand-in for Redis) syncing every MS virtual ms (default: not shared)
  --rate R              arrivals per second (default ≈70% of the fleet's estimated capacity)
  --target-load F       offered load as a fraction of the capacity measured at the TTFT SLO (overrides --rate/--speedup)
  --slo-ttft MS         TTFT SLO for goodput and --target-load (default 2000)
  --seeds N             run N seeds (seed, seed+1, ...) and report 95% confidence intervals (default 1)
  --kv-loss P           probability a KV-event batch is lost on its way to a replica (default 0)
  --kv-delay-sigma S    spread (σ of the log) of the log-normal KV-event delay (default 0.5)
  --restart POD@S       restart pod POD at S seconds behind its stable endpoint (repeatable as a,b: 0@30,3@60)
  --duration S          arrival window in seconds (preset default)
  --seed S              seed (default 1)
  --profile P           engine profile (preset default: 32b-h100 for shared-prefix, else 8b-h100)
  --scale X             agentic token scale (default 0.05)
  --speedup X           trace replay speed-up (default 1)
  --zipf S              shared-prefix: Zipf exponent of group popularity (default 0: every prompt once per round)
  --scrape-interval MS  metrics staleness (default 50)
  --kv-delay MS         median KV event delay (default 10)
  --out PATH            report.html path (default ./report.html)
`;

const ms = (v: number): string => (!Number.isFinite(v) ? '∞' : v >= 1000 ? `${(v / 1000).toFixed(2)}s` : `${Math.round(v)}ms`);
const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
const ratio = (v: number | undefined): string => (v === undefined ? '–' : v.toFixed(3));
const HEADER = `${'policy'.padEnd(14)} ${'ok/offered'.padStart(11)} ${'shed'.padStart(5)} ${'ttl'.padStart(4)} ${'eng'.padStart(4)} ${'TTFT p50'.padStart(9)} ${'TTFT p90'.padStart(9)} ${'p90/bound'.padStart(9)} ${'goodput'.padStart(8)} ${'hit'.padStart(7)} ${'/unlim'.padStart(6)} ${'/cap'.padStart(6)} ${'imbal'.padStart(6)}`;
const row = (p: PolicySummary): string => {
  const m = p.measured;
  return `${p.policy.padEnd(14)} ${`${m.outcomes.ok}/${m.requests}`.padStart(11)} ${String(m.outcomes.shed).padStart(5)} ${String(m.outcomes.ttl).padStart(4)} ${String(m.outcomes.engine + m.outcomes.timeout).padStart(4)} ${ms(m.ttft.p50).padStart(9)} ${ms(m.ttft.p90).padStart(9)} ${(m.ttftOverBound === undefined ? '–' : Number.isFinite(m.ttftOverBound.p90) ? `${m.ttftOverBound.p90.toFixed(1)}×` : '∞').padStart(9)} ${pct(m.goodput.fraction).padStart(8)} ${pct(m.hitRate).padStart(7)} ${ratio(m.hitVsUnlimited).padStart(6)} ${ratio(m.hitVsCapacity).padStart(6)} ${m.imbalance.maxOverMean.toFixed(2).padStart(6)}`;
};

/** Parses `--restart 0@30,3@60` into restart membership changes. */
function restarts(raw: readonly string[]): MembershipChange[] {
  return raw.map((r) => {
    const m = /^(\d+)@(\d+(?:\.\d+)?)$/.exec(r);
    if (m === null) throw new SwitchyardError('CONFIG_INVALID', `--restart: expected POD@SECONDS (e.g. 2@30), got "${r}"`);
    return { action: 'restart', pod: Number(m[1]), atMs: Number(m[2]) * 1000 };
  });
}

/** Reads a number flag >= 0, naming the flag on error. */
function nonNegativeFlag(raw: string | undefined, name: string): number {
  const v = Number(raw);
  if (raw === undefined || !Number.isFinite(v) || v < 0) throw new SwitchyardError('CONFIG_INVALID', `--${name}: expected a number >= 0, got "${raw ?? ''}"`);
  return v;
}

/** Reads a probability flag in [0, 1), naming the flag on error. */
function probabilityFlag(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0 || v >= 1) throw new SwitchyardError('CONFIG_INVALID', `--${name}: expected a number in [0, 1), got "${raw}"`);
  return v;
}

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
      gateways: { type: 'string' },
      'shared-state-ms': { type: 'string' },
      'target-load': { type: 'string' },
      'slo-ttft': { type: 'string' },
      seeds: { type: 'string' },
      'kv-loss': { type: 'string' },
      'kv-delay-sigma': { type: 'string' },
      restart: { type: 'string' },
      zipf: { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const workload = stringFlag(values, 'workload') ?? 'shared-prefix';
  const policies = listFlag(values, 'policies');
  if (policies.length === 0) {
    io.stderr.write('switchyard-sim compare: --policies is required (e.g. round-robin,least-queue,default,precise)\n');
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
    gateways: intFlag(values, 'gateways', 1, 1),
    ...(values['shared-state-ms'] === undefined ? {} : { sharedStateSyncMs: intFlag(values, 'shared-state-ms', 200, 1) }),
    seeds: intFlag(values, 'seeds', 1, 1),
    sloTtftMs: numberFlag(values, 'slo-ttft', 2000),
    ...(values['target-load'] === undefined ? {} : { targetLoad: numberFlag(values, 'target-load', 1) }),
    signals: {
      ...(values['kv-loss'] === undefined ? {} : { kvEventLoss: probabilityFlag(stringFlag(values, 'kv-loss'), 'kv-loss') ?? 0 }),
      ...(values['kv-delay-sigma'] === undefined ? {} : { kvEventDelaySigma: nonNegativeFlag(stringFlag(values, 'kv-delay-sigma'), 'kv-delay-sigma') }),
    },
    membership: restarts(listFlag(values, 'restart')),
    ...(values.zipf === undefined ? {} : { zipf: nonNegativeFlag(stringFlag(values, 'zipf'), 'zipf') }),
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
  io.stdout.write(`${report.title}\n${report.workload.description}\n`);
  const b = report.bounds;
  if (b !== undefined) {
    io.stdout.write(`bounds: unlimited-cache hit ${pct(b.unlimitedHitRate)}, capacity-aware (Belady, ${b.capacityBlocks} blocks) hit ${pct(b.capacityHitRate)}, TTFT lower bound p50 ${ms(b.ttftLower.p50)} p90 ${ms(b.ttftLower.p90)}\n`);
  }
  io.stdout.write(`measured: ${report.window.requests} requests arriving in [${(report.window.fromMs / 1000).toFixed(1)} s, ${(report.window.toMs / 1000).toFixed(1)} s); TTFT with failures as ∞; goodput = TTFT ≤ ${report.sloTtftMs} ms\n\n`);
  io.stdout.write(`${HEADER}\n`);
  for (const p of report.policies) io.stdout.write(`${row(p)}\n`);
  for (const n of report.notes) io.stdout.write(`\nnote: ${n}\n`);
  io.stdout.write(`\nwrote ${paths.html} and ${paths.json} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  return 0;
}
