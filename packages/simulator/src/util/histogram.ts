/**
 * A cumulative Prometheus-style histogram with fixed upper bounds.
 * @public
 * @category Util
 */
export class Histogram {
  /** Upper bounds, ascending (the implicit `+Inf` bucket is not listed). */
  readonly bounds: readonly number[];
  /** Per-bucket (non-cumulative) counts; the last slot is `+Inf`. */
  readonly counts: Float64Array;
  /** Sum of observed values. */
  sum = 0;
  /** Number of observations. */
  count = 0;

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Records one value. */
  observe(value: number): void {
    const b = this.bounds;
    // Binary search for the first bound >= value.
    let lo = 0;
    let hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((b[mid] ?? Infinity) < value) lo = mid + 1;
      else hi = mid;
    }
    this.counts[lo] = (this.counts[lo] ?? 0) + 1;
    this.sum += value;
    this.count++;
  }

  /** Cumulative count of observations `<=` each bound, then the total. */
  cumulative(): number[] {
    const out: number[] = [];
    let acc = 0;
    for (const c of this.counts) {
      acc += c;
      out.push(acc);
    }
    return out;
  }
}
