import { describe, expect, it } from 'vitest';
import { judgeCell, matrixCells, MATRIX_WORKLOADS, type CellFigures } from '@switchyard/simulator';

const fig = (policy: string, over: Partial<CellFigures> = {}): CellFigures => ({ policy, ttftP50: 100, ttftP90: 200, goodput: 1000, failures: 0, hitVsCapacity: undefined, interactiveP99: undefined, ...over });
const baselines = [fig('round-robin'), fig('least-queue', { ttftP50: 90 }), fig('default', { ttftP90: 180, goodput: 1001 })];

describe('judgeCell', () => {
  it('passes within 5% of the best baseline per percentile, with their best goodput and fewest failures', () => {
    const v = judgeCell(fig('switchyard', { ttftP50: 94.5, ttftP90: 189, goodput: 1001 }), baselines);
    expect(v.pass).toBe(true);
    expect(v.checks.map((c) => c.name)).toEqual(['TTFT p50', 'TTFT p90', 'goodput', 'failures']);
  });
  it('fails a percentile more than 5% above the best baseline, naming it', () => {
    const v = judgeCell(fig('switchyard', { ttftP50: 94.6, ttftP90: 150, goodput: 1001 }), baselines);
    expect(v.pass).toBe(false);
    expect(v.checks.filter((c) => !c.pass).map((c) => c.detail)).toEqual(['95 vs least-queue 90']);
  });
  it('fails on less goodput or more failures than the best baseline', () => {
    expect(judgeCell(fig('switchyard', { ttftP50: 1, ttftP90: 1, goodput: 1000 }), baselines).checks.find((c) => c.name === 'goodput')?.pass).toBe(false);
    expect(judgeCell(fig('switchyard', { ttftP50: 1, ttftP90: 1, goodput: 2000, failures: 1 }), baselines).checks.find((c) => c.name === 'failures')?.pass).toBe(false);
  });
  it('treats failures as +∞ TTFT: an infinite p90 never passes against a finite one', () => {
    expect(judgeCell(fig('switchyard', { ttftP90: Infinity, goodput: 2000 }), baselines).pass).toBe(false);
  });
  it('checks the reuse cells against round-robin', () => {
    const rr = [fig('round-robin', { ttftP90: 1000, interactiveP99: 300 })];
    const ok = judgeCell(fig('switchyard', { ttftP50: 1, ttftP90: 650, goodput: 1000, hitVsCapacity: 0.8, interactiveP99: 300 }), rr, ['mooncake-p90-and-hit', 'interactive-p99']);
    expect(ok.pass).toBe(true);
    const bad = judgeCell(fig('switchyard', { ttftP50: 1, ttftP90: 651, goodput: 1000, hitVsCapacity: 0.79, interactiveP99: 301 }), rr, ['mooncake-p90-and-hit', 'interactive-p99']);
    expect(bad.checks.filter((c) => !c.pass).map((c) => c.name)).toEqual(['reuse: p90 −35% vs RR', 'reuse: hit ≥ 80% of bound', 'reuse: interactive p99 ≤ RR']);
  });
});

describe('matrixCells', () => {
  it('covers every workload × 3 loads × 2 replica counts, with the reuse checks where the issue puts them', () => {
    const cells = matrixCells();
    expect(cells).toHaveLength(MATRIX_WORKLOADS.length * 6);
    expect(cells.filter((c) => c.reuse.includes('mooncake-p90-and-hit')).map((c) => [c.workload.label, c.load, c.gateways])).toEqual([['mooncake', 0.7, 1]]);
    expect(cells.filter((c) => c.reuse.includes('interactive-p99'))).toHaveLength(6);
  });
});
