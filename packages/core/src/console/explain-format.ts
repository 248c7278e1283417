import type { ProfileTrace } from '../scheduling/trace.js';
import type { DecisionRecord } from './decision-log.js';

const fixed = (v: number | undefined, digits = 3): string => (v === undefined ? '-' : v.toFixed(digits));

function pad(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd());
}

function profileLines(p: ProfileTrace): string[] {
  const removedBy = new Map<string, string>();
  for (const f of p.filters) for (const id of f.removed) removedBy.set(id, f.name);
  const lines = [`profile ${p.profile}${p.error === undefined ? '' : ` (failed: ${p.error})`}`];
  lines.push(`  candidates: ${p.candidates.join(', ') || 'none'}`);
  for (const f of p.filters) lines.push(`  filter ${f.name}: removed ${f.removed.length === 0 ? 'nothing' : f.removed.join(', ')}`);
  const header = ['  endpoint', ...p.scorers.map((s) => `${s.name} x${String(s.weight)}`), 'total', ''];
  const rows = p.candidates.map((id) => {
    const rank = p.picked.indexOf(id);
    const note = removedBy.has(id) ? `filtered by ${removedBy.get(id) ?? ''}` : rank === 0 ? '<- picked' : rank > 0 ? `fallback ${String(rank)}` : '';
    return [`  ${id}`, ...p.scorers.map((s) => (id in s.scores ? `${fixed(s.scores[id])} (${fixed(s.weighted[id], 2)})` : '-')), fixed(p.totals[id]), note];
  });
  lines.push(...pad([header, ...rows]));
  lines.push(`  picked: ${p.picked.join(', ') || 'nothing'}`);
  return lines;
}

/**
 * Renders a decision and its trace for a terminal: the outcome, then per profile the candidates,
 * what each filter removed, each scorer's raw score (and weighted score) per endpoint, the totals
 * and the pick. What `explain` prints.
 * @public
 * @category Decision console
 */
export function formatExplanation(record: DecisionRecord): string {
  const lines = [
    `request ${record.requestId}: model ${record.model}${record.targetModel !== '' && record.targetModel !== record.model ? ` -> ${record.targetModel}` : ''}, tenant ${record.fairnessId || '-'}, priority ${String(record.priority)}, pool ${record.pool}`,
  ];
  if (record.outcome === 'rejected') lines.push(`decision: rejected (${record.error ?? 'error'})`);
  else lines.push(`decision: ${record.endpoint ?? '-'}${record.fallbacks.length === 0 ? '' : `, fallbacks ${record.fallbacks.join(', ')}`}`);
  const t = record.trace;
  if (t !== undefined) {
    lines.push(`data producers: ${t.producers.map((p) => (p.error === undefined ? p.name : `${p.name} (error: ${p.error})`)).join(', ') || 'none'}`);
    for (const p of t.profiles) lines.push(...profileLines(p));
  }
  return lines.join('\n');
}
