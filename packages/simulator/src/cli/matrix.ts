import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MATRIX_GATEWAYS, MATRIX_LOADS, MATRIX_WORKLOADS, matrixCells } from '../matrix/cells.js';
import { formatCellRow, formatMatrix, MATRIX_HEADER } from '../matrix/format.js';
import { runMatrix } from '../matrix/run.js';
import { SwitchyardError } from '@switchyard/core';
import { intFlag, listFlag, numberFlag, stringFlag } from './args.js';
import type { CliIo } from './types.js';

/** Help text of `switchyard-sim matrix`. @internal */
export const MATRIX_USAGE = `Usage: switchyard-sim matrix [options]

Runs the routing matrix: every workload (presets, Mooncake synthetic, Azure code and conversation
traces) at loads 0.5/0.7/0.9 of the measured capacity with 1 and 4 gateway replicas, under the
candidate policy and round-robin, least-queue and llm-d's default, and prints pass/fail per cell
(TTFT p50/p90 within 5% of the best baseline or better, goodput >=, failures <=; plus the reuse
checks on Mooncake 0.7 with 1 replica and on multi-tenant). Exit code 1 when a cell fails.

  --candidate P       policy judged (default switchyard; a built-in name or a config path)
  --workloads a,b     only these workload labels (${MATRIX_WORKLOADS.map((w) => w.label).join(', ')})
  --loads a,b         only these loads (default ${MATRIX_LOADS.join(',')})
  --gateways a,b      only these replica counts (default ${MATRIX_GATEWAYS.join(',')})
  --duration-scale X  multiply every workload's window (default 1; 0.25 for a quick look)
  --seed S            seed (default 1)
  --traces DIR        directory of the trace files (default packages/simulator/traces)
`;

/** Reads a comma-separated list of numbers, naming the flag on error. */
function numberList(raw: readonly string[], name: string, fallback: readonly number[]): number[] {
  if (raw.length === 0) return [...fallback];
  return raw.map((v) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new SwitchyardError('CONFIG_INVALID', `--${name}: expected positive numbers, got "${v}"`);
    return n;
  });
}

/**
 * `switchyard-sim matrix`.
 * @internal
 */
export async function runMatrixCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      candidate: { type: 'string' },
      workloads: { type: 'string' },
      loads: { type: 'string' },
      gateways: { type: 'string' },
      'duration-scale': { type: 'string' },
      seed: { type: 'string' },
      traces: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const labels = listFlag(values, 'workloads');
  const unknown = labels.filter((l) => !MATRIX_WORKLOADS.some((w) => w.label === l));
  if (unknown.length > 0) throw new SwitchyardError('CONFIG_INVALID', `--workloads: unknown "${unknown.join(', ')}" (known: ${MATRIX_WORKLOADS.map((w) => w.label).join(', ')})`);
  const workloads = labels.length === 0 ? MATRIX_WORKLOADS : MATRIX_WORKLOADS.filter((w) => labels.includes(w.label));
  const cells = matrixCells(workloads, numberList(listFlag(values, 'loads'), 'loads', MATRIX_LOADS), numberList(listFlag(values, 'gateways'), 'gateways', MATRIX_GATEWAYS).map(Math.round));
  const started = performance.now();
  io.stdout.write(`${MATRIX_HEADER}\n`);
  const results = await runMatrix({
    cells,
    candidate: stringFlag(values, 'candidate') ?? 'switchyard',
    seed: intFlag(values, 'seed', 1, 0),
    durationScale: numberFlag(values, 'duration-scale', 1),
    tracesDir: stringFlag(values, 'traces') ?? 'packages/simulator/traces',
    readFile: (path) => readFileSync(path, 'utf8'),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    onCell: (r, i, n) => {
      io.stdout.write(`${formatCellRow(r)}\n`);
      io.stderr.write(`[${i + 1}/${n}] ${r.cell.workload.label} load ${r.cell.load} G${r.cell.gateways}: ${r.verdict.pass ? 'pass' : 'FAIL'} (wall ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
    },
  });
  io.stdout.write(`\n${formatMatrix(results).split('\n').slice(-2).join('\n')}`);
  return results.every((r) => r.verdict.pass) && results.length === cells.length ? 0 : 1;
}
