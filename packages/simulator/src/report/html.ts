import { boundsSection, measuredTable, seedsTable } from './html-bounds.js';
import { barChart, esc, lineChart, PALETTE } from './svg.js';
import type { ComparisonReport, PolicySummary } from './types.js';

const ms = (v: number): string => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);
const pct = (v: number | undefined): string => (v === undefined ? '–' : `${(v * 100).toFixed(1)}%`);
const color = (i: number): string => PALETTE[i % PALETTE.length] ?? '#333';

function summaryTable(ps: readonly PolicySummary[]): string {
  const head = ['policy', 'done / sent', 'TTFT p50', 'TTFT p90', 'TTFT p99', 'E2E p50', 'E2E p90', 'E2E p99', 'queue p50', 'queue p90', 'req/s', 'out tok/s', 'engine prefix hit', 'preempt', 'Jain'];
  const rows = ps.map((p) => [
    `<b>${esc(p.policy)}</b>`, `${p.completed} / ${p.requests}`, ms(p.ttft.p50), ms(p.ttft.p90), ms(p.ttft.p99), ms(p.e2e.p50), ms(p.e2e.p90), ms(p.e2e.p99),
    ms(p.queue.p50), ms(p.queue.p90), p.requestsPerSec.toFixed(2), p.outputTokensPerSec.toFixed(0), pct(p.prefixHitRate), String(p.preemptions), p.jain.toFixed(3),
  ]);
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function tenantTable(ps: readonly PolicySummary[]): string {
  const tenants = [...new Set(ps.flatMap((p) => p.tenants.map((t) => t.tenant)))].sort();
  const head = ['tenant', ...ps.flatMap((p) => [`${esc(p.policy)} share`, `${esc(p.policy)} served/demanded`, `${esc(p.policy)} TTFT p90`])];
  const rows = tenants.map((t) => [esc(t), ...ps.flatMap((p) => {
    const s = p.tenants.find((x) => x.tenant === t);
    return s === undefined ? ['–', '–', '–'] : [pct(s.servedShare), pct(s.normalizedThroughput), ms(s.ttftP90)];
  })]);
  rows.push(['<b>Jain index</b>', ...ps.flatMap((p) => [p.jain.toFixed(3), '', ''])]);
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function loadCharts(ps: readonly PolicySummary[]): string {
  return ps.map((p) => {
    const series = Object.entries(p.load).map(([ep, pts], i) => ({ name: ep, color: color(i), points: pts.map(([t, v]) => [t / 1000, v] as const) }));
    return lineChart({ title: `${p.policy}: requests per endpoint (running + waiting)`, series, xLabel: 'time (s)', yLabel: 'requests', width: 460, height: 240 });
  }).join('\n');
}

/**
 * Requests per endpoint of each policy. Each run has its own fleet, whose ports differ from run to
 * run, so endpoints are numbered in address order within each run (the name is the cell's tooltip).
 */
function endpointTable(ps: readonly PolicySummary[]): string {
  const n = Math.max(0, ...ps.map((p) => Object.keys(p.endpointRequests).length));
  const head = `<tr><th>policy</th>${Array.from({ length: n }, (_, i) => `<th>endpoint ${String(i + 1)}</th>`).join('')}</tr>`;
  const rows = ps.map((p) => {
    const eps = Object.keys(p.endpointRequests).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    return `<tr><td>${esc(p.policy)}</td>${eps.map((e) => `<td title="${esc(e)}">${String(p.endpointRequests[e] ?? 0)}</td>`).join('')}</tr>`;
  });
  return `<table><thead>${head}</thead><tbody>${rows.join('\n')}</tbody></table><p class="muted">Endpoints are numbered in address order within each run; hover a count for the endpoint.</p>`;
}

/** The one-glance summary: which policy won on each headline measure, and by how much. */
function glance(ps: readonly PolicySummary[]): string {
  if (ps.length < 2) return '';
  const lines: string[] = [];
  const best = (label: string, f: (p: PolicySummary) => number, lowerWins: boolean, show: (v: number) => string): void => {
    const sorted = [...ps].filter((p) => Number.isFinite(f(p))).sort((a, b) => (lowerWins ? f(a) - f(b) : f(b) - f(a)));
    const [first, second] = sorted;
    if (first === undefined || second === undefined) return;
    const a = f(first);
    const b = f(second);
    const ratio = lowerWins ? (a === 0 ? undefined : b / a) : b === 0 ? undefined : a / b;
    const versus = ratio === undefined ? 'ahead of' : ratio < 1.005 ? 'tied with' : `${ratio.toFixed(2)}× better than`;
    lines.push(`<li><b>${label}</b>: <b>${esc(first.policy)}</b> (${show(a)}), ${versus} ${esc(second.policy)} (${show(b)})</li>`);
  };
  best('TTFT p90', (p) => p.ttft.p90, true, ms);
  best('End-to-end p90', (p) => p.e2e.p90, true, ms);
  best('Prefix-cache hit rate', (p) => p.prefixHitRate, false, pct);
  best('Output throughput', (p) => p.outputTokensPerSec, false, (v) => `${v.toFixed(0)} tok/s`);
  return `<h2>At a glance</h2><ul class="glance">${lines.join('')}</ul><p class="muted">Over all completed requests; the like-for-like table below counts failures and excludes warm-up and drain.</p>`;
}

/**
 * Renders a comparison as one self-contained HTML page: inline CSS and SVG only, no scripts
 * and no external assets, so it can be attached to an issue or opened offline.
 * @public
 * @category Report
 */
export function renderReportHtml(report: ComparisonReport): string {
  const ps = report.policies;
  const cdf = (key: 'ttftCdf' | 'e2eCdf', title: string): string =>
    lineChart({ title, series: ps.map((p, i) => ({ name: p.policy, color: color(i), points: p[key] })), xLabel: 'ms (log scale)', yLabel: 'fraction of requests', logX: true, yMax: 1 });
  const bars = (title: string, f: (p: PolicySummary) => number, text: (p: PolicySummary) => string): string =>
    barChart(title, ps.map((p, i) => ({ label: p.policy, value: f(p), color: color(i), text: text(p) })));
  const w = report.workload;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(report.title)}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#1b1f24;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
table{border-collapse:collapse;font-size:12.5px;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 7px;text-align:right}th{background:#f6f8fa}td:first-child,th:first-child{text-align:left}
.grid-2{display:flex;flex-wrap:wrap;gap:12px}.muted{color:#57606a}.note{background:#fff8c5;border:1px solid #d4a72c;padding:6px 10px}
svg{background:#fff;border:1px solid #eaeef2;margin:4px}svg text{font-size:11px;fill:#1b1f24}svg .t{font-size:13px;font-weight:600}svg .ax{stroke:#57606a}svg .grid{stroke:#eaeef2}
</style></head><body>
<h1>${esc(report.title)}</h1>
<p class="muted">Workload <b>${esc(w.name)}</b>: ${esc(w.description)} (${w.requests} requests). Fleet: ${report.fleet.pods} × ${esc(report.fleet.profile)}, ${report.fleet.gateways ?? 1} gateway replica(s), metrics scraped every ${report.fleet.scrapeIntervalMs} ms (staggered, jittered), KV events delayed ${report.fleet.kvEventDelayMs} ms (median). Seed ${report.seed}.</p>
${glance(ps)}
<h2>Bounds: what no policy can beat</h2>
${boundsSection(report)}
<h2>Like-for-like results</h2>
<p class="muted">${report.window.requests} offered requests arriving in [${(report.window.fromMs / 1000).toFixed(1)} s, ${(report.window.toMs / 1000).toFixed(1)} s) (warm-up and drain excluded), the same for every policy. Failures count by reason and as infinite TTFT; goodput = TTFT within ${report.sloTtftMs} ms. Hit rate = prompt tokens served from cache / offered prompt tokens; ratios divide it by the bounds above.</p>
${measuredTable(ps)}
${report.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}
${seedsTable(report)}
<h2>All completed requests</h2>
${summaryTable(ps)}
<p class="muted">Over completed requests of the whole run (warm-up and drain included). Engine prefix hit = the engines' own <code>prefix_cache_hits / prefix_cache_queries</code> (tokens, re-queries after preemption included). Queue = arrival to dispatch (admission + scheduling). Jain = fairness of tenants' served/demanded ratios.</p>
<div class="grid-2">
${bars('TTFT p90', (p) => p.ttft.p90, (p) => ms(p.ttft.p90))}
${bars('Prefix-cache hit rate (engine-measured)', (p) => p.prefixHitRate, (p) => pct(p.prefixHitRate))}
${bars('Output throughput (tokens/s)', (p) => p.outputTokensPerSec, (p) => p.outputTokensPerSec.toFixed(0))}
${bars('E2E p90', (p) => p.e2e.p90, (p) => ms(p.e2e.p90))}
</div>
<h2>Latency distributions</h2>
<div class="grid-2">
${cdf('ttftCdf', 'TTFT CDF')}
${cdf('e2eCdf', 'End-to-end latency CDF')}
</div>
<h2>Tenants</h2>
${tenantTable(ps)}
<h2>Per-endpoint load over time</h2>
<div class="grid-2">
${loadCharts(ps)}
</div>
<h2>Requests per endpoint</h2>
${endpointTable(ps)}
<h2>Policies</h2>
<ul>${ps.map((p) => `<li><b>${esc(p.policy)}</b>: ${esc(p.description)}</li>`).join('')}</ul>
</body></html>
`;
}
