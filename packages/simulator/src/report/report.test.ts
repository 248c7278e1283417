import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReport, cdfPoints, jainIndex, percentiles, renderReportHtml, writeReport, type PolicyRun, type RequestRecord } from '@switchyard/simulator';

const rec = (i: number, tenant: string, ttft: number, e2e: number, ep: string, status: RequestRecord['status'] = 'ok'): RequestRecord => ({
  id: `r${i}`, tenant, priority: 0, endpoint: status === 'ok' ? ep : undefined, arrivalMs: i * 100, dispatchMs: status === 'ok' ? i * 100 + 5 : undefined,
  firstTokenMs: status === 'ok' ? i * 100 + ttft : undefined, finishMs: i * 100 + e2e, promptTokens: 1000, cachedTokens: 0, outputTokens: status === 'ok' ? 100 : 0, status,
});

const run = (policy: string, hits: number, slow: number): PolicyRun => ({
  policy,
  description: `${policy} policy`,
  records: Array.from({ length: 100 }, (_, i) => rec(i, i % 4 === 0 ? 'b' : 'a', 50 * slow + i, 500 * slow + i, `ep-${i % 2}`, i === 99 && policy === 'round-robin' ? 'rejected' : 'ok')),
  samples: Array.from({ length: 40 }, (_, i) => ({ t: i * 250, endpoint: `ep-${i % 2}`, running: i % 5, waiting: 1, kvUsage: 0.5 })),
  durationMs: 10_000,
  wallMs: 123,
  engine: { prefixQueries: 100_000, prefixHits: hits, preemptions: 0 },
});

describe('report statistics', () => {
  it('computes nearest-rank percentiles and Jain index', () => {
    const p = percentiles(Array.from({ length: 100 }, (_, i) => i + 1));
    expect([p.p50, p.p90, p.p99, p.max, p.mean]).toEqual([50, 90, 99, 100, 50.5]);
    expect(percentiles([]).count).toBe(0);
    expect(jainIndex([1, 1, 1, 1])).toBe(1);
    expect(jainIndex([1, 0, 0, 0])).toBe(0.25);
  });

  it('produces monotone CDFs ending at 1 (property)', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 500 }), (xs) => {
      const pts = cdfPoints(xs, 50);
      expect(pts.at(-1)?.[1]).toBe(1);
      expect(pts.length).toBeLessThanOrEqual(52);
      for (let i = 1; i < pts.length; i++) {
        expect(pts[i]![0]).toBeGreaterThanOrEqual(pts[i - 1]![0]);
        expect(pts[i]![1]).toBeGreaterThan(pts[i - 1]![1]);
      }
      const j = jainIndex(xs);
      expect(j).toBeGreaterThanOrEqual(1 / xs.length - 1e-9);
      expect(j).toBeLessThanOrEqual(1 + 1e-9);
    }));
  });
});

