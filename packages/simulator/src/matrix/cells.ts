import type { ReuseCheck } from './judge.js';

/**
 * One workload of the matrix: a preset name or a trace file, with how much of it a cell replays.
 * @public
 * @category Matrix
 */
export interface MatrixWorkload {
  /** Short label printed in the table. */
  readonly label: string;
  /** `comparePolicies` workload: a preset name, or `trace:` + a file name inside the traces directory. */
  readonly workload: string;
  /** Arrival window replayed, ms (presets: their arrival window; traces: the leading stretch of the trace). */
  readonly durationMs: number;
}

/**
 * The matrix: every built-in preset, the Mooncake synthetic trace and the Azure code and
 * conversation traces. Windows are cut so a cell measures ≈1,500–8,000 requests (a fixed seed makes
 * every run repeat exactly; docs/benchmarks/routing-matrix.md says how stable the percentiles are).
 * @public
 * @category Matrix
 */
export const MATRIX_WORKLOADS: readonly MatrixWorkload[] = [
  { label: 'shared-prefix', workload: 'shared-prefix', durationMs: 120_000 },
  { label: 'multi-turn', workload: 'multi-turn', durationMs: 120_000 },
  { label: 'agentic', workload: 'agentic', durationMs: 120_000 },
  { label: 'multi-tenant', workload: 'multi-tenant', durationMs: 60_000 },
  { label: 'lora-mix', workload: 'lora-mix', durationMs: 60_000 },
  { label: 'mooncake', workload: 'trace:mooncake_synthetic_trace.jsonl', durationMs: 1_100_000 },
  { label: 'azure-code', workload: 'trace:azure2023_code.csv', durationMs: 1_200_000 },
  { label: 'azure-conv', workload: 'trace:azure2023_conv.csv', durationMs: 600_000 },
];

/**
 * Loads of the matrix, as fractions of the capacity measured at the TTFT SLO. @public
 * @category Matrix
 */
export const MATRIX_LOADS: readonly number[] = [0.5, 0.7, 0.9];

/**
 * Gateway replica counts of the matrix. @public
 * @category Matrix
 */
export const MATRIX_GATEWAYS: readonly number[] = [1, 4];

/**
 * The baselines every cell compares the candidate against. @public
 * @category Matrix
 */
export const MATRIX_BASELINES: readonly string[] = ['round-robin', 'least-queue', 'default'];

/**
 * One cell: a workload at a load with a number of gateway replicas, and the extra reuse checks
 * the issue names for it.
 * @public
 * @category Matrix
 */
export interface MatrixCell {
  /** The workload. */
  readonly workload: MatrixWorkload;
  /** Offered load as a fraction of capacity. */
  readonly load: number;
  /** Gateway replicas. */
  readonly gateways: number;
  /** "Win where there is reuse" checks of this cell. */
  readonly reuse: readonly ReuseCheck[];
}

/**
 * The cells of the matrix, workload-major (so capacity is probed once per workload and replica
 * count): Mooncake at 0.7 with one replica carries the p90/hit-rate check, every multi-tenant cell
 * the interactive tenant's p99 check.
 * @public
 * @category Matrix
 */
export function matrixCells(workloads: readonly MatrixWorkload[] = MATRIX_WORKLOADS, loads: readonly number[] = MATRIX_LOADS, gateways: readonly number[] = MATRIX_GATEWAYS): MatrixCell[] {
  const cells: MatrixCell[] = [];
  for (const workload of workloads) {
    for (const g of gateways) {
      for (const load of loads) {
        const reuse: ReuseCheck[] = [];
        if (workload.label === 'mooncake' && load === 0.7 && g === 1) reuse.push('mooncake-p90-and-hit');
        if (workload.label === 'multi-tenant') reuse.push('interactive-p99');
        cells.push({ workload, load, gateways: g, reuse });
      }
    }
  }
  return cells;
}
