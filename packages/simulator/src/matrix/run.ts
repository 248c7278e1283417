import { comparePolicies } from '../fleet/compare.js';
import type { MeasuredCapacity } from '../fleet/capacity.js';
import type { PolicyRun, PolicySummary } from '../report/types.js';
import { MATRIX_BASELINES, matrixCells, type MatrixCell } from './cells.js';
import { judgeCell, type CellFigures, type CellVerdict } from './judge.js';

/**
 * Options of {@link runMatrix}.
 * @public
 * @category Matrix
 */
export interface MatrixOptions {
  /** Cells to run (default: the whole matrix, {@link matrixCells}). */
  readonly cells?: readonly MatrixCell[];
  /** The policy judged (default `switchyard`): a built-in name or a config path. */
  readonly candidate?: string;
  /** Policies it must not lose to (default round-robin, least-queue, default). */
  readonly baselines?: readonly string[];
  /** Seed of every cell (default 1). */
  readonly seed?: number;
  /** Multiplies every workload's window (default 1; below 1 for a quick run). */
  readonly durationScale?: number;
  /** Directory holding the trace files (`trace:NAME` workloads). */
  readonly tracesDir: string;
  /** Reads a trace file. */
  readonly readFile: (path: string) => string;
  /** Called after each cell. */
  readonly onCell?: (result: CellResult, index: number, count: number) => void;
  /** Stops between cells when aborted. */
  readonly signal?: AbortSignal;
}

/**
 * One cell's outcome: the figures of every policy and the verdict on the candidate.
 * @public
 * @category Matrix
 */
export interface CellResult {
  /** The cell. */
  readonly cell: MatrixCell;
  /** Candidate first, then the baselines. */
  readonly figures: readonly CellFigures[];
  /** The verdict on the candidate. */
  readonly verdict: CellVerdict;
  /** Requests in the measured window. */
  readonly requests: number;
  /** Capacity the load is a fraction of, requests/s. */
  readonly capacityPerSec: number | undefined;
}

/** The `interactive` tenant's TTFT p99 over the measured window, failures as +∞. */
function interactiveP99(run: PolicyRun, fromMs: number, toMs: number): number | undefined {
  const ttfts: number[] = [];
  for (const r of run.records) {
    if (r.tenant !== 'interactive' || r.arrivalMs < fromMs || r.arrivalMs >= toMs) continue;
    ttfts.push(r.status === 'ok' && r.firstTokenMs !== undefined ? r.firstTokenMs - r.arrivalMs : Infinity);
  }
  if (ttfts.length === 0) return undefined;
  ttfts.sort((a, b) => a - b);
  return ttfts[Math.min(ttfts.length - 1, Math.ceil(0.99 * ttfts.length) - 1)];
}

function figuresOf(summary: PolicySummary, run: PolicyRun | undefined, window: { fromMs: number; toMs: number }): CellFigures {
  const m = summary.measured;
  return {
    policy: summary.policy,
    ttftP50: m.ttft.p50,
    ttftP90: m.ttft.p90,
    goodput: m.goodput.requests,
    failures: m.requests - m.outcomes.ok,
    hitVsCapacity: m.hitVsCapacity,
    interactiveP99: run === undefined ? undefined : interactiveP99(run, window.fromMs, window.toMs),
  };
}

/**
 * Runs the routing matrix: every cell's workload under the candidate and the baselines (the same
 * seeded requests for all), then judges the candidate with {@link judgeCell}. Capacity is probed
 * once per workload and replica count and reused across loads.
 * @public
 * @category Matrix
 */
export async function runMatrix(o: MatrixOptions): Promise<CellResult[]> {
  const cells = o.cells ?? matrixCells();
  const candidate = o.candidate ?? 'switchyard';
  const baselines = o.baselines ?? MATRIX_BASELINES;
  const capacities = new Map<string, MeasuredCapacity>();
  const results: CellResult[] = [];
  for (const [index, cell] of cells.entries()) {
    if (o.signal?.aborted === true) break;
    const w = cell.workload;
    const workload = w.workload.startsWith('trace:') ? `trace:${o.tracesDir.replace(/\/$/, '')}/${w.workload.slice('trace:'.length)}` : w.workload;
    const key = `${w.label}/${cell.gateways}`;
    const known = capacities.get(key);
    const { report, runs, capacity } = await comparePolicies({
      workload,
      policies: [candidate, ...baselines],
      targetLoad: cell.load,
      gateways: cell.gateways,
      seed: o.seed ?? 1,
      durationMs: Math.round(w.durationMs * (o.durationScale ?? 1)),
      readFile: o.readFile,
      ...(known === undefined ? {} : { capacity: known }),
    });
    if (capacity !== undefined) capacities.set(key, capacity);
    const figures = report.policies.map((p, i) => figuresOf(p, runs[i], report.window));
    const [mine, ...theirs] = figures;
    if (mine === undefined) continue;
    const result: CellResult = { cell, figures, verdict: judgeCell(mine, theirs, cell.reuse), requests: report.window.requests, capacityPerSec: capacity?.requestsPerSec };
    results.push(result);
    o.onCell?.(result, index, cells.length);
  }
  return results;
}