describe('buildReport / renderReportHtml', () => {
  const input = {
    workload: { name: 'shared-prefix', description: 'test <workload>', params: { a: 1 }, requests: 100 },
    fleet: { pods: 2, profile: 'tiny', scrapeIntervalMs: 50, kvEventDelayMs: 10 },
    seed: 1,
    runs: [run('round-robin', 20_000, 3), run('precise', 60_000, 1), run('default', 80_000, 1)],
  };

  it('summarizes each policy', () => {
    const r = buildReport(input);
    const [rr, precise] = r.policies;
    expect(rr?.prefixHitRate).toBe(0.2);
    expect(rr?.failed).toBe(1);
    expect(rr?.ttft.p90).toBeGreaterThan(precise?.ttft.p90 ?? Infinity);
    expect(precise?.requestsPerSec).toBe(10);
    expect(precise?.tenants.map((t) => t.tenant)).toEqual(['a', 'b']);
    expect(precise?.tenants.reduce((a, t) => a + t.servedShare, 0)).toBeCloseTo(1, 2);
    expect(precise?.jain).toBe(1);
    expect(rr?.tenants.find((t) => t.tenant === 'a')?.normalizedThroughput).toBeLessThan(1);
    expect(Object.keys(precise?.load ?? {})).toEqual(['ep-0', 'ep-1']);
    expect(precise?.endpointRequests).toEqual({ 'ep-0': 50, 'ep-1': 50 });
    expect(JSON.stringify(buildReport(input))).toBe(JSON.stringify(r));
    expect(JSON.stringify(r)).not.toContain('wallMs');
  });

  it('renders a self-contained page with inline SVG and escaped text', () => {
    const html = renderReportHtml(buildReport(input));
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<svg /g)?.length).toBeGreaterThanOrEqual(9);
    expect(html).not.toMatch(/<script|<link|src=|href=|@import|url\(/i);
    expect(html).toContain('test &lt;workload&gt;');
    expect(html).toContain('TTFT CDF');
    expect(html).toContain('Jain index');
    expect(html).toContain('precise');
    // Bounds and like-for-like results come before the all-requests summary.
    expect(html.indexOf('Bounds: what no policy can beat')).toBeLessThan(html.indexOf('Like-for-like results'));
    expect(html.indexOf('Like-for-like results')).toBeLessThan(html.indexOf('All completed requests'));
  });

  it('leads with a one-glance summary and counts requests per endpoint of fleets whose ports differ', () => {
    const r = buildReport(input);
    const moved = { ...r, policies: r.policies.map((p, i) => (i === 1 ? { ...p, endpointRequests: { '127.0.0.1:9101': 50, '127.0.0.1:9100': 50 } } : p)) };
    const html = renderReportHtml(moved);
    expect(html.indexOf('At a glance')).toBeLessThan(html.indexOf('Bounds: what no policy can beat'));
    expect(html).toMatch(/<b>TTFT p90<\/b>: <b>(precise|default)<\/b>/);
    const table = html.slice(html.indexOf('<h2>Requests per endpoint</h2>'), html.indexOf('<h2>Policies</h2>'));
    expect(table).toContain('<td title="127.0.0.1:9100">50</td><td title="127.0.0.1:9101">50</td>');
    expect(table).not.toMatch(/<td[^>]*>0<\/td>/);
  });

  it('lays legends out below the plot so long names never overlap', () => {
    const html = renderReportHtml(buildReport(input));
    let legends = 0;
    for (const chart of html.split('<svg ')) {
      const rows = new Map<string, number[]>();
      for (const m of chart.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="14" height="4"/g)) {
        legends++;
        rows.set(m[2] ?? '', [...(rows.get(m[2] ?? '') ?? []), Number(m[1])]);
      }
      // Entries of one row are at least as far apart as a short name is wide.
      for (const xs of rows.values()) for (let i = 1; i < xs.length; i++) expect((xs[i] ?? 0) - (xs[i - 1] ?? 0)).toBeGreaterThanOrEqual(40);
    }
    expect(legends).toBeGreaterThan(0);
  });

  it('judges every policy on the same offered set: failures count as infinite TTFT and by reason', () => {
    // Warm-up and drain excluded: items arriving in [990, 8910) ms of a 0-9900 ms span.
    const r = buildReport({ ...input, window: { warmup: 0.1, drain: 0.1 } });
    expect(r.window.requests).toBe(80);
    const rr = r.policies[0]!;
    const precise = r.policies[1]!;
    expect(rr.measured.requests).toBe(precise.measured.requests);
    // The rejected request (r99) is in the drain, so it does not count here...
    expect(rr.measured.outcomes.ok).toBe(80);
    // ...but with the whole span judged it is a shed failure at +∞.
    const all = buildReport({ ...input, window: { warmup: 0, drain: 0 } });
    const m = all.policies[0]!.measured;
    expect(m.requests).toBe(100);
    expect(m.outcomes).toEqual({ ok: 99, shed: 1, ttl: 0, engine: 0, timeout: 0 });
    expect(m.ttft.max).toBe(Infinity);
    // Goodput at a 200 ms SLO: round-robin's TTFTs are 150 + i ms, so i ≤ 50 pass.
    const slo = buildReport({ ...input, window: { warmup: 0, drain: 0 }, sloTtftMs: 200 });
    expect(slo.policies[0]!.measured.goodput.requests).toBe(51);
    expect(slo.policies[0]!.measured.imbalance.maxOverMean).toBeCloseTo(1.01, 2);
  });

  it('writes report.html and report.json side by side', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-report-'));
    try {
      const paths = await writeReport(buildReport(input), join(dir, 'out', 'cmp.html'));
      expect(paths.json).toBe(join(dir, 'out', 'report.json'));
      const json = JSON.parse(await readFile(paths.json, 'utf8')) as { policies: unknown[] };
      expect(json.policies).toHaveLength(3);
      expect(await readFile(paths.html, 'utf8')).toContain('<svg');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
