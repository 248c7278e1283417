/**
 * A named line for {@link lineChart}.
 * @internal
 */
export interface Series {
  readonly name: string;
  readonly color: string;
  readonly points: readonly (readonly [number, number])[];
}

/** Escapes text for HTML and SVG. @internal */
export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Colour palette shared by all charts (colour-blind friendly). @internal */
export const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#000000', '#999999', '#882255'];

const fmt = (v: number): string => (Math.abs(v) >= 1000 ? `${Math.round(v / 100) / 10}k` : Math.abs(v) >= 10 ? String(Math.round(v)) : String(Math.round(v * 100) / 100));

/**
 * Options of {@link lineChart}.
 * @internal
 */
export interface LineChartOptions {
  readonly title: string;
  readonly series: readonly Series[];
  readonly xLabel: string;
  readonly yLabel: string;
  readonly logX?: boolean;
  readonly width?: number;
  readonly height?: number;
  readonly yMax?: number;
}

/** Approximate width of SVG text at 11 px (no layout engine in an SVG string). */
const textWidth = (s: string): number => s.length * 6.3;

/**
 * Legend entries laid out in rows below the plot, each as wide as its text, so long policy and
 * endpoint names neither overlap each other nor the curves.
 */
function legendRows(series: readonly Series[], width: number, left: number): { x: number; row: number }[] {
  let x = left;
  let row = 0;
  return series.map((s) => {
    const w = 22 + textWidth(s.name) + 14;
    if (x + w > width && x > left) {
      x = left;
      row++;
    }
    const at = { x, row };
    x += w;
    return at;
  });
}

/** An inline SVG line chart with axes, ticks and a legend below it. @internal */
export function lineChart(o: LineChartOptions): string {
  const W = o.width ?? 560;
  const legend = legendRows(o.series, W - 8, 8);
  const legendH = ((legend[legend.length - 1]?.row ?? -1) + 1) * 16;
  const plotH = o.height ?? 300;
  const H = plotH + legendH;
  const m = { l: 56, r: 12, t: 28, b: 44 + legendH };
  const all = o.series.flatMap((s) => s.points);
  if (all.length === 0) return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="60"><text x="8" y="30">${esc(o.title)}: no data</text></svg>`;
  const tx = (x: number): number => (o.logX === true ? Math.log10(Math.max(x, 1e-3)) : x);
  const xs = all.map(([x]) => tx(x));
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs) === x0 ? x0 + 1 : Math.max(...xs);
  const y1 = o.yMax ?? (Math.max(...all.map(([, y]) => y)) || 1);
  const px = (x: number): number => m.l + ((tx(x) - x0) / (x1 - x0)) * (W - m.l - m.r);
  const py = (y: number): number => H - m.b - (y / y1) * (H - m.t - m.b);
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img"><title>${esc(o.title)}</title>`;
  svg += `<text x="${W / 2}" y="16" text-anchor="middle" class="t">${esc(o.title)}</text>`;
  svg += `<line x1="${m.l}" y1="${H - m.b}" x2="${W - m.r}" y2="${H - m.b}" class="ax"/><line x1="${m.l}" y1="${m.t}" x2="${m.l}" y2="${H - m.b}" class="ax"/>`;
  for (let i = 0; i <= 4; i++) {
    const yv = (y1 * i) / 4;
    svg += `<line x1="${m.l}" y1="${py(yv).toFixed(1)}" x2="${W - m.r}" y2="${py(yv).toFixed(1)}" class="grid"/><text x="${m.l - 4}" y="${(py(yv) + 4).toFixed(1)}" text-anchor="end">${fmt(yv)}</text>`;
    const xt = x0 + ((x1 - x0) * i) / 4;
    const xv = o.logX === true ? Math.pow(10, xt) : xt;
    const xp = m.l + ((xt - x0) / (x1 - x0)) * (W - m.l - m.r);
    svg += `<text x="${xp.toFixed(1)}" y="${H - m.b + 16}" text-anchor="middle">${fmt(xv)}</text>`;
  }
  svg += `<text x="${W / 2}" y="${plotH - 6}" text-anchor="middle">${esc(o.xLabel)}</text><text x="12" y="${plotH / 2}" transform="rotate(-90 12 ${plotH / 2})" text-anchor="middle">${esc(o.yLabel)}</text>`;
  o.series.forEach((s, i) => {
    if (s.points.length > 0) {
      const d = s.points.map(([x, y], k) => `${k === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join('');
      svg += `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.8"/>`;
    }
    const at = legend[i] ?? { x: 8, row: 0 };
    const y = plotH + 4 + at.row * 16;
    svg += `<rect x="${at.x}" y="${y}" width="14" height="4" fill="${s.color}"/><text x="${at.x + 20}" y="${y + 6}">${esc(s.name)}</text>`;
  });
  return `${svg}</svg>`;
}

/** An inline SVG horizontal bar chart. @internal */
export function barChart(title: string, bars: readonly { label: string; value: number; color: string; text: string }[], width = 560): string {
  const rowH = 24;
  const H = 30 + bars.length * rowH;
  // Labels are as wide as the longest one (up to half the chart), so policy names are never cut.
  const labelW = Math.min(width / 2, Math.max(60, ...bars.map((b) => textWidth(b.label) + 12)));
  const max = Math.max(...bars.map((b) => b.value), 1e-9);
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${H}" width="${width}" height="${H}" role="img"><title>${esc(title)}</title><text x="${width / 2}" y="16" text-anchor="middle" class="t">${esc(title)}</text>`;
  bars.forEach((b, i) => {
    const y = 26 + i * rowH;
    const w = ((width - labelW - 90) * b.value) / max;
    svg += `<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${esc(b.label)}</text><rect x="${labelW}" y="${y + 3}" width="${Math.max(0, w).toFixed(1)}" height="${rowH - 8}" fill="${b.color}"/><text x="${(labelW + w + 6).toFixed(1)}" y="${y + 15}">${esc(b.text)}</text>`;
  });
  return `${svg}</svg>`;
}
