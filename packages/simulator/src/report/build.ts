import type { WorkloadBounds } from '../bounds/bounds.js';
import { boundRates, measuredSummary, type MeasuredInput } from './measured.js';
import { explainTies } from './notes.js';
import { seedInterval } from './seeds.js';
import { cdfPoints, downsample, jainIndex, percentiles } from './stats.js';
import type { ComparisonReport, Percentiles, PolicyRun, PolicySummary, RequestRecord, SeedSummary, TenantSummary } from './types.js';
import { measuredWindow } from './window.js';

/**
 * Input of {@link buildReport}.
 * @public
 * @category Report
 */
export interface ReportInput {
  /** Title (default derived from the workload). */
  readonly title?: string;
  /** Workload name, description, parameters and request count. */
  readonly workload: ComparisonReport['workload'];
  /** Fleet shape. */
  readonly fleet: ComparisonReport['fleet'];
  /** Seed of the run. */
  readonly seed: number;
  /** One run per policy, in order. */
  readonly runs: readonly PolicyRun[];
  /** The offered items in workload order (default: the first run's records, in order). */
  readonly items?: readonly { readonly id: string; readonly arrivalMs: number; readonly promptLength: number }[];
  /** Sound references per item (see `computeBounds`); ratios to them are reported when given. */
  readonly bounds?: WorkloadBounds;
  /** TTFT SLO for goodput, ms (default 2000). */
  readonly sloTtftMs?: number;
  /** Fractions of the arrival span excluded as warm-up and drain (default 0.1 each). */
  readonly window?: { readonly warmup?: number; readonly drain?: number };
  /** Runs of further seeds (same policies, same order) for the confidence intervals. */
  readonly moreSeeds?: readonly { readonly seed: number; readonly runs: readonly PolicyRun[] }[];
}

/** Rounds to 3 decimals so reports are compact and stable. */
const r3 = (v: number): number => Math.round(v * 1000) / 1000;
const roundP = (p: Percentiles): Percentiles => ({ count: p.count, mean: r3(p.mean), p50: r3(p.p50), p90: r3(p.p90), p99: r3(p.p99), max: r3(p.max) });

function tenantSummaries(records: readonly RequestRecord[]): TenantSummary[] {
  const by = new Map<string, RequestRecord[]>();
  for (const r of records) by.set(r.tenant, [...(by.get(r.tenant) ?? []), r]);
  let servedAll = 0;
  for (const r of records) if (r.status === 'ok') servedAll += r.promptTokens + r.outputTokens;
  return [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([tenant, rs]) => {
      const ok = rs.filter((r) => r.status === 'ok');
      const served = ok.reduce((a, r) => a + r.promptTokens + r.outputTokens, 0);
      const demanded = rs.reduce((a, r) => a + r.promptTokens + (r.status === 'ok' ? r.outputTokens : 0), 0);
      return {
        tenant,
        requests: rs.length,
        completed: ok.length,
        servedShare: r3(servedAll === 0 ? 0 : served / servedAll),
        normalizedThroughput: r3(demanded === 0 ? 1 : served / demanded),
        ttftP90: r3(percentiles(ok.flatMap((r) => (r.firstTokenMs === undefined ? [] : [r.firstTokenMs - r.arrivalMs]))).p90),
      };
    });
}

