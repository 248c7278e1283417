import type { CellResult } from './run.js';

const ms = (v: number): string => (!Number.isFinite(v) ? '∞' : v >= 10_000 ? `${(v / 1000).toFixed(1)}s` : `${Math.round(v)}`);

/**
 * Header of {@link formatCellRow}'s table. @public
 * @category Matrix
 */
export const MATRIX_HEADER = '| workload | load | G | requests | verdict | candidate p50 / p90 ms | best baseline p50 / p90 ms | goodput (cand / best) | failures (cand / fewest) | failed checks |\n|---|---|---|---|---|---|---|---|---|---|';

/**
 * One Markdown table row of a cell: the candidate's TTFT against the best baseline's (named),
 * goodput and failures, and the checks that failed with their numbers.
 * @public
 * @category Matrix
 */
export function formatCellRow(r: CellResult): string {
  const [mine, ...theirs] = r.figures;
  if (mine === undefined) return '';
  const bestP50 = theirs.reduce((b, c) => (c.ttftP50 < b.ttftP50 ? c : b));
  const bestP90 = theirs.reduce((b, c) => (c.ttftP90 < b.ttftP90 ? c : b));
  const goodput = Math.max(...theirs.map((c) => c.goodput));
  const failures = Math.min(...theirs.map((c) => c.failures));
  const failed = r.verdict.checks.filter((c) => !c.pass).map((c) => `${c.name}: ${c.detail}`).join('; ');
  return `| ${r.cell.workload.label} | ${r.cell.load} | ${r.cell.gateways} | ${r.requests} | ${r.verdict.pass ? 'pass' : '**FAIL**'} | ${ms(mine.ttftP50)} / ${ms(mine.ttftP90)} | ${ms(bestP50.ttftP50)} (${bestP50.policy}) / ${ms(bestP90.ttftP90)} (${bestP90.policy}) | ${mine.goodput} / ${goodput} | ${mine.failures} / ${failures} | ${failed === '' ? '–' : failed} |`;
}

/**
 * The whole table plus a pass count.
 * @public
 * @category Matrix
 */
export function formatMatrix(results: readonly CellResult[]): string {
  const passed = results.filter((r) => r.verdict.pass).length;
  return `${MATRIX_HEADER}\n${results.map(formatCellRow).join('\n')}\n\n${passed} of ${results.length} cells pass.\n`;
}
