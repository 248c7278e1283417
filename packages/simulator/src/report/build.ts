import { cdfPoints, downsample, jainIndex, percentiles } from './stats.js';
import type { ComparisonReport, Percentiles, PolicyRun, PolicySummary, RequestRecord, TenantSummary } from './types.js';

/**
 * Input of {@link buildReport}.
 * @public
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

function summarize(run: PolicyRun, oracleHitRate: number | undefined): PolicySummary {
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
    hitRateVsOracle: oracleHitRate === undefined || oracleHitRate === 0 ? undefined : r3(hitRate / oracleHitRate),
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

/**
 * Summarizes per-policy runs into a comparison: TTFT/E2E/queue percentiles and CDFs, throughput,
 * engine-measured prefix hit rate and its ratio to the oracle run (policy `oracle`), per-tenant
 * shares with Jain's index, and per-endpoint load over time. Pure and deterministic: the same runs
 * give the same JSON (wall-clock times are left out).
 * @public
 */
export function buildReport(input: ReportInput): ComparisonReport {
  const oracle = input.runs.find((r) => r.policy === 'oracle');
  const oracleHit = oracle === undefined || oracle.engine.prefixQueries === 0 ? undefined : oracle.engine.prefixHits / oracle.engine.prefixQueries;
  return {
    title: input.title ?? `Switchyard simulator: ${input.workload.name} on ${input.fleet.pods} × ${input.fleet.profile}`,
    workload: input.workload,
    fleet: input.fleet,
    seed: input.seed,
    policies: input.runs.map((run) => summarize(run, oracleHit)),
  };
}