function loadSeries(run: PolicyRun): Record<string, [number, number][]> {
  const by = new Map<string, [number, number][]>();
  for (const s of run.samples) {
    let list = by.get(s.endpoint);
    if (list === undefined) {
      list = [];
      by.set(s.endpoint, list);
    }
    list.push([s.t, s.running + s.waiting]);
  }
  const out: Record<string, [number, number][]> = {};
  for (const [ep, pts] of [...by.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[ep] = downsample(pts, run.durationMs);
  return out;
}

function summarize(run: PolicyRun, m: MeasuredInput): PolicySummary {
  const ok = run.records.filter((r) => r.status === 'ok');
  const ttft = ok.flatMap((r) => (r.firstTokenMs === undefined ? [] : [r.firstTokenMs - r.arrivalMs]));
  const e2e = ok.map((r) => r.finishMs - r.arrivalMs);
  const queue = run.records.flatMap((r) => (r.dispatchMs === undefined ? [] : [r.dispatchMs - r.arrivalMs]));
  const seconds = Math.max(1e-9, run.durationMs / 1000);
  const hitRate = run.engine.prefixQueries === 0 ? 0 : run.engine.prefixHits / run.engine.prefixQueries;
  const tenants = tenantSummaries(run.records);
  const endpointRequests: Record<string, number> = {};
  for (const r of [...ok].sort((a, b) => ((a.endpoint ?? '') < (b.endpoint ?? '') ? -1 : 1))) {
    const ep = r.endpoint ?? '?';
    endpointRequests[ep] = (endpointRequests[ep] ?? 0) + 1;
  }
  return {
    policy: run.policy,
    description: run.description,
    requests: run.records.length,
    completed: ok.length,
    failed: run.records.length - ok.length,
    ttft: roundP(percentiles(ttft)),
    e2e: roundP(percentiles(e2e)),
    queue: roundP(percentiles(queue)),
    requestsPerSec: r3(ok.length / seconds),
    outputTokensPerSec: r3(ok.reduce((a, r) => a + r.outputTokens, 0) / seconds),
    prefixHitRate: r3(hitRate),
    measured: measuredSummary(run.records, m),
    preemptions: run.engine.preemptions,
    tenants,
    jain: r3(jainIndex(tenants.map((t) => t.normalizedThroughput))),
    endpointRequests,
    ttftCdf: cdfPoints(ttft).map(([x, p]) => [r3(x), r3(p)] as const),
    e2eCdf: cdfPoints(e2e).map(([x, p]) => [r3(x), r3(p)] as const),
    load: loadSeries(run),
    durationMs: r3(run.durationMs),
  };
}

function seedSummaries(perSeed: readonly (readonly PolicySummary[])[]): SeedSummary[] {
  const first = perSeed[0] ?? [];
  return first.map((p, k) => {
    const of = (f: (s: PolicySummary) => number): ReturnType<typeof seedInterval> =>
      seedInterval(perSeed.flatMap((ps) => (ps[k] === undefined ? [] : [f(ps[k])])));
    const failed = (s: PolicySummary): number => s.measured.requests - s.measured.outcomes.ok;
    return {
      policy: p.policy,
      hitRate: of((s) => s.measured.hitRate),
      ttftP50: of((s) => s.measured.ttft.p50),
      ttftP90: of((s) => s.measured.ttft.p90),
      goodputPerSec: of((s) => s.measured.goodput.perSec),
      failed: of(failed),
    };
  });
}

/**
 * Summarizes per-policy runs into a comparison. Every policy is judged on the same offered
 * requests of the measured window (warm-up and drain excluded): outcomes by failure class, hit
 * rate over offered prompt tokens and its ratio to the unlimited-cache and capacity-aware bounds,
 * TTFT percentiles with failures as +∞ and per request over its lower bound, goodput at the TTFT
 * SLO, and per-endpoint imbalance; plus, over all completed requests, TTFT/E2E/queue percentiles
 * and CDFs, throughput, per-tenant shares with Jain's index and per-endpoint load over time.
 * Further seeds give means with 95% confidence intervals. Pure and deterministic: the same runs
 * give the same JSON (wall-clock times are left out).
 * @public
 * @category Report
 */
export function buildReport(input: ReportInput): ComparisonReport {
  const items = input.items ?? (input.runs[0]?.records ?? []).map((r) => ({ id: r.id, arrivalMs: r.arrivalMs, promptLength: r.promptTokens }));
  const win = measuredWindow(items.map((it) => it.arrivalMs), input.window?.warmup, input.window?.drain);
  const sloTtftMs = input.sloTtftMs ?? 2000;
  const promptTokens = items.map((it) => it.promptLength);
  const m: MeasuredInput = {
    indexOf: new Map(items.map((it, i) => [it.id, i])),
    items: win.items,
    windowMs: Math.max(1, win.toMs - win.fromMs),
    sloTtftMs,
    bounds: input.bounds,
    promptTokens,
  };
  const policies = input.runs.map((run) => summarize(run, m));
  const b = input.bounds;
  const rates = b === undefined ? undefined : boundRates(b, win.items, promptTokens);
  const lower = b === undefined ? undefined : roundP(percentiles(win.items.map((i) => b.ttftLowerMs[i] ?? 0)));
  const perSeed = [policies, ...(input.moreSeeds ?? []).map((s) => s.runs.map((run) => summarize(run, m)))];
  const gateways = input.fleet.gateways ?? 1;
  return {
    title: input.title ?? `Switchyard simulator: ${input.workload.name} on ${input.fleet.pods} × ${input.fleet.profile}${gateways > 1 ? `, ${gateways} gateway replicas` : ''}`,
    workload: input.workload,
    fleet: input.fleet,
    seed: input.seed,
    window: { fromMs: r3(win.fromMs), toMs: r3(win.toMs), requests: win.items.length },
    sloTtftMs,
    bounds: rates === undefined || b === undefined || lower === undefined ? undefined : { unlimitedHitRate: r3(rates.unlimited), capacityHitRate: r3(rates.capacity), capacityBlocks: b.capacityBlocks, ttftLower: lower },
    policies,
    acrossSeeds: { seeds: [input.seed, ...(input.moreSeeds ?? []).map((s) => s.seed)], policies: seedSummaries(perSeed) },
    notes: explainTies(policies, gateways),
  };
}
