import type { MetricFamily, Sample } from './types.js';

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/**
 * Formats a sample value the way Prometheus clients do (`NaN`, `+Inf`, `-Inf`).
 * @public
 */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return Object.is(value, -0) ? '-0' : String(value);
}

function formatSample(s: Sample): string {
  const entries = Object.entries(s.labels);
  const labels = entries.length === 0 ? '' : `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
  const ts = s.timestampMs === undefined ? '' : ` ${Math.trunc(s.timestampMs)}`;
  return `${s.name}${labels} ${formatSampleValue(s.value)}${ts}`;
}

/**
 * Writes families as Prometheus text exposition 0.0.4 (`# HELP`, `# TYPE`, samples), the inverse
 * of {@link parsePrometheusText}. Used by the simulator's model servers and by tests.
 * @public
 * @category Model-server metrics
 */
export function formatPrometheusText(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const f of families) {
    if (f.help !== undefined) lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`);
    if (f.type !== 'untyped') lines.push(`# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) lines.push(formatSample(s));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
