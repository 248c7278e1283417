import { esc } from './svg.js';
import type { ComparisonReport, PolicySummary } from './types.js';

/** Formats ms (∞ for failures counted as infinite). @internal */
export const fmtMs = (v: number | null): string => (v === null || !Number.isFinite(v) ? '∞' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);
/** Formats a fraction as a percentage. @internal */
export const fmtPct = (v: number | undefined): string => (v === undefined ? '–' : `${(v * 100).toFixed(1)}%`);

const times = (v: number | undefined): string => (v === undefined ? '–' : Number.isFinite(v) ? `${v.toFixed(2)}×` : '∞');

const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

/** The sound references, shown before any policy. @internal */
export function boundsSection(report: ComparisonReport): string {
  const b = report.bounds;
  if (b === undefined) return '<p class="muted">Bounds were not computed for this report.</p>';
  return table(['reference', 'value', 'what it is'], [
    ['unlimited-cache hit bound', fmtPct(b.unlimitedHitRate), 'each request reuses the longest leading run of its blocks seen in any earlier prompt or output'],
    ['capacity-aware hit bound', fmtPct(b.capacityHitRate), `Belady's optimal eviction over the merged block stream, ${b.capacityBlocks.toLocaleString('en-US')} blocks (the whole fleet's KV cache), arrival order`],
    ['TTFT lower bound p50 / p90', `${fmtMs(b.ttftLower.p50)} / ${fmtMs(b.ttftLower.p90)}`, 'per request: idle engine, chunked prefill of what is left after the best possible hit, fastest jitter, plus gateway CPU and request path'],
  ]);
}

/** Like-for-like results: the same offered requests for every policy. @internal */
export function measuredTable(ps: readonly PolicySummary[]): string {
  const head = ['policy', 'ok / offered', 'shed', 'TTL', 'engine', 'timeout', 'TTFT p50', 'TTFT p90', 'TTFT p99', 'TTFT / bound p50', 'TTFT / bound p90', 'goodput', 'goodput req/s', 'hit rate', 'vs unlimited', 'vs capacity', 'imbalance max/mean', 'imbalance CV'];
  return table(head, ps.map((p) => {
    const m = p.measured;
    const o = m.outcomes;
    return [
      `<b>${esc(p.policy)}</b>`, `${o.ok} / ${m.requests}`, String(o.shed), String(o.ttl), String(o.engine), String(o.timeout),
      fmtMs(m.ttft.p50), fmtMs(m.ttft.p90), fmtMs(m.ttft.p99),
      times(m.ttftOverBound?.p50), times(m.ttftOverBound?.p90),
      fmtPct(m.goodput.fraction), m.goodput.perSec.toFixed(2), fmtPct(m.hitRate), m.hitVsUnlimited?.toFixed(3) ?? '–', m.hitVsCapacity?.toFixed(3) ?? '–',
      m.imbalance.maxOverMean.toFixed(2), m.imbalance.cv.toFixed(2),
    ];
  }));
}

/** Means and 95% intervals over seeds. @internal */
export function seedsTable(report: ComparisonReport): string {
  const s = report.acrossSeeds;
  if (s.seeds.length < 2) return `<p class="muted">One seed (${s.seeds.join(', ')}); run with <code>--seeds N</code> for confidence intervals.</p>`;
  const ci = (v: { mean: number; ci95: number }, f: (x: number) => string): string => (Number.isFinite(v.mean) ? `${f(v.mean)} ± ${f(v.ci95)}` : '∞');
  return `<p class="muted">Seeds ${s.seeds.join(', ')}: mean ± half-width of the 95% confidence interval (Student t).</p>${table(
    ['policy', 'hit rate', 'TTFT p50', 'TTFT p90', 'goodput req/s', 'failed'],
    s.policies.map((p) => [`<b>${esc(p.policy)}</b>`, ci(p.hitRate, (x) => fmtPct(x)), ci(p.ttftP50, fmtMs), ci(p.ttftP90, fmtMs), ci(p.goodputPerSec, (x) => x.toFixed(2)), ci(p.failed, (x) => x.toFixed(1))]),
  )}`;
}
