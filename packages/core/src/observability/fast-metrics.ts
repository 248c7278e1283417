import { FastMetric, type FastMetricOptions, type FastMetricSample, type FastMetricValues } from './fast-metric.js';

/**
 * A counter series.
 * @public
 * @category Metrics of our own
 */
export class FastCounterChild {
  /** Current value. */
  value = 0;
  /** Adds `v` (default 1). */
  inc(v = 1): void {
    this.value += v;
  }
}

/**
 * A Prometheus counter whose series are resolved once per label combination.
 * @public
 * @category Metrics of our own
 */
export class FastCounter<TLabel extends string = never> extends FastMetric<TLabel, FastCounterChild> {
  /** Adds `v` (default 1) to the series without labels. */
  inc(v = 1): void {
    this.unlabelled().inc(v);
  }
  /** Creates one series. */
  protected createChild(): FastCounterChild {
    return new FastCounterChild();
  }
  /** Scrape-time values (prom-client's JSON shape). */
  get(): Promise<FastMetricValues> {
    const values: FastMetricSample[] = [];
    for (const { labels, child } of this.series.values()) values.push({ labels, value: child.value });
    return Promise.resolve({ name: this.name, help: this.help, type: 'counter', values, aggregator: 'sum' });
  }
}

/**
 * A gauge series.
 * @public
 * @category Metrics of our own
 */
export class FastGaugeChild {
  /** Current value. */
  value = 0;
  /** Adds `v` (default 1). */
  inc(v = 1): void {
    this.value += v;
  }
  /** Subtracts `v` (default 1). */
  dec(v = 1): void {
    this.value -= v;
  }
  /** Sets the value. */
  set(v: number): void {
    this.value = v;
  }
}

/**
 * A Prometheus gauge whose series are resolved once per label combination.
 * @public
 * @category Metrics of our own
 */
export class FastGauge<TLabel extends string = never> extends FastMetric<TLabel, FastGaugeChild> {
  /** Sets the series without labels. */
  set(v: number): void {
    this.unlabelled().set(v);
  }
  /** Adds `v` (default 1) to the series without labels. */
  inc(v = 1): void {
    this.unlabelled().inc(v);
  }
  /** Subtracts `v` (default 1) from the series without labels. */
  dec(v = 1): void {
    this.unlabelled().dec(v);
  }
  /** Creates one series. */
  protected createChild(): FastGaugeChild {
    return new FastGaugeChild();
  }
  /** Scrape-time values (prom-client's JSON shape). */
  get(): Promise<FastMetricValues> {
    const values: FastMetricSample[] = [];
    for (const { labels, child } of this.series.values()) values.push({ labels, value: child.value });
    return Promise.resolve({ name: this.name, help: this.help, type: 'gauge', values, aggregator: 'sum' });
  }
}

/**
 * A histogram series.
 * @public
 * @category Metrics of our own
 */
export class FastHistogramChild {
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  readonly counts: Float64Array;
  /** Sum of observations. */
  sum = 0;
  /** Number of observations. */
  count = 0;
  readonly #bounds: Float64Array;

  /** @param bounds - sorted upper bounds, shared by every series of the metric */
  constructor(bounds: Float64Array) {
    this.#bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Records one value (in the first bucket whose upper bound is ≥ it, as Prometheus's `le`). */
  observe(v: number): void {
    const b = this.#bounds;
    // Binary search: the llm-d latency histograms have 35 buckets.
    let lo = 0;
    let hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v <= (b[mid] as number)) hi = mid;
      else lo = mid + 1;
    }
    this.counts[lo] = (this.counts[lo] as number) + 1;
    this.sum += v;
    this.count++;
  }
}

/**
 * Options of {@link FastHistogram}.
 * @public
 * @category Metrics of our own
 */
export interface FastHistogramOptions<TLabel extends string> extends FastMetricOptions<TLabel> {
  /** Bucket upper bounds (any order; +Inf is implicit). */
  readonly buckets: readonly number[];
}

/**
 * A Prometheus histogram whose series are resolved once per label combination.
 * @public
 * @category Metrics of our own
 */
export class FastHistogram<TLabel extends string = never> extends FastMetric<TLabel, FastHistogramChild> {
  readonly #bounds: Float64Array;

  constructor(o: FastHistogramOptions<TLabel>) {
    super(o);
    this.#bounds = Float64Array.from([...new Set(o.buckets)].sort((a, b) => a - b));
  }

  /** Records one value in the series without labels. */
  observe(v: number): void {
    this.unlabelled().observe(v);
  }

  /** Creates one series. */
  protected createChild(): FastHistogramChild {
    return new FastHistogramChild(this.#bounds);
  }

  /** Scrape-time values (prom-client's JSON shape: cumulative `_bucket`, then `_sum`, `_count`). */
  get(): Promise<FastMetricValues> {
    const values: FastMetricSample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, child } of this.series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += child.counts[i] ?? 0;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: child.count, metricName: bucket });
      values.push({ labels, value: child.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: child.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' });
  }
}
