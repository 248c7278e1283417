import { Histogram, type MetricObjectWithValues, type MetricValueWithName, type Registry } from 'prom-client';

/**
 * One labelled series of a {@link SeriesHistogram}. Callers keep a reference (per flow and
 * outcome, say), so recording is a bucket search and three additions: no label hashing, no
 * allocation, which prom-client's `observe(labels, value)` cannot offer.
 * @public
 * @category Metrics
 */
export class SeriesHistogramChild {
  /** The series' labels. */
  readonly labels: Readonly<Record<string, string>>;
  /** Observations per bucket (not cumulative); the last slot counts values above every bound. */
  readonly counts: Float64Array;
  /** Sum of observed values. */
  sum = 0;
  /** Number of observations. */
  count = 0;
  readonly #upper: readonly number[];

  /** @internal use {@link SeriesHistogram.series} */
  constructor(labels: Readonly<Record<string, string>>, upper: readonly number[]) {
    this.labels = labels;
    this.#upper = upper;
    this.counts = new Float64Array(upper.length + 1);
  }

  /** Records one value. */
  observe(value: number): void {
    const upper = this.#upper;
    let i = 0;
    while (i < upper.length && value > (upper[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += value;
    this.count++;
  }
}

/**
 * Options of {@link SeriesHistogram}.
 * @public
 * @category Metrics
 */
export interface SeriesHistogramOptions {
  /** Metric name. */
  readonly name: string;
  /** Help text. */
  readonly help: string;
  /** Label names, in exposition order. */
  readonly labelNames: readonly string[];
  /** Bucket upper bounds, ascending. */
  readonly buckets: readonly number[];
  /** Registries to register on. */
  readonly registers: readonly Registry[];
}

/**
 * A prom-client histogram whose data lives in {@link SeriesHistogramChild} objects the hot path holds
 * directly; prom-client only formats them at scrape time. It is a real `Histogram` for registries
 * (`Registry.merge`, `metrics()`, `getMetricsAsJSON()`).
 * @public
 * @category Metrics
 */
export class SeriesHistogram extends Histogram {
  readonly #name: string;
  readonly #help: string;
  readonly #upper: readonly number[];
  // A plain field, not #private: prom-client's constructor calls reset() before subclass fields exist.
  private seriesByKey: Map<string, SeriesHistogramChild> | undefined;

  constructor(options: SeriesHistogramOptions) {
    super({ name: options.name, help: options.help, labelNames: [...options.labelNames], buckets: [...options.buckets], registers: [...options.registers] });
    this.#name = options.name;
    this.#help = options.help;
    this.#upper = [...options.buckets];
    this.seriesByKey = new Map();
  }

  /** The series of `labels` (created on first use; keep the reference). */
  series(labels: Readonly<Record<string, string>>): SeriesHistogramChild {
    const key = JSON.stringify(labels);
    const map = (this.seriesByKey ??= new Map<string, SeriesHistogramChild>());
    let s = map.get(key);
    if (s === undefined) {
      s = new SeriesHistogramChild(labels, this.#upper);
      map.set(key, s);
    }
    return s;
  }

  /** Every series, for derived metrics (counters of the same events). */
  allSeries(): Iterable<SeriesHistogramChild> {
    return this.seriesByKey?.values() ?? [];
  }

  /** Zeroes every series (prom-client `resetMetrics`). */
  override reset(): void {
    for (const s of this.allSeries()) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }

  /** Exposition data in prom-client's format. */
  async getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    await Promise.resolve();
    const name = this.#name;
    const values: MetricValueWithName<string>[] = [];
    for (const s of this.allSeries()) {
      let acc = 0;
      this.#upper.forEach((le, i) => {
        acc += s.counts[i] ?? 0;
        values.push({ labels: { ...s.labels, le }, value: acc, metricName: `${name}_bucket` });
      });
      values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${name}_bucket` });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${name}_count` });
    }
    // prom-client's typings describe more than its registries read (name, help, type, values, aggregator).
    return { name, help: this.#help, type: 'histogram', values, aggregator: 'sum' } as unknown as MetricObjectWithValues<MetricValueWithName<string>>;
  }

  override get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    return this.getForPromString();
  }
}
