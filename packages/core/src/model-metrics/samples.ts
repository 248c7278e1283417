import type { MetricFamily, Sample } from './types.js';

/**
 * Indexes every sample by its sample name (so `vllm:num_requests_waiting` and
 * `x_bucket` are both direct keys).
 * @public
 * @category Model-server metrics
 */
export function indexSamples(families: readonly MetricFamily[]): Map<string, Sample[]> {
  const out = new Map<string, Sample[]>();
  for (const f of families) {
    for (const s of f.samples) {
      let list = out.get(s.name);
      if (list === undefined) out.set(s.name, (list = []));
      list.push(s);
    }
  }
  return out;
}

/**
 * True when every label in `wanted` has the same value on the sample.
 * @public
 */
export function labelsMatch(sample: Sample, wanted: Readonly<Record<string, string>> | undefined): boolean {
  if (wanted === undefined) return true;
  for (const [k, v] of Object.entries(wanted)) if (sample.labels[k] !== v) return false;
  return true;
}

/**
 * One labelled series of a histogram: cumulative buckets by upper bound, sum and count.
 * @public
 * @category Model-server metrics
 */
export interface HistogramSeries {
  /** Series labels without `le`. */
  readonly labels: Readonly<Record<string, string>>;
  /** Cumulative bucket counts, sorted by upper bound (`+Inf` last). */
  readonly buckets: readonly { readonly le: number; readonly count: number }[];
  /** `_sum`, when present. */
  readonly sum: number | undefined;
  /** `_count`, when present. */
  readonly count: number | undefined;
}

/**
 * Groups a histogram family's `_bucket`/`_sum`/`_count` samples into series by their labels.
 * Bucket samples whose `le` is not a number are ignored.
 * @public
 * @category Model-server metrics
 */
export function histogramSeries(family: MetricFamily): HistogramSeries[] {
  const series = new Map<string, { labels: Record<string, string>; buckets: { le: number; count: number }[]; sum: number | undefined; count: number | undefined }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    let entry = series.get(key);
    if (entry === undefined) series.set(key, (entry = { labels: rest, buckets: [], sum: undefined, count: undefined }));
    const suffix = s.name.slice(family.name.length);
    if (suffix === '_bucket' && le !== undefined) {
      const bound = le === '+Inf' ? Infinity : Number(le);
      if (!Number.isNaN(bound)) entry.buckets.push({ le: bound, count: s.value });
    } else if (suffix === '_sum') entry.sum = s.value;
    else if (suffix === '_count') entry.count = s.value;
  }
  const out = [...series.values()];
  for (const e of out) e.buckets.sort((a, b) => a.le - b.le);
  return out;
}
