import type { WorkloadBounds } from '../bounds/bounds.js';
import { countOutcomes, ttftOrInfinity } from './outcomes.js';
import { percentiles } from './stats.js';
import type { MeasuredSummary, RequestRecord } from './types.js';

const r3 = (v: number): number => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v);

/**
 * What {@link measuredSummary} judges: the offered items of the window (by workload index), the
 * bounds per item, and the SLO.
 * @public
 * @category Report
 */
export interface MeasuredInput {
  /** Workload item id → index. */
  readonly indexOf: ReadonlyMap<string, number>;
  /** Indexes of the items judged. */
  readonly items: readonly number[];
  /** Length of the window, ms. */
  readonly windowMs: number;
  /** TTFT SLO, ms. */
  readonly sloTtftMs: number;
  /** Bounds per item, when computed. */
  readonly bounds: WorkloadBounds | undefined;
  /** Prompt tokens per item. */
  readonly promptTokens: readonly number[];
}

/**
 * Like-for-like results of one run over the measured window: every offered item counts, a
 * missing record counts as a timeout, failures reuse nothing and have infinite TTFT.
 * @public
 * @category Report
 */
export function measuredSummary(records: readonly RequestRecord[], m: MeasuredInput): MeasuredSummary {
  const byIndex = new Map<number, RequestRecord>();
  for (const r of records) {
    const i = m.indexOf.get(r.id);
    if (i !== undefined) byIndex.set(i, r);
  }
  const judged: RequestRecord[] = [];
  let prompt = 0;
  let cached = 0;
  let unlimited = 0;
  let capacity = 0;
  const ttft: number[] = [];
  const slowdown: number[] = [];
  let good = 0;
  for (const i of m.items) {
    const p = m.promptTokens[i] ?? 0;
    const r = byIndex.get(i) ?? { id: String(i), tenant: '', priority: 0, endpoint: undefined, arrivalMs: 0, dispatchMs: undefined, firstTokenMs: undefined, finishMs: 0, promptTokens: p, cachedTokens: 0, outputTokens: 0, status: 'error', reason: 'timeout' };
    judged.push(r);
    prompt += p;
    if (r.status === 'ok') cached += r.cachedTokens;
    unlimited += m.bounds?.unlimitedHitTokens[i] ?? 0;
    capacity += m.bounds?.capacityHitTokens[i] ?? 0;
    const t = ttftOrInfinity(r);
    ttft.push(t);
    if (t <= m.sloTtftMs) good++;
    const lower = m.bounds?.ttftLowerMs[i];
    if (lower !== undefined && lower > 0) slowdown.push(t / lower);
  }
  const perEndpoint = new Map<string, number>();
  for (const r of judged) if (r.status === 'ok' && r.endpoint !== undefined) perEndpoint.set(r.endpoint, (perEndpoint.get(r.endpoint) ?? 0) + 1);
  const counts = [...perEndpoint.values()];
  const mean = counts.length === 0 ? 0 : counts.reduce((a, x) => a + x, 0) / counts.length;
  const sd = counts.length === 0 ? 0 : Math.sqrt(counts.reduce((a, x) => a + (x - mean) ** 2, 0) / counts.length);
  const hitRate = prompt === 0 ? 0 : cached / prompt;
  const ratio = (bound: number): number | undefined => (m.bounds === undefined || bound === 0 ? undefined : r3(cached / bound));
  const tp = percentiles(ttft);
  const sp = slowdown.length === 0 ? undefined : percentiles(slowdown);
  return {
    requests: m.items.length,
    outcomes: countOutcomes(judged),
    hitRate: r3(hitRate),
    hitVsUnlimited: ratio(unlimited),
    hitVsCapacity: ratio(capacity),
    ttft: { count: tp.count, mean: r3(tp.mean), p50: r3(tp.p50), p90: r3(tp.p90), p99: r3(tp.p99), max: r3(tp.max) },
    ttftOverBound: sp === undefined ? undefined : { p50: r3(sp.p50), p90: r3(sp.p90) },
    goodput: { requests: good, fraction: r3(m.items.length === 0 ? 0 : good / m.items.length), perSec: r3(good / Math.max(1e-9, m.windowMs / 1000)) },
    imbalance: { maxOverMean: r3(mean === 0 ? 0 : Math.max(...counts) / mean), cv: r3(mean === 0 ? 0 : sd / mean) },
  };
}

/**
 * Bound hit rates over the judged items.
 * @internal
 */
export function boundRates(bounds: WorkloadBounds, items: readonly number[], promptTokens: readonly number[]): { unlimited: number; capacity: number } {
  let prompt = 0;
  let u = 0;
  let c = 0;
  for (const i of items) {
    prompt += promptTokens[i] ?? 0;
    u += bounds.unlimitedHitTokens[i] ?? 0;
    c += bounds.capacityHitTokens[i] ?? 0;
  }
  return { unlimited: prompt === 0 ? 0 : u / prompt, capacity: prompt === 0 ? 0 : c / prompt };
}
