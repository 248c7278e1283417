import type { Registry } from 'prom-client';

/**
 * Options shared by the fast metrics.
 * @public
 * @category Metrics of our own
 */
export interface FastMetricOptions<TLabel extends string> {
  /** Metric name. */
  readonly name: string;
  /** Help text. */
  readonly help: string;
  /** Label names, in exposition order. */
  readonly labelNames?: readonly TLabel[] | undefined;
  /** Registries to register in. */
  readonly registers?: readonly Registry[] | undefined;
  /**
   * Most label-value combinations kept (default 1,000). Further combinations all record into
   * one series whose label values are {@link OVERFLOW_LABEL_VALUE}, so a client choosing label
   * values (model names, fairness ids) cannot grow memory or the scrape without limit.
   */
  readonly maxSeries?: number | undefined;
}

/**
 * Label value of the series that collects combinations beyond `maxSeries`.
 * @public
 * @category Metrics of our own
 */
export const OVERFLOW_LABEL_VALUE = '__overflow__';

/**
 * One exposition sample, in prom-client's JSON shape.
 * @public
 * @category Metrics of our own
 */
export interface FastMetricSample {
  /** Label values. */
  readonly labels: Record<string, string | number>;
  /** Sample value. */
  readonly value: number;
  /** Series name when it differs from the metric's (`_bucket`, `_sum`, `_count`). */
  readonly metricName?: string;
}

/**
 * A fast metric's scrape-time values (prom-client's `MetricObjectWithValues` shape).
 * @public
 * @category Metrics of our own
 */
export interface FastMetricValues {
  /** Metric name. */
  readonly name: string;
  /** Help text. */
  readonly help: string;
  /** Prometheus type. */
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** Samples. */
  readonly values: FastMetricSample[];
  /** How cluster workers' values combine. */
  readonly aggregator: 'sum';
}

/**
 * One series of a fast metric: its exposed labels and its recording child.
 * @public
 * @category Metrics of our own
 */
export interface FastMetricSeries<TChild> {
  /** Label names to values, as exposed. */
  readonly labels: Record<string, string>;
  /** The recording child. */
  readonly child: TChild;
}

/**
 * Base of the fast metrics. prom-client validates and re-hashes label values on every call, even
 * through a bound child; here label values are resolved once per combination (one Map lookup),
 * and recording is a field update on the child. prom-client's `Registry` only needs a `name` and
 * an async `get()`, so these metrics live in ordinary registries and render in the same
 * exposition format as prom-client's own.
 * @public
 * @category Metrics of our own
 */
export abstract class FastMetric<TLabel extends string, TChild> {
  /** Metric name. */
  readonly name: string;
  /** Help text. */
  readonly help: string;
  /** Label names, in exposition order. */
  readonly labelNames: readonly TLabel[];
  /** Series cap (see {@link FastMetricOptions.maxSeries}). */
  readonly maxSeries: number;
  /** The series, keyed by their joined label values. */
  protected readonly series = new Map<string, FastMetricSeries<TChild>>();
  #unlabelled: TChild | undefined;

  constructor(o: FastMetricOptions<TLabel>) {
    this.name = o.name;
    this.help = o.help;
    this.labelNames = o.labelNames ?? [];
    this.maxSeries = Math.max(1, Math.floor(o.maxSeries ?? 1000));
    // registerMetric is typed for prom-client's classes only; at run time it needs name + get().
    for (const r of o.registers ?? []) (r as unknown as { registerMetric(m: unknown): void }).registerMetric(this);
  }

  /**
   * The child for these label values, in `labelNames` order (created on first use; keep it when
   * the values repeat). Missing values are exposed as empty strings.
   */
  labels(...values: string[]): TChild {
    return this.labelsByKey(values.join('\u0000'), values);
  }

  /**
   * {@link FastMetric.labels} with a key the caller already joined (`values.join('\u0000')`), for
   * callers that cache their own key.
   */
  labelsByKey(key: string, values: readonly string[]): TChild {
    const hit = this.series.get(key);
    if (hit !== undefined) return hit.child;
    const full = this.series.size >= this.maxSeries;
    const labels: Record<string, string> = {};
    this.labelNames.forEach((n, i) => (labels[n] = full ? OVERFLOW_LABEL_VALUE : (values[i] ?? '')));
    if (full) {
      const overflowKey = this.labelNames.map(() => OVERFLOW_LABEL_VALUE).join('\u0000');
      const overflow = this.series.get(overflowKey);
      if (overflow !== undefined) return overflow.child;
      // The overflow series may exceed the cap by one: it is the cap's own safety valve.
      const s = { labels, child: this.createChild() };
      this.series.set(overflowKey, s);
      return s.child;
    }
    const s = { labels, child: this.createChild() };
    this.series.set(key, s);
    return s.child;
  }

  /** Drops the series of these label values (prom-client's `remove`), e.g. for a revision that vanished. */
  remove(...values: string[]): void {
    this.series.delete(values.join('\u0000'));
  }

  /** The series without labels (`metric{}`), for metrics recorded without label values. */
  protected unlabelled(): TChild {
    if (this.#unlabelled === undefined) {
      const child = this.createChild();
      this.series.set('\u0001unlabelled', { labels: {}, child });
      this.#unlabelled = child;
    }
    return this.#unlabelled;
  }

  /** Forgets every series (prom-client's `reset()`). */
  reset(): void {
    this.series.clear();
    this.#unlabelled = undefined;
  }

  /** Number of series held. */
  get size(): number {
    return this.series.size;
  }

  /** Creates one recording child. */
  protected abstract createChild(): TChild;

  /** Scrape-time values, in prom-client's JSON shape. */
  abstract get(): Promise<FastMetricValues>;
}
