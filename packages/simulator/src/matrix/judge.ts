/**
 * One policy's figures in one matrix cell (over the cell's measured window; TTFT with failures as
 * +∞).
 * @public
 * @category Matrix
 */
export interface CellFigures {
  /** Policy name. */
  readonly policy: string;
  /** TTFT p50, ms. */
  readonly ttftP50: number;
  /** TTFT p90, ms. */
  readonly ttftP90: number;
  /** Requests with TTFT within the SLO. */
  readonly goodput: number;
  /** Requests that did not complete (shed, TTL, engine, timeout). */
  readonly failures: number;
  /** Like-for-like hit rate / capacity-aware bound (undefined without prefix information). */
  readonly hitVsCapacity: number | undefined;
  /** The `interactive` tenant's TTFT p99, ms (undefined when the workload has no such tenant). */
  readonly interactiveP99: number | undefined;
}

/**
 * The rules for a cell.
 * @public
 * @category Matrix
 */
export interface MatrixRules {
  /** Tolerance on TTFT p50/p90 against the best baseline (0.05 = within 5%). */
  readonly ttftTolerance: number;
  /** Mooncake 0.7 / 1 replica: TTFT p90 at least this fraction below round-robin's (0.35). */
  readonly reuseP90Cut: number;
  /** Mooncake 0.7 / 1 replica: hit rate at least this fraction of the capacity-aware bound (0.8). */
  readonly reuseHitFraction: number;
}

/**
 * The rules of the issue. @public
 * @category Matrix
 */
export const MATRIX_RULES: MatrixRules = { ttftTolerance: 0.05, reuseP90Cut: 0.35, reuseHitFraction: 0.8 };

/**
 * The verdict on one cell: every check with its outcome and the numbers behind it.
 * @public
 * @category Matrix
 */
export interface CellVerdict {
  /** True when every check passed. */
  readonly pass: boolean;
  /** Each check: a short name, passed or not, and what was compared. */
  readonly checks: readonly { readonly name: string; readonly pass: boolean; readonly detail: string }[];
}

/**
 * Extra "win where there is reuse" checks a cell carries. @public
 * @category Matrix
 */
export type ReuseCheck = 'mooncake-p90-and-hit' | 'interactive-p99';

const fmt = (v: number): string => (Number.isFinite(v) ? `${Math.round(v)}` : '∞');

/**
 * Judges `candidate` against `baselines` (round-robin, least-queue, llm-d default): TTFT p50 and
 * p90 each within the tolerance of the best baseline's, or better; goodput at least the best
 * baseline's; failures at most the fewest any baseline had. `reuse` adds the "win where
 * there is reuse" checks (against round-robin).
 * @public
 * @category Matrix
 */
export function judgeCell(candidate: CellFigures, baselines: readonly CellFigures[], reuse: readonly ReuseCheck[] = [], rules: MatrixRules = MATRIX_RULES): CellVerdict {
  const checks: { name: string; pass: boolean; detail: string }[] = [];
  const best = (f: (c: CellFigures) => number, dir: 'min' | 'max'): CellFigures | undefined =>
    baselines.reduce<CellFigures | undefined>((b, c) => (b === undefined || (dir === 'min' ? f(c) < f(b) : f(c) > f(b)) ? c : b), undefined);
  for (const [name, f] of [['p50', (c: CellFigures) => c.ttftP50], ['p90', (c: CellFigures) => c.ttftP90]] as const) {
    const b = best(f, 'min');
    if (b === undefined) continue;
    const limit = f(b) * (1 + rules.ttftTolerance);
    checks.push({ name: `TTFT ${name}`, pass: f(candidate) <= limit, detail: `${fmt(f(candidate))} vs ${b.policy} ${fmt(f(b))}` });
  }
  const g = best((c) => c.goodput, 'max');
  if (g !== undefined) checks.push({ name: 'goodput', pass: candidate.goodput >= g.goodput, detail: `${candidate.goodput} vs ${g.policy} ${g.goodput}` });
  const fl = best((c) => c.failures, 'min');
  if (fl !== undefined) checks.push({ name: 'failures', pass: candidate.failures <= fl.failures, detail: `${candidate.failures} vs ${fl.policy} ${fl.failures}` });
  const rr = baselines.find((c) => c.policy === 'round-robin');
  for (const r of reuse) {
    if (rr === undefined) continue;
    if (r === 'mooncake-p90-and-hit') {
      const limit = rr.ttftP90 * (1 - rules.reuseP90Cut);
      checks.push({ name: 'reuse: p90 −35% vs RR', pass: candidate.ttftP90 <= limit, detail: `${fmt(candidate.ttftP90)} vs limit ${fmt(limit)}` });
      const hit = candidate.hitVsCapacity ?? 0;
      checks.push({ name: 'reuse: hit ≥ 80% of bound', pass: hit >= rules.reuseHitFraction, detail: `${(hit * 100).toFixed(0)}% of the capacity-aware bound` });
    } else {
      const mine = candidate.interactiveP99 ?? Infinity;
      const theirs = rr.interactiveP99 ?? Infinity;
      checks.push({ name: 'reuse: interactive p99 ≤ RR', pass: mine <= theirs, detail: `${fmt(mine)} vs ${fmt(theirs)}` });
    }
  }
  return { pass: checks.every((c) => c.pass), checks };
}
