import type { DecisionTrace, ProfileTrace } from '../scheduling/trace.js';

/**
 * Response header that carries a compact decision trace when an adapter is asked for it
 * (`switchyard-gateway --decision-trace-header`, `switchyard-epp --decision-trace-header`).
 * @public
 * @category Decision console
 */
export const DECISION_TRACE_HEADER = 'x-switchyard-decision-trace';

/**
 * Options of {@link formatCompactTrace}.
 * @public
 * @category Decision console
 */
export interface CompactTraceOptions {
  /** Endpoints listed with their total score, best first. @defaultValue 5 */
  readonly topEndpoints?: number;
  /** Longest value returned; a longer trace is cut at a field boundary and ends in `;cut=1`. @defaultValue 1024 */
  readonly maxLength?: number;
}

/** Anything a header value or our separators cannot carry becomes `_`. */
const unsafe = /[^\x21-\x7e]|[;,=]/g;
const clean = (text: string): string => text.replace(unsafe, '_');

const CUT = ';cut=1';
const round = (n: number): string => (Number.isFinite(n) ? String(Math.round(n * 1000) / 1000) : String(n));

function profileFields(p: ProfileTrace, top: number): string[] {
  const fields = [`profile=${clean(p.profile)}`, `candidates=${p.candidates.length}`];
  if (p.picked.length > 0) fields.push(`picked=${p.picked.map(clean).join(',')}`);
  const removed = p.filters.filter((f) => f.removed.length > 0);
  if (removed.length > 0) fields.push(`filtered=${removed.map((f) => `${clean(f.name)}:${f.removed.length}`).join(',')}`);
  const totals = Object.entries(p.totals).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (totals.length > 0) fields.push(`scores=${totals.slice(0, top).map(([id, s]) => `${clean(id)}:${round(s)}`).join(',')}`);
  if (p.scorers.length > 0) fields.push(`scorers=${p.scorers.map((s) => `${clean(s.name)}:${round(s.weight)}`).join(',')}`);
  if (p.error !== undefined) fields.push(`error=${clean(p.error)}`);
  return fields;
}

/**
 * One-line summary of a decision trace, safe as an HTTP header value (printable ASCII, `;`
 * between fields, `,` between list items): the target model, priority and fairness id, then per
 * profile its candidates, the picked endpoints, how many endpoints each filter removed, the best
 * total scores and the scorers with their weights. The full trace stays in the console
 * (`/console/api/decisions/{requestId}`).
 * @example
 * `model=llama;priority=0;fairness=default-flow;profile=default;candidates=3;picked=10.0.0.2:8000;scores=10.0.0.2:8000:2.67,10.0.0.1:8000:1.5;scorers=queue-scorer:2,prefix-cache-scorer:3`
 * @public
 * @category Decision console
 */
export function formatCompactTrace(trace: DecisionTrace, options: CompactTraceOptions = {}): string {
  const top = options.topEndpoints ?? 5;
  const max = options.maxLength ?? 1024;
  const fields = [`model=${clean(trace.targetModel)}`, `priority=${trace.priority}`, `fairness=${clean(trace.fairnessId)}`];
  for (const p of trace.profiles) fields.push(...profileFields(p, top));
  let out = '';
  for (const f of fields) {
    const next = out === '' ? f : `${out};${f}`;
    if (next.length > max - CUT.length) return `${out}${CUT}`;
    out = next;
  }
  return out;
}
