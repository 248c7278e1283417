import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MATRIX_WORKLOADS, matrixCells, runMatrix } from '@switchyard/simulator';

const TRACES = fileURLToPath(new URL('../../traces/', import.meta.url));
const workloads = (labels: readonly string[]) => MATRIX_WORKLOADS.filter((w) => labels.includes(w.label));

// A reduced, fixed-seed slice of the routing matrix (docs/benchmarks/routing-matrix.md has the
// whole one): the switchyard profile must not lose to round-robin, least-queue or llm-d's default
// on TTFT p50/p90 (5% tolerance), goodput or failures. Each run is deterministic for its seed.
describe('routing matrix (reduced)', () => {
  it('switchyard never loses on multi-turn at 0.7 (1 and 4 replicas) and Mooncake at 0.5 (1 replica)', async () => {
    const cells = [...matrixCells(workloads(['multi-turn']), [0.7], [1, 4]), ...matrixCells(workloads(['mooncake']), [0.5], [1])];
    const results = await runMatrix({ cells, durationScale: 0.2, seed: 1, tracesDir: TRACES, readFile: (p) => readFileSync(p, 'utf8') });
    expect(results).toHaveLength(cells.length);
    for (const r of results) {
      const failed = r.verdict.checks.filter((c) => !c.pass).map((c) => `${c.name}: ${c.detail}`);
      expect({ cell: `${r.cell.workload.label} ${r.cell.load} G${r.cell.gateways}`, failed }).toEqual({ cell: `${r.cell.workload.label} ${r.cell.load} G${r.cell.gateways}`, failed: [] });
      expect(r.requests).toBeGreaterThan(100);
    }
  }, 900_000);
});
